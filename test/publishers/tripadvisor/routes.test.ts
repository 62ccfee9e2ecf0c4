/**
 * Tripadvisor through FETCH_ROUTES end to end: the review list's `PersistedQueryNotFound` (its answer to
 * a distrusted session) is `blocked`, so the client tries the next configured route for that very
 * request (docs/routes.md, "Fallthrough"). The provider fake relays to the same fixture site, which
 * trusts only a relayed session for the `distrusted` location (1007).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { QueueDriver } from "../../helpers/queue";
import { logLines } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { PROVIDER_SECRETS } from "../../providers/keys";
import { LOCATIONS, locationPath } from "./data";

let driver: QueueDriver | undefined;
afterEach(() => {
  driver?.restore();
  driver = undefined;
  vi.restoreAllMocks();
});

function routed(routes: string[]): QueueDriver {
  driver = new QueueDriver({
    settings: { ...PROVIDER_SECRETS, FETCH_ROUTES: JSON.stringify({ "tripadvisor.com": routes }) },
  });
  return driver;
}

const DISTRUSTED = LOCATIONS.find((l) => l.locationId === 1007)!;
const PROFILE = `https://www.tripadvisor.com${locationPath(DISTRUSTED)}`;

describe("tripadvisor.com routes", () => {
  it("falls through to the next route when the review list answers PersistedQueryNotFound", async () => {
    const warn = vi.spyOn(console, "warn");
    const before = (await fixtureRequests("tripadvisor.com", "/data/graphql/ids"))["/data/graphql/ids"] ?? 0;
    const task = await submitScrape("tripadvisor.com", PROFILE);
    await routed(["direct", "provider:zyte"]).drain();
    const body = await retrieve(task, 1, 100);
    expect(body.task_status).toBe(200);
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      DISTRUSTED.reviews.map((r) => String(r.id)),
    );
    // The location page and the refused call went direct; the same call was then relayed by the provider.
    expect(body.requests).toEqual({ direct: 2, browser: 0, provider: 1 });
    expect((await fixtureRequests("tripadvisor.com", "/data/graphql/ids"))["/data/graphql/ids"]).toBe(
      before + 2,
    );
    expect(
      logLines(warn).find((line) => line.message === "route blocked, trying the next route"),
    ).toMatchObject({
      publisher: "tripadvisor.com",
      route: "direct",
      next: "provider:zyte",
    });
  });
});
