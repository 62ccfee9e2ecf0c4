/**
 * The coverage tables in the docs are the registry's claims: docs/publishers.md's matrix and each
 * module README's "Coverage" section are what `npm run generate` writes from the modules' `sorts`,
 * `summaryFields` and `reviewFields` (run it when this fails).
 */
import { describe, expect, it } from "vitest";
import doc from "../../docs/publishers.md?raw";
import { OPTIONAL_REVIEW_FIELDS } from "../../src/core/reviews";
import { listPublishers, MODULES } from "../../src/publishers/registry";
import {
  COVERAGE_END,
  COVERAGE_START,
  coverageMatrix,
  MATRIX_END,
  MATRIX_START,
  moduleCoverage,
  withModuleCoverage,
} from "../../scripts/generate/publisher-table";

/** A module's README as text (Vite's `?raw`), or undefined where the folder has none. */
async function readmeOf(name: string): Promise<string | undefined> {
  try {
    return ((await import(`../../src/publishers/${name}/README.md?raw`)) as { default: string }).default;
  } catch {
    return undefined;
  }
}
const dedicated = () => listPublishers().filter((p) => p.support === "dedicated");

describe("docs/publishers.md coverage matrix", () => {
  const matrix = doc.slice(doc.indexOf(MATRIX_START) + MATRIX_START.length, doc.indexOf(MATRIX_END)).trim();

  it("is the matrix the registry generates", () => {
    expect(doc.indexOf(MATRIX_START)).toBeGreaterThan(0);
    expect(matrix).toBe(coverageMatrix());
  });

  it("has one row per dedicated module, ticked exactly where the module claims a review field", () => {
    const rows = matrix.split("\n").slice(2);
    expect(rows).toHaveLength(MODULES.length);
    const byModule = dedicated().sort((a, b) => a.module.localeCompare(b.module));
    for (const [i, p] of byModule.entries()) {
      const cells = rows[i].split(" | ").slice(3);
      expect(
        cells.map((cell) => cell.replace(/\s*\|$/, "").trim() === "✓"),
        p.module,
      ).toEqual(OPTIONAL_REVIEW_FIELDS.map((field) => p.reviewFields.includes(field)));
    }
  });
});

describe("module README coverage sections", () => {
  it.each(dedicated().map((p) => [p.module, p] as const))(
    "%s/README.md carries its generated table",
    async (name, p) => {
      const readme = await readmeOf(name);
      expect(readme, `src/publishers/${name}/README.md`).toBeDefined();
      expect(readme).toContain(`${COVERAGE_START}\n${moduleCoverage(p)}\n${COVERAGE_END}`);
    },
  );

  it("names every option, summary part and review field with what the module provides", () => {
    const yelp = dedicated().find((p) => p.module === "yelp")!;
    const rows = moduleCoverage(yelp)
      .split("\n")
      .filter((line) => line.startsWith("| `"));
    expect(rows).toEqual([
      "| `since` | yes |",
      "| `max_reviews` | yes |",
      "| `sort` | `newest`, `relevant`, `highest`, `lowest` |",
      "| `publisher_summary.rating` | no |",
      "| `publisher_summary.review_count` | yes |",
      "| `publisher_summary.histogram` | no |",
      ...OPTIONAL_REVIEW_FIELDS.map((f) => `| \`${f}\` | ${yelp.reviewFields.includes(f) ? "yes" : "no"} |`),
    ]);
    expect(rows).toContain("| `likes` | yes |");
  });

  it("inserts the section before a README's first section when it has none, and replaces it in place", () => {
    const p = dedicated()[0];
    const bare = "# x.com\n\nIntro.\n\n## What it reads\n\nText.\n";
    const inserted = withModuleCoverage(bare, p);
    expect(inserted).toBe(
      `# x.com\n\nIntro.\n\n${COVERAGE_START}\n${moduleCoverage(p)}\n${COVERAGE_END}\n\n## What it reads\n\nText.\n`,
    );
    const stale = inserted.replace("| `since` | yes |", "| `since` | no |");
    expect(withModuleCoverage(stale, p)).toBe(inserted);
    expect(withModuleCoverage(inserted, p)).toBe(inserted);
  });
});
