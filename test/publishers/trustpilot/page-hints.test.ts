/** What Trustpilot's adapter tells the pipeline beside the reviews: the stated count, and a sign-in wall as a limited view. */
import { describe, expect, it } from "vitest";
import { inspectTrustpilotPage, trustpilotAdapter } from "../../../src/publishers/trustpilot/adapter";
import { slug } from "../../e2e/support";
import { fixtureContext } from "../fixture-client";
import fixture from "./site";

const ctx = fixtureContext(fixture, "trustpilot.com", inspectTrustpilotPage);

describe("trustpilot page hints", () => {
  it("states the list's count on each page", async () => {
    const profileUrl = `https://www.trustpilot.com/review/${slug("multi")}.com`;
    const first = await trustpilotAdapter.page({ profileUrl, page: 1 }, ctx);
    expect(first.publisherTotal).toEqual(expect.any(Number));
    expect(first.publisherTotal).toBeGreaterThan(first.reviews.length);
    expect(first.limitedView ?? null).toBeNull();
  });

  it("says the view is limited when a deeper page asks to sign in, instead of ending as if the list were done", async () => {
    const profileUrl = `https://www.trustpilot.com/review/${slug("walled")}.com`;
    const third = await trustpilotAdapter.page({ profileUrl, page: 3 }, ctx);
    expect(third).toMatchObject({
      reviews: [],
      next: null,
      limitedView: "Trustpilot asks to sign in before page 3; login cookies let the walk go further",
    });
  });
});
