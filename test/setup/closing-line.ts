/**
 * A vitest reporter that ends the run with one plain line, `tests: N passed, N failed, N skipped`,
 * which any CI reads without knowing vitest's own summary format (npm test uses it beside vitest's
 * minimal reporter). With CLOSING_LINE_FILE set, the counts go to that file as JSON instead:
 * scripts/test.mjs runs two vitest processes and prints one line over both.
 */
import { writeFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

export default class ClosingLine implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed" || state === "failed") count[state] += 1;
        else count.skipped += 1;
      }
      // A file that failed to load has no tests to count, but it failed.
      if (module.state() === "failed" && ![...module.children.allTests()].length) count.failed += 1;
    }
    const file = process.env.CLOSING_LINE_FILE;
    if (file) writeFileSync(file, JSON.stringify(count));
    else console.log(`tests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped`);
  }
}
