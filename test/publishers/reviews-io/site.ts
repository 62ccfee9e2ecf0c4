/**
 * Fixture reviews.io: the public merchant reviews API on api.reviews.io,
 * `GET /merchant/reviews?store=&per_page=&page=` with pages counted from 0, answering
 * `{stats: {total_reviews, average_rating}, reviews: [...], total_pages}`. Keys as public clients
 * read them: `store_review_id`, `reviewer.{first_name, last_name}`, `rating`, `comments`,
 * `date_created` ("YYYY-MM-DD HH:MM:SS"), `timeago`, `stats.total_reviews`, `total_pages`, pages
 * from 0 (an uptradeit.com storefront's Next.js pages; a 2026-09 monitoring runbook: "pages start at
 * 0"; see src/publishers/reviews-io/README.md). The reviews are invented.
 *
 * Stores: big-store (230 reviews: three pages of 100), empty-store (none), gone-store (404),
 * renamed (an answer whose reviews moved under `data`).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export interface ReviewsIoFixtureReview {
  store_review_id: number;
  reviewer: { first_name: string; last_name: string; verified_buyer: string };
  rating: number;
  comments: string;
  date_created: string;
  timeago: string;
}

const pad = (n: number) => String(n).padStart(2, "0");

function review(i: number): ReviewsIoFixtureReview {
  // Newest first: one review every 5 hours back from 2026-11-20 18:00.
  const at = new Date(Date.UTC(2026, 10, 20, 18, 0, 0) - i * 5 * 3_600_000);
  return {
    store_review_id: 48_000_000 - i,
    reviewer: {
      first_name: i === 0 ? "Olivia" : `Buyer${i}`,
      last_name: i === 0 ? "M." : "",
      verified_buyer: "yes",
    },
    rating: 5 - (i % 5),
    comments: i === 1 ? "  Fast delivery, cooker works perfectly.  " : `Review ${i} of the big store.`,
    date_created: `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())} ${pad(at.getUTCHours())}:00:00`,
    timeago: `${i} days ago`,
  };
}

export const BIG_STORE: ReviewsIoFixtureReview[] = Array.from({ length: 230 }, (_, i) => review(i));

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});

function reviews(url: URL): FixtureResponse {
  const store = url.searchParams.get("store") ?? "";
  const perPage = Number(url.searchParams.get("per_page") ?? "10");
  const page = Number(url.searchParams.get("page") ?? "0");
  if (!(perPage >= 1 && perPage <= 100) || !(page >= 0)) return json({ error: "bad request" }, 400);
  if (store === "gone-store") return json({ success: false, message: "Store not found" }, 404);
  const stored = store === "big-store" || store === "renamed" ? BIG_STORE : [];
  // Newest first only when asked (`sort=date_created`); otherwise another order (here: highest rated).
  const all =
    url.searchParams.get("sort") === "date_created"
      ? stored
      : [...stored].sort((a, b) => b.rating - a.rating);
  const slice = all.slice(page * perPage, (page + 1) * perPage);
  const stats = { total_reviews: all.length, average_rating: "4.20" };
  const total_pages = Math.ceil(all.length / perPage);
  if (store === "renamed") return json({ stats, data: slice, total_pages });
  return json({ stats, reviews: slice, word: "Excellent", total_pages });
}

const fixture: PublisherFixture = {
  domains: ["reviews.io", "reviews.co.uk"],
  site: ({ url, method, host }) => {
    if (method !== "GET") return json({ error: "Method Not Allowed" }, 405);
    if (host === "api.reviews.io" && url.pathname === "/merchant/reviews") return reviews(url);
    return json({ error: "not found" }, 404);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: "https://www.reviews.io/company-reviews/store/big-store" },
};

export default fixture;
