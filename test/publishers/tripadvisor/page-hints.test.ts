/** What Tripadvisor's adapter tells the pipeline beside the reviews: the stated count and the walk past 20. */
import { describe, expect, it } from "vitest";
import { tripadvisorAdapter } from "../../../src/publishers/tripadvisor/adapter";
import { fixtureContext } from "../fixture-client";
import { LOCATIONS, locationPath } from "./data";
import fixture from "./site";

const ctx = fixtureContext(fixture, "tripadvisor.com", tripadvisorAdapter.inspect);
const hotel = LOCATIONS.find((l) => l.locationId === 1001)!;
const profileUrl = `https://www.tripadvisor.com${locationPath(hotel)}`;

describe("tripadvisor page hints", () => {
  it("states totalCount on the first page and goes on from 20 through the review pages", async () => {
    // The walk opens the location page first: the review list trusts only the session it issues.
    const { cursor } = await tripadvisorAdapter.start(profileUrl, ctx);
    const first = await tripadvisorAdapter.page(cursor, ctx);
    expect(first.reviews).toHaveLength(20);
    expect(first.publisherTotal).toBe(45);
    expect(first.next).toMatchObject({ offset: 20, total: 45 });
    const second = await tripadvisorAdapter.page(first.next!, ctx);
    expect(second.pageUrl).toBe(profileUrl.replace("-Reviews-", "-Reviews-or20-"));
    expect(second.reviews.map((r) => r.id)).toEqual(hotel.reviews.slice(20, 30).map((r) => String(r.id)));
    expect(second.next).toMatchObject({ offset: 30 });
  });
});
