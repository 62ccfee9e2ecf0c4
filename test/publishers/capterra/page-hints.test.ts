/** What Capterra's adapter tells the pipeline beside the reviews: the product's stated count. */
import { describe, expect, it } from "vitest";
import { capterraAdapter } from "../../../src/publishers/capterra/adapter";
import { fixtureContext } from "../fixture-client";
import { ACME_HITS } from "./data";
import fixture from "./site";

const ctx = fixtureContext(fixture, "capterra.com", capterraAdapter.inspect);

describe("capterra page hints", () => {
  it("states totalHits.value", async () => {
    const pageUrl = "https://www.capterra.com/p/2001/Acme-CRM/reviews/";
    expect(await capterraAdapter.page({ productId: "2001", pageUrl, offset: 0 }, ctx)).toMatchObject({
      publisherTotal: ACME_HITS.length,
    });
  });
});
