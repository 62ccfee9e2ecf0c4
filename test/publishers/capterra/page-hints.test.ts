/** What Capterra's adapter tells the pipeline beside the reviews: the product's stated count and average. */
import { describe, expect, it } from "vitest";
import { capterraAdapter } from "../../../src/publishers/capterra/adapter";
import { fixtureContext } from "../fixture-client";
import { ACME_REVIEWS } from "./data";
import fixture from "./site";

const ctx = fixtureContext(fixture, "capterra.com", capterraAdapter.inspect);
const pageUrl = "https://www.capterra.com/p/2001/Acme-CRM/reviews/";

describe("capterra page hints", () => {
  it("states reviewSummary.totalReviews on every page and the average on page 1", async () => {
    const first = await capterraAdapter.page({ productId: "2001", pageUrl, page: 1 }, ctx);
    expect(first).toMatchObject({
      publisherTotal: ACME_REVIEWS.length,
      summary: { rating: 4.4, ratingScale: "1-5" },
      next: { page: 2 },
    });
    const last = await capterraAdapter.page({ productId: "2001", pageUrl, page: 3 }, ctx);
    expect(last).toMatchObject({ publisherTotal: ACME_REVIEWS.length, next: null });
    expect(last.reviews).toHaveLength(10);
    expect(last).not.toHaveProperty("summary");
  });
});
