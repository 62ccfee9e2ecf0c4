/**
 * Fixture feefo.com: Feefo's public Reviews API on api.feefo.com,
 * `GET /api/10/reviews/service?merchant_identifier=&since_period=ALL&sort=-created_date&page_size=&page=`
 * answering `{summary: {meta: {count, pages, page_size, current_page}}, reviews: [...]}`.
 * Structure: Feefo's own documented example (feefo.readme.io "Reviews API Response", read
 * 2026-11-24: `customer.display_name`, `service.{id, rating.{min,max,rating}, title, review,
 * created_at (epoch ms), helpful_votes}`, `url`) and the 2026-09-24 client notes that page it with
 * `page_size=100`, and Feefo's `sort` parameter article (`-created_date` newest first; default
 * `-updated_date`, the latest change first). The reviews are invented. Without `sort=-created_date`
 * the reviews come in another order, so a module that forgets the sort gets the wrong order.
 *
 * Merchants: acme-travel (130 service reviews, one product-only review among them), quiet-shop (none),
 * gone-merchant (404), moved-summary (an answer without `summary`).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export interface FeefoFixtureReview {
  merchant: { identifier: string };
  url: string;
  customer: { display_name: string };
  service?: {
    rating: { min: number; max: number; rating: number };
    id: string;
    title?: string;
    review: string;
    created_at: number;
    helpful_votes: number;
  };
  products?: unknown[];
}

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);

function review(i: number): FeefoFixtureReview {
  const id = `6a3bbf38e4b0d81661f2${String(9000 - i).padStart(4, "0")}`;
  const base = {
    merchant: { identifier: "acme-travel" },
    url: `https://www.feefo.com/en-GB/reviews/acme-travel/${id}/customer-review`,
    customer: { display_name: i === 1 ? "Priya" : `Customer ${i}` },
  };
  if (i === 7)
    return {
      ...base,
      products: [{ id: "p-7", review: "A product-only review", rating: { min: 1, max: 5, rating: 4 } }],
    };
  return {
    ...base,
    service: {
      rating: { min: 1, max: 5, rating: (i % 5) + 1 },
      id,
      ...(i % 3 === 0 ? { title: `Trip ${i}` } : {}),
      review: `Booked trip ${i}, all went to plan.`,
      created_at: NOW - i * 3_600_000,
      helpful_votes: i % 4,
    },
  };
}

export const ACME_REVIEWS: FeefoFixtureReview[] = Array.from({ length: 130 }, (_, i) => review(i));

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});

function reviews(url: URL): FixtureResponse {
  const merchant = url.searchParams.get("merchant_identifier") ?? "";
  const pageSize = Number(url.searchParams.get("page_size") ?? "20");
  const page = Number(url.searchParams.get("page") ?? "1");
  if (!(pageSize >= 1 && pageSize <= 100) || !(page >= 1) || url.searchParams.get("since_period") !== "ALL")
    return json({ error: "bad request" }, 400);
  if (merchant === "gone-merchant") return json({ error: "merchant not found" }, 404);
  const all = merchant === "acme-travel" || merchant === "moved-summary" ? ACME_REVIEWS : [];
  // Feefo's default order is -updated_date (the latest change first); only -created_date is newest first.
  const ordered = url.searchParams.get("sort") === "-created_date" ? all : [...all].reverse();
  const meta = {
    count: all.length,
    pages: Math.ceil(all.length / pageSize),
    page_size: pageSize,
    current_page: page,
  };
  const slice = ordered.slice((page - 1) * pageSize, page * pageSize);
  if (merchant === "moved-summary") return json({ meta, reviews: slice });
  return json({ summary: { meta }, reviews: slice });
}

const fixture: PublisherFixture = {
  domains: ["feefo.com"],
  site: ({ url, method, host }) => {
    if (method !== "GET") return json({ error: "Method Not Allowed" }, 405);
    if (host === "api.feefo.com" && url.pathname === "/api/10/reviews/service") return reviews(url);
    return json({ error: "not found" }, 404);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: "https://www.feefo.com/en-GB/reviews/acme-travel" },
};

export default fixture;
