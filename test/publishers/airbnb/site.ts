/**
 * Fixture airbnb.com: the `StaysPdpReviewsQuery` endpoint
 * (`GET /api/v3/StaysPdpReviewsQuery/<sha256Hash>?operationName=&locale=&currency=&variables=&extensions=`,
 * variables `{id: base64("StayListing:<id>"), pdpReviewsRequest: {limit, offset: "<n>",
 * sortingPreference: "MOST_RECENT", showingTranslationButton, …}}`, header X-Airbnb-Api-Key) answering
 * `{data: {presentation: {stayProductDetailPage: {reviews: {reviews: [...], metadata: {reviewsCount}}}}}}`.
 * Request and answer structure as public scrapers send and read them (requests with
 * `pdpReviewsRequest`, readers of `data.presentation.stayProductDetailPage.reviews.reviews`).
 * Not verified: `metadata.reviewsCount` (a listing's review count) and what Airbnb answers for an
 * unknown listing (modelled as `stayProductDetailPage: null`).
 *
 * Listings by id: 38817969 (the real capture of 2026-09-28 as its first page; 490 reviews stated,
 * later pages not captured, so they answer no reviews), 1001 (50 reviews), 1002 (none), 1404 (unknown), 1403 (403), 1429 (HTML captcha page
 * with 200), 1500 (changed shape), 1302 (redirect to /login).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import { AIRBNB_REVIEWS } from "./data";
import capture from "./captures/StaysPdpReviewsQuery.response.json?raw";

export const QUERY_HASH = "cfdc3ffbe997a618795fc5a8f9a9b484054ce9be68c8788cd2ffda999934c5ae";

/** The listing of the real capture (captures/SOURCE.md): its first page is the capture, byte for byte. */
export const CAPTURED_LISTING = "38817969";
export const API_KEY = "d306zoyjsyarp7ifhu67rjxn52tv0t20";
export const LIMIT = 24;

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});

function reviewsAnswer(listingId: string, offset: number, translate: boolean): FixtureResponse {
  const all = listingId === "1001" || listingId === "1500" ? AIRBNB_REVIEWS : [];
  const page = all.slice(offset, offset + LIMIT).map(({ translated, ...review }) => ({
    ...review,
    localizedDate: new Date(review.createdAt).toLocaleDateString("en-US", {
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }),
    response: review.response ?? "",
    localizedReview: translated && translate ? { comments: translated, commentLanguage: "en" } : null,
    collectionTag: null,
  }));
  // 1500: Airbnb renamed `rating` (a changed structure the adapter must report, not guess around).
  const reviews =
    listingId === "1500" ? page.map(({ rating, ...rest }) => ({ ...rest, stars: rating })) : page;
  return json({
    data: {
      presentation: {
        stayProductDetailPage: {
          reviews: { reviews, metadata: { reviewsCount: all.length }, __typename: "PdpReviews" },
        },
      },
    },
  });
}

const fixture: PublisherFixture = {
  domains: ["airbnb.com"],
  site: ({ url, headers }) => {
    if (url.pathname === "/login")
      return {
        status: 200,
        headers: { "Content-Type": "text/html" },
        body: `<form><input type="password" name="password"></form>`,
      };
    if (url.pathname !== `/api/v3/StaysPdpReviewsQuery/${QUERY_HASH}`)
      return { status: 404, headers: { "Content-Type": "text/html" }, body: "<h1>Not found</h1>" };
    if (headers["x-airbnb-api-key"] !== API_KEY)
      return json({ error_code: 401, error_message: "Invalid API key" }, 401);
    let variables: {
      id?: string;
      pdpReviewsRequest?: {
        limit?: number;
        offset?: string;
        sortingPreference?: string;
        showingTranslationButton?: boolean;
      };
    };
    try {
      variables = JSON.parse(url.searchParams.get("variables") ?? "");
    } catch {
      return json({ errors: [{ message: "variables is not JSON" }] }, 400);
    }
    const request = variables.pdpReviewsRequest;
    const listingId = /^StayListing:(\d+)$/.exec(atob(variables.id ?? ""))?.[1];
    const offset = Number(request?.offset);
    if (
      url.searchParams.get("operationName") !== "StaysPdpReviewsQuery" ||
      !listingId ||
      request?.sortingPreference !== "MOST_RECENT" ||
      request.limit !== LIMIT ||
      typeof request.offset !== "string" ||
      !Number.isInteger(offset)
    ) {
      return json({ errors: [{ message: "Bad request" }], data: null }, 400);
    }
    switch (listingId) {
      case CAPTURED_LISTING:
        if (offset === 0)
          return { status: 200, headers: { "Content-Type": "application/json" }, body: capture };
        return json({
          data: {
            presentation: {
              stayProductDetailPage: { reviews: { reviews: [], metadata: { reviewsCount: 490 } } },
            },
          },
        });
      case "1404":
        return json({ data: { presentation: { stayProductDetailPage: null } } });
      case "1403":
        return { status: 403, headers: { "Content-Type": "text/html" }, body: "<h1>Access denied</h1>" };
      case "1429":
        return {
          status: 200,
          headers: { "Content-Type": "text/html" },
          body: '<html><body><h1>Please verify you are a human</h1><div id="px-captcha"></div></body></html>',
        };
      case "1302":
        return { status: 302, headers: { Location: "/login?redirect_url=%2Frooms%2F1302" }, body: "" };
      default:
        return reviewsAnswer(listingId, offset, request.showingTranslationButton === true);
    }
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: "https://www.airbnb.com/rooms/1001" },
};

export default fixture;
