/**
 * trustedshops.com on a real answer: Trusted Shops' review indicator for its own DemoShop, as Trusted
 * Shops' Android SDK keeps it for its tests (see ./captures/SOURCE.md). No real answer of the reviews
 * list exists under a licence, so the reviews beside it are the fixture's invented ones; what this
 * checks is the shop's count. Expected values were read from the file by hand.
 */
import { describe, expect, it } from "vitest";
import raw from "./captures/demoshop-quality-reviews.json?raw";
import { infoPageUrl, trustedShops } from "../../../src/publishers/trusted-shops";
import { parseContext } from "../walk-support";
import { BIG_SHOP, SHOPS } from "./site";

const DEMO_SHOP = "XA2A8D35838AF5F63E5EB0E05847B1CB8";
const quality = JSON.parse(raw) as unknown;
/** Invented: the fixture's ten reviews, in the reviews answer's wrapping, said to be the DemoShop's. */
const reviews = {
  response: {
    code: 200,
    data: { shop: { tsId: DEMO_SHOP, languageISO2: "de", reviews: SHOPS[BIG_SHOP].reviews } },
  },
};

describe("trusted-shops on a real review indicator (trustedshops-android-sdk shopWithReviews.json, 2016-07)", () => {
  it("holds the DemoShop's indicator: 41 reviews in the last 365 days, 222 in all", () => {
    expect(quality).toMatchObject({
      response: {
        code: 200,
        data: {
          shop: {
            tsId: DEMO_SHOP,
            qualityIndicators: {
              reviewIndicator: {
                activePeriodInDays: 365,
                activeReviewCount: 41,
                totalReviewCount: 222,
                overallMark: 4.75,
              },
            },
          },
        },
      },
    });
  });

  it("counts every review of the shop, not only the last year's, and names what the public API leaves out", () => {
    const page = trustedShops.api.parse(
      { reviews, quality },
      parseContext(DEMO_SHOP, infoPageUrl(DEMO_SHOP), { page: 0, token: null }),
    );
    expect(page.publisherTotal).toBe(222);
    expect(page.limitedView).toBe("Trusted Shops' public API shows only the newest 10 of 222 reviews");
    expect(page.reviews).toHaveLength(10);
  });
});
