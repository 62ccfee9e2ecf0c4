/**
 * Fixture productreview.com.au: the listings reviews API,
 * `GET api.productreview.com.au/api/au/listings/<slug>/reviews?sort=firstPublishedAt&order=DESC&page=N&limit=100`
 * → `{collection: {items: [...], authors: [...]}}`. Shape as the newest named client reads it:
 * zzh8086/reddit-whirlpool-scraper `sources/productreview.js` @1c2594dc (2026-05-20): reviews in
 * `collection.items` with `id`, `rating`, `title`, `body`, `firstPublishedAt`, `hasVerifiedPurchase`,
 * `numberOfLikes`, `specificationValues` and `_authorReference`, an index into `collection.authors`
 * (`displayName`). That client shows no raw answer, so these names are assumed (module README).
 * The reviews are invented, newest first.
 *
 * Listings: jacaranda-finance (230 reviews: 100, 100, 30, one of page 3 without a rating),
 * quiet-listing (none), gone-listing (404), moved-listing (reviews under `data.collection.items`,
 * the shape of an older undated client), renamed-listing (review ids under `reviewId`),
 * clamped-listing (every page number answers page 1), walled-listing (Cloudflare's challenge).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export const LIMIT = 100;

export interface ProductReviewFixtureReview {
  id: string;
  rating: number;
  title: string | null;
  body: string;
  firstPublishedAt: string;
  hasVerifiedPurchase: boolean;
  numberOfLikes: number;
  author: string;
}

function review(i: number): ProductReviewFixtureReview {
  return {
    id: `6a0f${String(100_000 + i)}-rev`,
    rating: i === 225 ? 0 : 5 - (i % 5),
    title: i % 4 === 3 ? null : `Loan ${i}`,
    body: i === 0 ? "  Approved in two days; the fees were as quoted.  " : `Review ${i} of the loan.`,
    firstPublishedAt: new Date(Date.UTC(2026, 9, 31, 9, 30, 0) - i * 3_600_000).toISOString(),
    hasVerifiedPurchase: i % 2 === 0,
    numberOfLikes: i % 7,
    author: i === 1 ? "Mei L." : `Reviewer ${i % 40}`,
  };
}

export const JACARANDA: ProductReviewFixtureReview[] = Array.from({ length: 230 }, (_, i) => review(i));

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});

/** One page as the API would send it: each author listed once, reviews pointing at them by index. */
function answer(reviews: ProductReviewFixtureReview[]) {
  const authors: { displayName: string }[] = [];
  const items = reviews.map((r) => {
    let index = authors.findIndex((a) => a.displayName === r.author);
    if (index < 0) index = authors.push({ displayName: r.author }) - 1;
    const { author: _author, ...rest } = r;
    return { ...rest, _authorReference: index, specificationValues: { "0b6c-9f1e": "a1f4-22c0" } };
  });
  return { collection: { items, authors } };
}

const CHALLENGE =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="challenge-platform"></div></body></html>';

function reviews(slug: string, url: URL): FixtureResponse {
  const query = url.searchParams;
  if (
    query.get("sort") !== "firstPublishedAt" ||
    query.get("order") !== "DESC" ||
    query.get("limit") !== "100"
  )
    return json({ message: "Bad request" }, 400);
  const page = Number(query.get("page") ?? "1");
  if (!Number.isInteger(page) || page < 1) return json({ message: "Bad request" }, 400);
  const slice = (all: ProductReviewFixtureReview[], n: number) => all.slice((n - 1) * LIMIT, n * LIMIT);
  switch (slug) {
    case "jacaranda-finance":
      return json(answer(slice(JACARANDA, page)));
    case "quiet-listing":
      return json(answer([]));
    case "moved-listing":
      return json({ data: answer(slice(JACARANDA, page)) });
    case "renamed-listing":
      return json({
        collection: {
          items: slice(JACARANDA, page).map(({ id, ...rest }) => ({ reviewId: id, ...rest })),
          authors: [],
        },
      });
    case "clamped-listing":
      return json(answer(slice(JACARANDA, 1)));
    case "walled-listing":
      return { status: 200, headers: { "Content-Type": "text/html" }, body: CHALLENGE };
    default:
      return json({ message: "Listing not found" }, 404);
  }
}

const fixture: PublisherFixture = {
  domains: ["productreview.com.au"],
  site: ({ url, method }) => {
    if (method !== "GET") return json({ message: "Method Not Allowed" }, 405);
    const match = /^\/api\/au\/listings\/([a-z0-9-]+)\/reviews$/.exec(url.pathname);
    if (match) return reviews(match[1], url);
    return json({ message: "Not found" }, 404);
  },
};

export default fixture;
