/** What Airbnb's adapter tells the pipeline beside the reviews: the listing's stated count. */
import { describe, expect, it } from "vitest";
import { airbnbAdapter } from "../../../src/publishers/airbnb/adapter";
import { fixtureContext } from "../fixture-client";
import { AIRBNB_REVIEWS } from "./data";
import fixture, { CAPTURED_LISTING } from "./site";

const ctx = fixtureContext(fixture, "airbnb.com", airbnbAdapter.inspect);

describe("airbnb page hints", () => {
  it("states metadata.reviewsCount: 490 on the real capture, the fixture's count on an invented listing", async () => {
    expect(await airbnbAdapter.page({ listingId: CAPTURED_LISTING, offset: 0 }, ctx)).toMatchObject({
      publisherTotal: 490,
      next: { offset: 24 },
    });
    expect(await airbnbAdapter.page({ listingId: "1001", offset: 0 }, ctx)).toMatchObject({
      publisherTotal: AIRBNB_REVIEWS.length,
    });
  });
});
