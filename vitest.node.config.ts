import { defineConfig } from "vitest/config";

// The npm scripts' own tests (keys CLI, deploy checks) run in Node, not workerd: they spawn wrangler
// and read local state files. `npm test` runs them after the Worker suite.
export default defineConfig({
  test: {
    name: "node",
    include: ["test/node/**/*.test.ts"],
    environment: "node",
    testTimeout: 300_000,
  },
});
