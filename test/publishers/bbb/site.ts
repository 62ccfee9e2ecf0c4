/**
 * Fixture bbb.org: business profile pages (`/us/<state>/<city>/profile/<category>/<slug>-<bbbId>-<businessId>`
 * and their `/customer-reviews` tab) and the reviews endpoint those pages load,
 * `GET /api/businessprofile/customerreviews?page=&pageSize=&businessId=&bbbId=&sort=reviewDate desc, id desc`,
 * answering `{items: [...], page, pageSize, totalPages, numFound}`. Field names as public clients read
 * them (two BBB review scrapers in the exact-string index: `items`, `totalPages`, `reviewStarRating`,
 * `displayName`, `hasExtendedText`, `extendedText[0].{id, text, date}`, `date.{year, month, day}`,
 * `sort=reviewDate%20desc,%20id%20desc`, pageSize 10 and 15) and as the 2026-09-15 capture of a
 * `/customer-reviews` page in nick-fenech7204/bbb_webscrapper shows the same object under
 * `__PRELOADED_STATE__.businessProfile.customerReviews` (`numFound`, `businessResponseText/Date`,
 * `customerResponseText/Date`, `businessRebuttalText/Date`). That capture has no licence, so it is
 * not copied here; the reviews are invented (see src/publishers/bbb/README.md).
 *
 * Businesses (by businessId): 1000001 DaBella-like roofer (25 reviews, three pages of 10),
 * 1000002 (none), 1000403 (Cloudflare's challenge, 403), 1000429 (the endpoint answers the
 * challenge page with 200), 1000500 (the list moved: `results` instead of `items`).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

type Day = { year: number; month: number; day: number };

export interface BbbFixtureReview {
  id: number;
  displayName: string;
  reviewStarRating: number | null;
  text: string;
  date: Day;
  hasExtendedText: boolean;
  extendedText: { id: number; text: string; date: Day }[];
  businessResponseText: string | null;
  businessResponseDate: Day | null;
  customerResponseText: string | null;
  customerResponseDate: Day | null;
  businessRebuttalText: string | null;
  businessRebuttalDate: Day | null;
}

function dayOf(ms: number): Day {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function review(i: number): BbbFixtureReview {
  const at = Date.UTC(2026, 10, 20) - i * 86_400_000 * 3;
  const long =
    i === 1
      ? "The crew replaced our roof in two days and cleaned up every nail. The estimate matched the invoice to the dollar."
      : null;
  return {
    id: 1_800_000 - i,
    displayName: i === 1 ? "Maria G" : `Customer ${i}`,
    reviewStarRating: i === 4 ? null : 5 - (i % 5),
    text: long ? `${long.slice(0, 40)}...` : `Review ${i}: work done as promised.`,
    date: dayOf(at),
    hasExtendedText: Boolean(long),
    extendedText: long ? [{ id: 1_800_000 - i, text: long, date: dayOf(at) }] : [],
    businessResponseText:
      i % 3 === 1
        ? i === 1
          ? "Thank you Maria, we are glad the crew took care of you."
          : `Response ${i}`
        : null,
    businessResponseDate: i % 3 === 1 ? dayOf(at + 86_400_000) : null,
    customerResponseText: i === 1 ? "One gutter was loose afterwards." : null,
    customerResponseDate: i === 1 ? dayOf(at + 2 * 86_400_000) : null,
    businessRebuttalText: i === 1 ? "We fixed the gutter the next morning." : null,
    businessRebuttalDate: i === 1 ? dayOf(at + 3 * 86_400_000) : null,
  };
}

export const ROOFER_REVIEWS: BbbFixtureReview[] = Array.from({ length: 25 }, (_, i) => review(i));

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json; charset=utf-8" },
  body: JSON.stringify(data),
});
const html = (body: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">${body}</html>`,
});
const challenge = (status: number) =>
  html(
    '<title>Just a moment...</title></head><body><div id="challenge-running"></div><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body>',
    status,
  );

function reviews(url: URL): FixtureResponse {
  const businessId = url.searchParams.get("businessId") ?? "";
  const page = Number(url.searchParams.get("page") ?? "1");
  const pageSize = Number(url.searchParams.get("pageSize") ?? "10");
  if (
    !/^\d{4}$/.test(url.searchParams.get("bbbId") ?? "") ||
    !(page >= 1) ||
    !(pageSize >= 1 && pageSize <= 20)
  )
    return json({ error: "bad request" }, 400);
  if (businessId === "1000403") return challenge(403);
  if (businessId === "1000429") return challenge(200);
  const all = businessId === "1000001" || businessId === "1000500" ? ROOFER_REVIEWS : [];
  const ordered = url.searchParams.get("sort") === "reviewDate desc, id desc" ? all : [...all].reverse();
  const items = ordered.slice((page - 1) * pageSize, page * pageSize);
  const meta = { page, pageSize, totalPages: Math.ceil(all.length / pageSize), numFound: all.length };
  return json(businessId === "1000500" ? { ...meta, results: items } : { ...meta, items });
}

const PROFILE = /^\/us\/[a-z]{2}\/[^/]+\/profile\/[^/]+\/[^/]*-(\d{4})-(\d+)(\/customer-reviews)?\/?$/;

const fixture: PublisherFixture = {
  domains: ["bbb.org"],
  site: ({ url, method }) => {
    if (method !== "GET") return json({ error: "Method Not Allowed" }, 405);
    if (url.pathname === "/api/businessprofile/customerreviews") return reviews(url);
    const profile = PROFILE.exec(url.pathname);
    if (profile?.[2] === "1000403") return challenge(403);
    if (profile) return html(`<title>Reviews</title></head><body><h1>Customer Reviews</h1></body>`);
    return html("<title>Not found</title></head><body>Page not found</body>", 404);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: {
    profileUrl: "https://www.bbb.org/us/ca/san-diego/profile/roofing-contractors/acme-roofing-1126-1000001",
  },
};

export default fixture;
