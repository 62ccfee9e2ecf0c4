/** Trusted Shops (profile_key cases: the module's examples, run by ../contract.test.ts): the shop API's answers, and end to end through the Worker and scrape-trusted-shops. */
import { describe, expect, it } from "vitest";
import {
  infoPageUrl,
  parseShopSearch,
  qualityUrl,
  reviewsUrl,
  shopSearchUrl,
  trustedShops,
} from "../../../src/publishers/trusted-shops";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureJson, parseContext } from "../walk-support";
import fixture, { BIG_SHOP, GONE_SHOP, SHOPS, SMALL_SHOP } from "./site";

const parseTrustedShopsPage = trustedShops.api.parse;
const PAGE = infoPageUrl(BIG_SHOP);
const answers = (tsId: string) => ({
  reviews: fixtureJson(fixture, reviewsUrl(tsId)),
  quality: fixtureJson(fixture, qualityUrl(tsId)),
});
const ctx = (tsId: string) => parseContext(tsId, infoPageUrl(tsId), { page: 0, token: null });

describe("Trusted Shops shop API", () => {
  it("reads the reviews it shows: UID, mark, comment, creation date; the shop's count; the cut named", () => {
    const page = parseTrustedShopsPage(answers(BIG_SHOP), ctx(BIG_SHOP));
    expect(page.next).toBeNull();
    expect(page.publisherTotal).toBe(288);
    expect(page.limitedView).toBe("Trusted Shops' public API shows only the newest 10 of 288 reviews");
    expect(page.pageLanguage).toBe("de");
    expect(page.reviews).toHaveLength(10);
    expect(page.reviews[0]).toEqual({
      id: "11111111000000000000000000001000",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Bewertung 0 von X1111.",
      url: PAGE,
      date: "2026-11-20T17:00:00+01:00",
    });
    expect(page.reviews[1]).toEqual({
      id: "11111111000000000000000000000999",
      rating: { value: 4, best: 5, worst: 1 },
      text: "Schnelle Lieferung, gerne wieder.",
      url: PAGE,
      date: "2026-11-19T17:00:00+01:00",
    });
    expect(parseTrustedShopsPage(answers(SMALL_SHOP), ctx(SMALL_SHOP))).toMatchObject({
      publisherTotal: 3,
      limitedView: null,
    });
  });

  it("counts all the shop's reviews (totalReviewCount), and the last year's (activeReviewCount) only when the total is absent", () => {
    const { reviews, quality } = answers(BIG_SHOP);
    const withoutTotal = JSON.parse(JSON.stringify(quality)) as {
      response: { data: { shop: { qualityIndicators: { reviewIndicator: Record<string, unknown> } } } };
    };
    const indicator = withoutTotal.response.data.shop.qualityIndicators.reviewIndicator;
    expect(indicator).toMatchObject({ activeReviewCount: 248, totalReviewCount: 288 });
    expect(parseTrustedShopsPage({ reviews, quality }, ctx(BIG_SHOP)).publisherTotal).toBe(288);
    delete indicator.totalReviewCount;
    expect(parseTrustedShopsPage({ reviews, quality: withoutTotal }, ctx(BIG_SHOP))).toMatchObject({
      publisherTotal: 248,
      limitedView: "Trusted Shops' public API shows only the newest 10 of 248 reviews",
    });
  });

  it("finds a shop's tsId from its web address", () => {
    expect(parseShopSearch(fixtureJson(fixture, shopSearchUrl("example-shop.de")))).toBe(BIG_SHOP);
    expect(parseShopSearch(fixtureJson(fixture, shopSearchUrl("unknown-shop.de")))).toBeNull();
  });

  it("an answer about another shop, or without the review indicator, is publisher_error", () => {
    expect(scrapeError(() => parseTrustedShopsPage(answers(SMALL_SHOP), ctx(BIG_SHOP))).message).toBe(
      `Trusted Shops reviews: asked for ${BIG_SHOP}, the answer is about ${SMALL_SHOP}`,
    );
    expect(
      scrapeError(() =>
        parseTrustedShopsPage({ reviews: answers(BIG_SHOP).reviews, quality: {} }, ctx(BIG_SHOP)),
      ).message,
    ).toContain("Trusted Shops review indicator: unexpected answer at response");
  });

  it("hostile answers end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseTrustedShopsPage);
    const quality = answers(BIG_SHOP).quality;
    expectHostileInputHandled(
      parseTrustedShopsPage,
      (reviews) => ({ reviews: { response: { data: { shop: { tsId: "k", reviews } } } }, quality }),
      {
        wrapsItems: true,
      },
    );
  });
});

describe("Trusted Shops end to end", () => {
  const queue = queuePerTest();

  it("a shop's web address is found with the shop search; its reviews come back exactly and the count it cannot reach is kept", async () => {
    const task = await submitScrape("trustedshops.de", "example-shop.de");
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-trusted-shops", "ack"]]);
    expect(await fixtureRequests("trustedshops.com", "/rest/public/v2/shops")).toEqual({
      "/rest/public/v2/shops.json?url=example-shop.de": 1,
      [`/rest/public/v2/shops/${BIG_SHOP}/reviews.json`]: 1,
      [`/rest/public/v2/shops/${BIG_SHOP}/quality/reviews.json`]: 1,
    });
    const body = await retrieve(task, 1, 50);
    expect(body.business.profile_key).toBe(PAGE);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(SHOPS[BIG_SHOP].reviews.map((r) => r.UID));
    expect(reviews[1]).toMatchObject({
      review_id: "11111111000000000000000000000999",
      rating: 4,
      text: "Schnelle Lieferung, gerne wieder.",
      url: PAGE,
      posted_at: Date.UTC(2026, 10, 19, 16, 0, 0),
    });
  });

  it("an unknown web address and an unknown tsId are profile_not_found", async () => {
    const unknown = await submitScrape("trustedshops.com", "unknown-shop.de");
    const gone = await submitScrape("trustedshops.com", GONE_SHOP);
    await queue().drain();
    expect((await retrieve(unknown)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
  });
});
