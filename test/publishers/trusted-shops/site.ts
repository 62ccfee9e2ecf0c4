/**
 * Fixture Trusted Shops: the public shop API on api.trustedshops.com (`/rest/public/v2/shops/<tsId>/
 * reviews.json`, `/quality/reviews.json`, `/shops.json?url=<domain>`), every answer wrapped as
 * `{response: {code, data, message, status, responseInfo}}`. Keys as public clients read them: a
 * shop search's `response.data.shops[].tsId` (a C# client, XML form `response/data/shops/shop/tsId`),
 * the reviews' `response.data.shop.reviews[]` with `UID`, `mark`, `comment`, `creationDate`,
 * `confirmationDate` (a Spring client and the same C# client, which notes the public API shows only
 * the newest reviews), and `qualityIndicators.reviewIndicator.{overallMark, activeReviewCount,
 * totalReviewCount}` (a shop plugin reading `quality/reviews`; Trusted Shops' own Android SDK test
 * answer, ./captures/); a 2026-09-13 site names the JSON API as keyless. No
 * capture was found; the reviews are invented (see src/publishers/trusted-shops/README.md).
 *
 * Shops: X1111…1111 (an example shop with 10 reviews shown of 288, 248 of them in the last year), X2222…2222 (3 reviews,
 * all of them), XDEAD… (404), shop search `example-shop.de` → X1111…, `unknown-shop.de` → none.
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export const BIG_SHOP = `X${"1".repeat(32)}`;
export const SMALL_SHOP = `X${"2".repeat(32)}`;
export const GONE_SHOP = `X${"DEAD".repeat(8)}`;

export interface TrustedShopsFixtureReview {
  changeDate: string;
  comment: string;
  confirmationDate: string;
  creationDate: string;
  criteria: { mark: string; type: string }[];
  mark: string;
  markDescription: string;
  UID: string;
}

const DESCRIPTIONS = ["VERY_BAD", "BAD", "FAIR", "GOOD", "EXCELLENT"];

function review(shop: string, i: number): TrustedShopsFixtureReview {
  const mark = 5 - (i % 5);
  const at = new Date(Date.UTC(2026, 10, 20, 16, 0, 0) - i * 86_400_000);
  const local = `${at.toISOString().slice(0, 19)}+01:00`.replace("T16:", "T17:");
  return {
    changeDate: local,
    comment: i === 1 ? "Schnelle Lieferung, gerne wieder." : `Bewertung ${i} von ${shop.slice(0, 5)}.`,
    confirmationDate: local,
    creationDate: local,
    criteria: [{ mark: `${mark}.00`, type: "Total" }],
    mark: `${mark}.00`,
    markDescription: DESCRIPTIONS[mark - 1],
    UID: `${shop.slice(1, 9).toLowerCase()}${String(1000 - i).padStart(24, "0")}`,
  };
}

/** `active`: reviews of the last 365 days (`activeReviewCount`); `total`: all of them (`totalReviewCount`). */
export const SHOPS: Record<string, { reviews: TrustedShopsFixtureReview[]; active: number; total: number }> =
  {
    [BIG_SHOP]: {
      reviews: Array.from({ length: 10 }, (_, i) => review(BIG_SHOP, i)),
      active: 248,
      total: 288,
    },
    [SMALL_SHOP]: {
      reviews: Array.from({ length: 3 }, (_, i) => review(SMALL_SHOP, i)),
      active: 3,
      total: 3,
    },
  };

const wrap = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json;charset=UTF-8" },
  body: JSON.stringify({
    response: {
      code: status,
      data,
      message: status === 200 ? "SUCCESS" : "NOT_FOUND",
      responseInfo: { apiVersion: "2.4.9" },
      status: status === 200 ? "SUCCESS" : "FAILED",
    },
  }),
});

function shopData(tsId: string) {
  return {
    tsId,
    url: "https://www.example-shop.de",
    name: "Example Shop",
    languageISO2: "de",
    targetMarketISO3: "DEU",
  };
}

const SHOP_PATH = /^\/rest\/public\/v2\/shops\/(X[0-9A-F]{32})\/(reviews|quality\/reviews)\.json$/;

const fixture: PublisherFixture = {
  domains: ["trustedshops.com", "trustedshops.de"],
  site: ({ url, method, host }) => {
    if (method !== "GET" || host !== "api.trustedshops.com") return { status: 404, body: "" };
    if (url.pathname === "/rest/public/v2/shops.json") {
      const shops = url.searchParams.get("url") === "example-shop.de" ? [{ ...shopData(BIG_SHOP) }] : [];
      return wrap({ shops });
    }
    const match = SHOP_PATH.exec(url.pathname);
    const shop = match ? SHOPS[match[1]] : undefined;
    if (!match || !shop) return wrap(null, 404);
    if (match[2] === "reviews") return wrap({ shop: { ...shopData(match[1]), reviews: shop.reviews } });
    return wrap({
      shop: {
        ...shopData(match[1]),
        qualityIndicators: {
          reviewIndicator: {
            overallMark: "4.73",
            overallMarkDescription: "EXCELLENT",
            activeReviewCount: shop.active,
            totalReviewCount: shop.total,
          },
        },
      },
    });
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: `https://www.trustedshops.de/bewertung/info_${BIG_SHOP}.html` },
};

export default fixture;
