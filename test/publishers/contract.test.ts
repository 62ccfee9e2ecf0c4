/**
 * The contract every registered publisher module keeps, checked over the registry itself: a module
 * folder that `npm run generate` has registered is under these tests with nothing else to edit,
 * its declared profile_key examples included.
 */
import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { canonicalPublisherKey } from "../../src/core/publishers/canonical";
import { LISTED } from "../../src/publishers/listed";
import { moduleQueue } from "../../src/publishers/queues";
import { ALL_MODULES, GENERIC_MODULE, MODULES, publisherFor } from "../../src/publishers/registry";
import { QUEUE_HANDLERS } from "../../src/app/queue/router";
import type { ProfileExample } from "../../src/publishers/types";
import { OPTIONAL_REVIEW_FIELDS } from "../../src/core/reviews";
import { SUMMARY_FIELDS } from "../../src/core/tasks/publisher-summary";
import type { PublisherFixture } from "../fixtures/sites";
import { CONSUMERS, PRODUCERS } from "../helpers/queue";
import { readCoverageSample } from "./coverage";

/**
 * Fixture sites present under test/publishers/<name>/site.ts, listed from disk by the global setup
 * at every run (a glob import would be resolved once and kept by vitest's module cache).
 */
const FIXTURE_SITES = inject("publisherFixtureNames");

/** The module's fixture site, test/publishers/<name>/site.ts, or undefined where it has none. */
async function fixtureOf(name: string): Promise<PublisherFixture | undefined> {
  if (!FIXTURE_SITES.includes(name)) return undefined;
  return ((await import(`./${name}/site.ts`)) as { default: PublisherFixture }).default;
}

describe("scraping queues", () => {
  it("wrangler.toml declares a scraping queue for every module and none for anything else", () => {
    const derived = Object.fromEntries(
      ALL_MODULES.map((module) => [moduleQueue(module.name).binding, moduleQueue(module.name).name]),
    );
    const declared = Object.fromEntries(
      Object.entries(PRODUCERS).filter(([binding]) => binding.startsWith("SCRAPE_")),
    );
    expect(declared).toEqual(derived);
  });

  it("derives the binding and the name from the module's name", () => {
    expect(moduleQueue("google-maps")).toEqual({ binding: "SCRAPE_GOOGLE_MAPS", name: "scrape-google-maps" });
  });
});

describe.each(ALL_MODULES.map((module) => [module.name, module] as const))(
  "publisher module %s",
  (_name, module) => {
    it("has its own queue: a producer binding, a consumer with dead letters in wrangler.toml, and a queue handler", () => {
      const queue = moduleQueue(module.name);
      expect(PRODUCERS[queue.binding]).toBe(queue.name);
      expect(env[queue.binding]).toBeDefined();
      expect(CONSUMERS[queue.name]).toMatchObject({
        queue: queue.name,
        dead_letter_queue: expect.any(String),
      });
      expect(Object.hasOwn(QUEUE_HANDLERS, queue.name)).toBe(true);
      expect(ALL_MODULES.filter((other) => moduleQueue(other.name).name === queue.name)).toEqual([module]);
    });

    it("claims no domain listed.ts still lists (the module's data replaces the entry)", () => {
      const listed = new Set(LISTED.flatMap((entry) => [entry.domain, ...(entry.aliases ?? [])]));
      expect(module.domains.filter((domain) => listed.has(domain))).toEqual([]);
    });

    it("names canonical domains that no other module claims, and each resolves to it", () => {
      for (const domain of module.domains) {
        expect(canonicalPublisherKey(domain)).toBe(domain);
        expect(publisherFor(domain).module).toBe(module);
      }
      expect(module === GENERIC_MODULE ? module.domains.length === 0 : module.domains.length > 0).toBe(true);
    });

    it("describes itself for the publisher list (name, kind, rating scale)", () => {
      expect(module.displayName.trim()).not.toBe("");
      expect(module.ratingScale.trim()).not.toBe("");
      expect(module.kind).toMatch(/^[a-z ]+$/);
    });

    it("refuses a profile URL on another site and text that is neither a URL nor an id it knows", () => {
      const key = module.domains[0] ?? "example.com";
      expect(module.profile.resolve("https://evil.example.net/profile", key)).toEqual({
        error: `Enter a URL on ${key} or one of its subdomains.`,
      });
      expect("error" in module.profile.resolve("javascript:alert(1)//x", key)).toBe(true);
    });

    it("resolves every profile_key example it declares as declared, through the registry as submit does", () => {
      const results = module.profile.examples.map((example) => {
        const publisher = publisherFor(example.publisher ?? module.domains[0]);
        return {
          input: example.input,
          module: publisher.module.name,
          resolved: publisher.resolveProfileKey(example.input),
        };
      });
      expect(results).toEqual(
        module.profile.examples.map((example) => ({
          input: example.input,
          module: module.name,
          resolved: "url" in example ? { url: example.url } : { error: example.error },
        })),
      );
    });

    it("has an accepted example for every URL and id form its profile declares", () => {
      expect(module.profile.untested?.() ?? []).toEqual([]);
    });

    it.runIf(module !== GENERIC_MODULE)(
      "declares examples of an accepted profile URL, a page that is no profile and text that is no id",
      () => {
        const { examples } = module.profile;
        const site = (e: ProfileExample) => e.publisher ?? module.domains[0];
        expect(examples.some((e) => "url" in e && /^https?:\/\//.test(e.input))).toBe(true);
        expect(
          examples.some((e) => "error" in e && e.error === `Enter the URL of a profile on ${site(e)}.`),
        ).toBe(true);
        expect(examples.some((e) => "error" in e && e.error === "Enter a valid URL.")).toBe(true);
      },
    );

    it("shows on its fixture's coverage sample every review field and summary part it claims, and claims all it shows", async () => {
      const claimed = {
        reviewFields: OPTIONAL_REVIEW_FIELDS.filter((field) => module.reviewFields?.includes(field)),
        summaryFields: SUMMARY_FIELDS.filter((part) => module.summaryFields?.includes(part)),
      };
      const fixture = await fixtureOf(module.name);
      const sample = fixture?.coverageSample;
      if (!fixture || !sample) {
        // Nothing to check a claim against: a module that claims review fields must name a sample.
        // (Summary parts claimed without one are asserted by the module's own fixture tests.)
        expect(
          claimed.reviewFields,
          `${module.name} claims review fields: declare coverageSample in test/publishers/${module.name}/site.ts`,
        ).toEqual([]);
        return;
      }
      const shown = await readCoverageSample(module, fixture, sample);
      expect(shown.reviews, `the coverage sample of ${module.name} holds no review`).toBeGreaterThan(0);
      expect({ reviewFields: shown.reviewFields, summaryFields: shown.summaryFields }).toEqual(claimed);
    });

    it("validates its cursor: a stored cursor of another shape is refused", () => {
      expect(module.adapter.cursor.safeParse({ certainly: "not a cursor" }).success).toBe(false);
    });

    it.runIf(module !== GENERIC_MODULE)("has a fixture site and tests in test/publishers/<name>/", () => {
      expect(FIXTURE_SITES).toContain(module.name);
    });
  },
);

it("lists every dedicated module once, by folder name", () => {
  const names = MODULES.map((module) => module.name);
  expect(new Set(names).size).toBe(names.length);
  for (const name of names) expect(name).toMatch(/^[a-z0-9-]+$/);
});
