/**
 * Fixture bestbuy.com: the product reviews JSON,
 * `GET /ugc/v2/reviews?page=&pageSize=&sku=&sort=MOST_RECENT` → `{totalPages, topics: [...]}`.
 * Structure: scrapfly/scrapfly-scrapers `bestbuy-scraper/bestbuy.py` and
 * `snippets/scrape_bestbuy_reviews.py` (2026-05-21: the URL, `topics`, `totalPages`) and the review
 * records that scraper saved, `bestbuy-scraper/results/reviews.json` @023b974c (topic keys `id` a
 * UUID, `topicType`, `rating`, `recommended`, `title`, `text`, `author`, `submissionTime` with an
 * offset, `secondaryRatings`). The reviews are invented. Without `sort=MOST_RECENT` the reviews come
 * in another order (Best Buy's default is by relevance), so a module that forgets it fails.
 *
 * SKUs: 6565065 (45 reviews: three pages of 20), 1000001 (none), 4040404 (404), 7777777 (an answer
 * whose reviews moved under `reviews`).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export interface BestBuyFixtureTopic {
  id: string;
  topicType: "review";
  rating: number;
  recommended: boolean;
  title: string | null;
  text: string;
  author: string;
  submissionTime: string;
  positiveFeedbackCount: number;
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

function topic(i: number): BestBuyFixtureTopic {
  // Newest first: one review every 7 hours back from 2026-11-20 10:00 US Central (UTC-06:00).
  const at = new Date(Date.UTC(2026, 10, 20, 16, 0, 0) - i * 7 * 3_600_000 - 6 * 3_600_000);
  const local = at.toISOString().replace("Z", "-06:00");
  return {
    id: `7a5862ff-82f7-3dd6-83c4-${hex(0xb481f2e88b1f - i, 12)}`,
    topicType: "review",
    rating: 5 - (i % 5),
    recommended: i % 5 < 3,
    title: i === 2 ? null : `Review ${i}`,
    text: i === 0 ? "Fast console, quiet fan." : `Bought it in store, review ${i}.`,
    author: i === 0 ? "Savannah" : `Buyer${i}`,
    submissionTime: local,
    positiveFeedbackCount: i % 3,
  };
}

export const CONSOLE: BestBuyFixtureTopic[] = Array.from({ length: 45 }, (_, i) => topic(i));

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});

function reviews(url: URL): FixtureResponse {
  const sku = url.searchParams.get("sku") ?? "";
  const pageSize = Number(url.searchParams.get("pageSize") ?? "20");
  const page = Number(url.searchParams.get("page") ?? "1");
  if (!(pageSize >= 1 && pageSize <= 20) || !Number.isInteger(page) || page < 1)
    return json({ error: "bad request" }, 400);
  if (sku === "4040404") return json({ error: "Not Found" }, 404);
  const all = sku === "6565065" || sku === "7777777" ? CONSOLE : [];
  // Best Buy's default order is by relevance; only MOST_RECENT is newest first.
  const ordered = url.searchParams.get("sort") === "MOST_RECENT" ? all : [...all].reverse();
  const totalPages = Math.ceil(all.length / pageSize);
  const topics = ordered.slice((page - 1) * pageSize, page * pageSize);
  if (sku === "7777777") return json({ totalPages, reviews: topics });
  return json({ totalPages, topics });
}

const fixture: PublisherFixture = {
  domains: ["bestbuy.com"],
  site: ({ url, method }) => {
    if (method !== "GET") return json({ error: "Method Not Allowed" }, 405);
    if (url.pathname === "/ugc/v2/reviews") return reviews(url);
    return json({ error: "Not Found" }, 404);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: "https://www.bestbuy.com/site/6565065.p?skuId=6565065" },
};

export default fixture;
