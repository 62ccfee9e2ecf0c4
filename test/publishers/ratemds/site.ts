/**
 * Fixture ratemds.com: a doctor's rating page answering JSON when asked with `?json=true&page=N`:
 * `GET /doctor-ratings/<id>/<slug>.html/?json=true&page=` → `{count, current_page, total_pages,
 * results: [...]}`. Structure: the page envelope (`results`, `total_pages`, `current_page`, `count`)
 * as shahidirfan100/RateMDs-Physician-Scraper `src/main.js` @00c135f8 (2026) reads RateMDs' own
 * Django pages; the rating fields `comment`, `created` (an ISO instant) and `average` as a public
 * Node client reads them from `?json=true` (undated, ~2024; see src/publishers/ratemds/README.md).
 * `id` and the sub-marks are assumed. The ratings are invented, 10 a page, newest first.
 *
 * Doctors: 424258 (23 ratings: three pages), 5150 (none), 404404 (404), 777 (an answer whose
 * ratings moved under `ratings`).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export interface RateMdsFixtureRating {
  id: number;
  comment: string;
  created: string;
  average: number;
  staff: number;
  punctuality: number;
  helpfulness: number;
  knowledge: number;
}

const PER_PAGE = 10;

function rating(i: number): RateMdsFixtureRating {
  const marks = [5 - (i % 5), 5 - (i % 3), 5, 4];
  return {
    id: 2_900_000 - i,
    comment: i === 1 ? "  Listens carefully and explains every option.  " : `Visit ${i}: seen on time.`,
    created: new Date(Date.UTC(2026, 9, 30, 15, 0, 0) - i * 86_400_000).toISOString(),
    average: marks.reduce((a, b) => a + b, 0) / marks.length,
    staff: marks[0],
    punctuality: marks[1],
    helpfulness: marks[2],
    knowledge: marks[3],
  };
}

export const MCALPINE: RateMdsFixtureRating[] = Array.from({ length: 23 }, (_, i) => rating(i));

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});

const html = (body: string): FixtureResponse => ({
  status: 200,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body,
});

function ratings(doctor: string, url: URL): FixtureResponse {
  // Without ?json=true the page is the HTML rating page, not JSON.
  if (url.searchParams.get("json") !== "true") return html("<!doctype html><h1>Dr. W. McAlpine</h1>");
  const page = Number(url.searchParams.get("page") ?? "1");
  if (!Number.isInteger(page) || page < 1) return json({ detail: "Invalid page." }, 404);
  if (doctor === "404404") return json({ detail: "Not found." }, 404);
  const all = doctor === "424258" || doctor === "777" ? MCALPINE : [];
  const total_pages = Math.max(1, Math.ceil(all.length / PER_PAGE));
  if (page > total_pages) return json({ detail: "Invalid page." }, 404);
  const results = all.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  const envelope = { count: all.length, current_page: page, total_pages };
  if (doctor === "777") return json({ ...envelope, ratings: results });
  return json({ ...envelope, results });
}

const fixture: PublisherFixture = {
  domains: ["ratemds.com"],
  site: ({ url, method }) => {
    if (method !== "GET") return json({ detail: "Method Not Allowed" }, 405);
    const match = /^\/doctor-ratings\/(\d+)\/[^/]+\.html\/?$/.exec(url.pathname);
    if (match) return ratings(match[1], url);
    return json({ detail: "Not found." }, 404);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: {
    profileUrl: "https://www.ratemds.com/doctor-ratings/424258/Dr-W-McAlpine-Savannah-GA.html",
  },
};

export default fixture;
