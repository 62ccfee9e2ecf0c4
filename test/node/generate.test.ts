/**
 * `npm run generate`: everything that follows from the module folders (the registry's import list,
 * the queues in wrangler.toml, their binding types, the queue concurrency table, the docs' publisher
 * table) is up to date in the repository, `--check` names what is not, and adding a publisher is its
 * folder plus one run: the walkthrough below adds a small JSON-API module to a copy of the project
 * and edits nothing else by hand.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadForNode } from "../../scripts/lib/bundle.mjs";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");
/** The files the generator writes. */
const GENERATED = [
  "src/publishers/modules.gen.ts",
  "src/queue/concurrency.gen.ts",
  "wrangler.toml",
  "worker-configuration.d.ts",
  "docs/publishers.md",
  "README.md",
];

async function generate(cwd: string, ...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["scripts/generate.mjs", ...args], {
      cwd,
      timeout: 120_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** A copy of what the generator reads and writes, with the project's node_modules linked in. */
function copyProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "generate-test-"));
  for (const path of [
    "src",
    "scripts",
    "docs/publishers.md",
    "package.json",
    ".prettierrc.json",
    ...GENERATED,
  ])
    cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

describe("npm run generate", () => {
  it("--check: every generated file in the repository is up to date", async () => {
    const { code, output } = await generate(ROOT, "--check");
    expect(output).toContain("generated files are up to date");
    expect(code).toBe(0);
  });

  it("--check names each stale file and writes nothing; a run rewrites them", async () => {
    const dir = copyProject();
    try {
      const toml = read(dir, "wrangler.toml").replace(
        'queue = "scrape-feefo"\nmax_batch_size = 2',
        'queue = "scrape-feefo"\nmax_batch_size = 9',
      );
      writeFileSync(join(dir, "wrangler.toml"), toml);
      writeFileSync(join(dir, "src/publishers/modules.gen.ts"), "// emptied\n");
      const feefoReadme = "src/publishers/feefo/README.md";
      writeFileSync(
        join(dir, feefoReadme),
        read(dir, feefoReadme).replace("| `since` | yes |", "| `since` | no |"),
      );
      const check = await generate(dir, "--check");
      expect(check.code).toBe(1);
      expect(check.output).toContain(
        `out of date (run npm run generate): src/publishers/modules.gen.ts, wrangler.toml, ${feefoReadme}, worker-configuration.d.ts`,
      );
      expect(read(dir, "wrangler.toml")).toBe(toml);
      expect((await generate(dir)).code).toBe(0);
      for (const path of [...GENERATED, feefoReadme]) expect(read(dir, path), path).toBe(read(ROOT, path));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A new publisher as a contributor writes it: one folder, one file. */
const NEW_MODULE = `import { jsonApiPublisher } from "../kit/json-api";

const PAGE = "https://www.acme-reviews.com/shops/blue-door";

export const acmeReviews = jsonApiPublisher({
  name: "acme-reviews",
  displayName: "Acme Reviews",
  kind: "consumer",
  domains: ["acme-reviews.com"],
  ratingScale: "1–5 stars, kept as is",
  queue: { concurrency: 3, retries: 4, retryDelay: 90, note: "acme-reviews.com: the public reviews API." },
  profile: {
    urls: [{ path: /^\\/shops\\/(?<shop>[a-z0-9-]{1,60})(?:\\/|$)/ }],
    ids: [/^(?<shop>[a-z0-9-]{1,60})$/],
    page: "https://www.acme-reviews.com/shops/{shop}",
    examples: [
      { input: PAGE, url: PAGE },
      { input: "blue-door", url: PAGE },
      { input: "https://www.acme-reviews.com/pricing", error: "Enter the URL of a profile on acme-reviews.com." },
      { input: "blue door", error: "Enter a valid URL." },
    ],
  },
  api: {
    what: "Acme reviews",
    request: "https://api.acme-reviews.com/v1/shops/{key}/reviews?page={page}",
    reviews: "data",
    total: "meta.total",
    pages: "meta.pages",
    review: { id: "id", rating: "stars", text: "body", date: "created_at" },
  },
});
`;

/** Its README as the contributor writes it, without the generated "Coverage" section. */
const NEW_README =
  "# acme-reviews.com\n\nModule `src/publishers/acme-reviews/`.\n\n## What it reads\n\nThe reviews API.\n";

describe("adding a publisher: its folder, then npm run generate", () => {
  let dir: string;
  beforeAll(async () => {
    dir = copyProject();
    mkdirSync(join(dir, "src/publishers/acme-reviews"));
    writeFileSync(join(dir, "src/publishers/acme-reviews/index.ts"), NEW_MODULE);
    writeFileSync(join(dir, "src/publishers/acme-reviews/README.md"), NEW_README);
    const { code, output } = await generate(dir);
    expect(code, output).toBe(0);
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("changes only the generated files", () => {
    const changed = GENERATED.filter((path) => read(dir, path) !== read(ROOT, path));
    expect(changed).toEqual(GENERATED);
  });

  it("registers the module: the import list has it and the registry serves its domain by its examples", async () => {
    expect(read(dir, "src/publishers/modules.gen.ts")).toContain(
      'import { acmeReviews } from "./acme-reviews";',
    );
    const { publisherFor } = (await loadForNode(
      'export { publisherFor } from "./src/publishers/registry";',
      dir,
    )) as typeof import("../../src/publishers/registry");
    const publisher = publisherFor("acme-reviews.com");
    expect(publisher.module.name).toBe("acme-reviews");
    expect(publisher.resolveProfileKey("blue-door")).toEqual({
      url: "https://www.acme-reviews.com/shops/blue-door",
    });
  });

  it("declares its queue in wrangler.toml with its own consumer settings, and its gate's concurrency", () => {
    const toml = read(dir, "wrangler.toml");
    expect(toml).toContain(
      '[[queues.producers]]\nbinding = "SCRAPE_ACME_REVIEWS"\nqueue = "scrape-acme-reviews"\n',
    );
    expect(toml).toContain(
      [
        "# acme-reviews.com: the public reviews API.",
        "[[queues.consumers]]",
        'queue = "scrape-acme-reviews"',
        "max_batch_size = 3",
        "max_batch_timeout = 0",
        "max_retries = 4",
        "max_concurrency = 3",
        "retry_delay = 90",
        'dead_letter_queue = "scrape-dlq"',
      ].join("\n"),
    );
    expect(read(dir, "src/queue/concurrency.gen.ts")).toContain('"scrape-acme-reviews": 3,');
  });

  it("types its queue binding in worker-configuration.d.ts (wrangler types)", () => {
    expect(read(dir, "worker-configuration.d.ts")).toMatch(/\n\tSCRAPE_ACME_REVIEWS: Queue;\n/);
  });

  it("lists it in docs/publishers.md's publisher table", () => {
    expect(read(dir, "docs/publishers.md")).toContain(
      "| `acme-reviews.com` | Acme Reviews | consumer | `acme-reviews` | dedicated | no | no | 1–5 stars, kept as is |",
    );
  });

  it("counts it and links its README in the README's list of dedicated modules", () => {
    expect(read(dir, "README.md")).toContain("[Acme Reviews](src/publishers/acme-reviews/README.md)");
  });

  it("gives its README the generated Coverage section, before its first section", () => {
    const readme = read(dir, "src/publishers/acme-reviews/README.md");
    expect(readme).toMatch(
      /^# acme-reviews\.com\n\nModule `src\/publishers\/acme-reviews\/`\.\n\n<!-- coverage:start \(npm run generate\) -->\n## Coverage\n/,
    );
    expect(readme).toContain("| `sort` | `newest` |\n");
    expect(readme).toContain("| `title` | no |\n");
    expect(readme).toMatch(/<!-- coverage:end -->\n\n## What it reads\n\nThe reviews API\.\n$/);
  });

  it("leaves nothing out of date", async () => {
    expect((await generate(dir, "--check")).code).toBe(0);
  }, 120_000);
});
