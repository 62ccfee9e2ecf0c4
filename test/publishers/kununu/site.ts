/**
 * Fixture kununu.com: employer profile pages (`/{cc}/{slug}`) carrying the page's Apollo state in
 * `<script data-testid="apollo-state">`, where a public client finds the profile's `uuid` in the
 * object that also names its `slug`, and the review middleware the page loads,
 * `GET /middlewares/profiles/{cc}/{slug}/{uuid}/reviews?fetchFactorScores=1&reviewType=employees&sort=newest&page=N`,
 * answering `{reviews, page, pagesCount, perPage, totalReviews, common}` with reviews
 * `{uuid, title, score, createdAt, texts: [{id, text}], ratings: [{id, score, text}], position,
 * department, company}`: NickN0w4k/rep0 `kununu_scraper.py` @853d7024 (2025-06-08), the review
 * fields also as spvapech/KununuWebScraper `kununu_bewertungen_scraper.py` @2d495c2f (2026-04-10)
 * reads them from the review pages' state.
 * The reviews are invented. Without `sort=newest` the reviews come oldest first here, so a module
 * that forgets the sort gets the wrong order; without `fetchFactorScores=1` the factor scores
 * (`ratings`) are empty.
 *
 * Employers: de/acme-gmbh (23 reviews, 10 a page, one with a score of 7 and one without a uuid),
 * at/quiet-wien (none), de/moved-state (a page whose state names no uuid for the slug), unknown: 404.
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export interface KununuFixtureReview {
  uuid?: string;
  title: string;
  score: number;
  createdAt: string;
  texts: { id: string; text: string }[];
  ratings: { id: string; score: number; text: string | null }[];
  position: string;
  department: string;
  company: { name: string; uuid: string; location: { city: string; state: string } };
}

export const PROFILE_UUIDS: Record<string, string> = {
  "de/acme-gmbh": "4cd02b99-e78a-4523-a1ca-453cd3fb5ab9",
  "at/quiet-wien": "0b7c6e1a-2f3d-4e5a-9b8c-7d6e5f4a3b2c",
};
/** Another profile's uuid, earlier in the page: a module taking the first uuid it sees takes this. */
const OTHER_UUID = "e3c23200-3c1a-4ca0-8e28-adc7d813cb40";
const PER_PAGE = 10;
const NEWEST = Date.UTC(2026, 10, 18, 9, 30, 0);

function review(i: number): KununuFixtureReview {
  return {
    ...(i === 12 ? {} : { uuid: `9f${String(i).padStart(6, "0")}-1a2b-4c3d-8e9f-0a1b2c3d4e5f` }),
    title: i === 0 ? " Gute Arbeitsatmosphäre, faire Bezahlung " : `Bewertung ${i}`,
    score: i === 5 ? 7 : [4.15, 3.46, 5, 2.08][i % 4],
    createdAt: new Date(NEWEST - i * 3 * 86_400_000).toISOString(),
    texts:
      i === 0
        ? [
            { id: "positive", text: "Flexible Arbeitszeiten und ein tolles Team." },
            { id: "negative", text: "Die Kantine schließt zu früh." },
            { id: "suggestion", text: "" },
          ]
        : [{ id: "positive", text: `Text ${i}` }],
    ratings:
      i === 0
        ? [
            { id: "atmosphere", score: 4, text: null },
            { id: "image", score: 5, text: "Guter Ruf in der Branche." },
          ]
        : [{ id: "atmosphere", score: 4, text: null }],
    position: "employee",
    department: "IT",
    company: {
      name: "ACME GmbH",
      uuid: PROFILE_UUIDS["de/acme-gmbh"],
      location: { city: "Berlin", state: "Berlin" },
    },
  };
}

export const ACME_REVIEWS: KununuFixtureReview[] = Array.from({ length: 23 }, (_, i) => review(i));

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});
const html = (body: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body,
});

function profilePage(cc: string, slug: string): FixtureResponse {
  const key = `${cc}/${slug}`;
  const uuid = PROFILE_UUIDS[key];
  if (!uuid && key !== "de/moved-state") return html("<html><title>Seite nicht gefunden</title></html>", 404);
  const state = {
    ROOT_QUERY: {
      'similarProfiles({"limit":3})': [{ __typename: "Profile", uuid: OTHER_UUID, slug: "catalent-pharma" }],
      [`profile({"slug":"${slug}"})`]:
        key === "de/moved-state"
          ? { __typename: "Profile", slug, name: "Moved" }
          : { __typename: "Profile", uuid, slug, name: "ACME", country: cc },
    },
  };
  return html(
    `<!DOCTYPE html><html lang="de"><head><title>${slug} | kununu</title></head><body><div id="__next"></div>` +
      `<script data-testid="apollo-state" type="application/json">${JSON.stringify(state)}</script></body></html>`,
  );
}

function reviews(cc: string, slug: string, uuid: string, url: URL): FixtureResponse {
  const page = Number(url.searchParams.get("page") ?? "1");
  if (!(page >= 1) || url.searchParams.get("reviewType") !== "employees")
    return json({ error: "bad request" }, 400);
  const key = `${cc}/${slug}`;
  if (PROFILE_UUIDS[key] !== uuid) return json({ error: "not found" }, 404);
  const all = key === "de/acme-gmbh" ? ACME_REVIEWS : [];
  const ordered = url.searchParams.get("sort") === "newest" ? all : [...all].reverse();
  const factors = url.searchParams.get("fetchFactorScores") === "1";
  return json({
    reviews: ordered
      .slice((page - 1) * PER_PAGE, page * PER_PAGE)
      .map((review) => (factors ? review : { ...review, ratings: [] })),
    page,
    pagesCount: Math.ceil(all.length / PER_PAGE),
    perPage: PER_PAGE,
    totalReviews: all.length,
    common: { profileName: "ACME", profileUuid: uuid },
  });
}

const fixture: PublisherFixture = {
  domains: ["kununu.com"],
  site: ({ url, method }) => {
    if (method !== "GET") return json({ error: "Method Not Allowed" }, 405);
    const api = /^\/middlewares\/profiles\/(de|at|ch)\/([a-z0-9-]+)\/([0-9a-f-]{36})\/reviews$/.exec(
      url.pathname,
    );
    if (api) return reviews(api[1], api[2], api[3], url);
    const page = /^\/(de|at|ch)\/([a-z0-9-]+)$/.exec(url.pathname);
    return page ? profilePage(page[1], page[2]) : html("<html></html>", 404);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: "https://www.kununu.com/de/acme-gmbh" },
};

export default fixture;
