/** The checks `npm run deploy` makes before it changes anything (scripts/deploy.mjs, imported: nothing runs). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  localOnlySettingsProblems,
  presentSecrets,
  queueNames,
  withDatabaseId,
} from "../../scripts/deploy.mjs";

const WRANGLER_TOML = readFileSync("wrangler.toml", "utf8");

describe("withDatabaseId", () => {
  it("sets the id of the named database only, keeping the rest of the file as it is", () => {
    const toml = `${WRANGLER_TOML}
[[d1_databases]]
binding = "OTHER"
database_name = "other-db"
database_id = "11111111-1111-1111-1111-111111111111"
`;
    const updated = withDatabaseId(toml, "review-collection", "abcdef01-2345-6789-abcd-ef0123456789");
    expect(updated.split("\n").filter((line, i) => line !== toml.split("\n")[i])).toEqual([
      'database_id = "abcdef01-2345-6789-abcd-ef0123456789"',
    ]);
    expect(updated).toContain('database_id = "11111111-1111-1111-1111-111111111111"');
  });

  it("refuses a file without exactly one matching database", () => {
    expect(() => withDatabaseId(WRANGLER_TOML, "no-such-db", "x")).toThrow(
      'wrangler.toml needs exactly one [[d1_databases]] with database_name = "no-such-db" and a database_id line',
    );
    const twice = `${WRANGLER_TOML}\n[[d1_databases]]\nbinding = "AGAIN"\ndatabase_name = "review-collection"\ndatabase_id = "x"\n`;
    expect(() => withDatabaseId(twice, "review-collection", "y")).toThrow(/exactly one/);
  });
});

describe("localOnlySettingsProblems", () => {
  it("passes the committed wrangler.toml settings", () => {
    expect(
      localOnlySettingsProblems({ vars: { ALLOW_PRIVATE_NETWORK: "false", PUBLISHER_ORIGINS: "" } }),
    ).toEqual([]);
    expect(localOnlySettingsProblems({ vars: { PUBLISHER_ORIGINS: "{}" } })).toEqual([]);
  });

  it("names every local-only setting that is switched on", () => {
    expect(
      localOnlySettingsProblems({
        vars: { ALLOW_PRIVATE_NETWORK: "true", PUBLISHER_ORIGINS: '{"yelp.com":"http://127.0.0.1:9001"}' },
      }),
    ).toEqual([
      'ALLOW_PRIVATE_NETWORK is "true"; the deployed service must not reach private networks ("false")',
      'PUBLISHER_ORIGINS is {"yelp.com":"http://127.0.0.1:9001"}; it redirects publishers to other origins and must be empty when deployed',
    ]);
    expect(localOnlySettingsProblems({ vars: { ALLOW_PRIVATE_NETWORK: "1" } })).toHaveLength(1);
  });

  it("refuses a provider sent to a local fake, and lets a public relay through", () => {
    expect(
      localOnlySettingsProblems({
        vars: { PROVIDER_ORIGINS: '{"zyte":"http://127.0.0.1:9100","scrapfly":"https://relay.example.com"}' },
      }),
    ).toEqual([
      "PROVIDER_ORIGINS sends zyte to http://127.0.0.1:9100, a local address (a test fake); it must be a public origin or absent when deployed",
    ]);
    expect(
      localOnlySettingsProblems({ vars: { PROVIDER_ORIGINS: '{"brightdata":"http://[::1]:1"}' } }),
    ).toHaveLength(1);
    expect(localOnlySettingsProblems({ vars: { PROVIDER_ORIGINS: "" } })).toEqual([]);
  });
});

describe("queueNames", () => {
  it("lists producer, consumer and dead-letter queues once each", () => {
    expect(
      queueNames({
        queues: {
          producers: [{ queue: "scrape-tasks" }],
          consumers: [
            { queue: "scrape-tasks", dead_letter_queue: "scrape-tasks-dlq" },
            { queue: "scrape-tasks-dlq" },
          ],
        },
      }),
    ).toEqual(["scrape-tasks", "scrape-tasks-dlq"]);
  });
});

describe("presentSecrets: the guard that protects a live ENCRYPTION_KEY", () => {
  it("reads the names wrangler lists", () => {
    const listing = JSON.stringify([
      { name: "ENCRYPTION_KEY", type: "secret_text" },
      { name: "URL_SIGNING_KEY", type: "secret_text" },
    ]);
    expect(presentSecrets({ status: 0, stdout: listing, stderr: "" })).toEqual(
      new Set(["ENCRYPTION_KEY", "URL_SIGNING_KEY"]),
    );
  });

  it("takes a Worker that does not exist yet as having no secrets", () => {
    const stderr =
      "✘ [ERROR] A request to the Cloudflare API failed.\n  This Worker does not exist on your account. [code: 10007]";
    expect(presentSecrets({ status: 1, stdout: "", stderr })).toEqual(new Set());
  });

  it.each([
    [
      "an authentication error",
      "✘ [ERROR] A request to the Cloudflare API failed.\n  Authentication error [code: 10000]",
    ],
    ["a network failure", "✘ [ERROR] fetch failed"],
    ["a rate limit", "✘ [ERROR] Too many requests [code: 10429]"],
  ])("stops the deploy on %s instead of generating a new key", (_name, stderr) => {
    expect(() => presentSecrets({ status: 1, stdout: "", stderr })).toThrow(
      `could not list the Worker's secrets:\n${stderr}`,
    );
  });
});
