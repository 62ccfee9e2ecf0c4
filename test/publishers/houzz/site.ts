/**
 * Fixture houzz.com and houzz.co.uk: pro profile pages (`/professionals/<category>/<slug>-pfvwus-pf~<id>`)
 * carrying the page state with the two ids the reviews call needs where
 * sociodevz/topratedbyphilly-review-scraper `reviews/main/sites/houzz.py` @762dcc78 (2021) finds them
 * (`"UserProfileStore":{"prereqs":…,"data":{"user":{"id":…,"userId":N,"userName"` and
 * `"professional":{"id":N,"proType"`), and JSON-LD whose first item has `aggregateRating`; and the
 * reviews call `GET /j/ajax/profileReviewsAjax?userId=&proId=&fromItem=&itemsPerPage=&sortType=NEWEST`
 * answering `{ctx: {data: {stores: {data: {ProfessionalReviewsStore: {data: {<reviewId>: review}},
 * UserStore: {data: {<userId>: {displayName}}}}}}}}` with reviews `{reviewId, userId, rating, body,
 * created (epoch seconds), modified, numberOfLikes, relationship, projectDate, projectPrice}` (the same
 * client's `reviews_formatter.py` @dbf34b1f). `fromItem` is an item offset. The answer's review map is
 * keyed by numeric ids in ascending order (as JSON.parse enumerates them anyway), so the newest review
 * is last in the map; without `sortType=NEWEST` the oldest 45 are answered.
 *
 * Pros (reviews invented): jetroof (pf~1991096372, userId 5057474, proId 177044): 50 reviews, one
 * rated 0 and one without its reviewer in UserStore; acme-kitchens on houzz.co.uk (pf~12345): 2;
 * walled (pf~2): a bot check page; ajax-walled (pf~3): the page, then an HTML answer to the call;
 * no-state (pf~4): a page without the ids. Anything else: 404.
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export interface HouzzFixtureReview {
  reviewId: number;
  userId: number;
  rating: number;
  body: string;
  created: number;
  modified: number;
  numberOfLikes: number;
  relationship: string;
  projectDate: string | null;
  projectPrice: number | null;
}

const NEWEST = Date.UTC(2026, 9, 30, 18, 0) / 1000;

function review(i: number, base: number): HouzzFixtureReview {
  return {
    reviewId: base - i,
    userId: 800 + i,
    rating: i === 7 ? 0 : i === 1 ? 4 : 5,
    body: i === 0 ? "  JetRoof replaced our roof in two days.\nClean site, fair price.  " : `Review ${i}.`,
    created: NEWEST - i * 5 * 86_400,
    modified: NEWEST - i * 5 * 86_400,
    numberOfLikes: i === 0 ? 3 : 0,
    relationship: "HIRED_PRO",
    projectDate: null,
    projectPrice: null,
  };
}

/** Newest first, as the module must return them. */
export const JETROOF_REVIEWS = Array.from({ length: 50 }, (_, i) => review(i, 9_000_050));
export const KITCHEN_REVIEWS = Array.from({ length: 2 }, (_, i) => review(i, 7_000_002));

interface Pro {
  userId: number;
  proId: number;
  name: string;
  reviews: HouzzFixtureReview[];
  average: number;
}

const PROS: Record<string, Pro> = {
  "1991096372": { userId: 5057474, proId: 177044, name: "JetRoof", reviews: JETROOF_REVIEWS, average: 4.9 },
  "12345": { userId: 6001, proId: 6002, name: "Acme Kitchens", reviews: KITCHEN_REVIEWS, average: 5 },
  "3": { userId: 3003, proId: 3004, name: "Ajax Walled", reviews: KITCHEN_REVIEWS, average: 5 },
};
/** Another pro's ids earlier in the page state (a "similar pros" module). */
const OTHER = { userId: 99, proId: 98 };

const html = (body: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body,
});
const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});

function state(pro: Pro | null): string {
  const stores = {
    SimilarProsStore: {
      data: { pros: [{ user: { id: "other", userId: OTHER.userId }, proId: OTHER.proId }] },
    },
    ...(pro
      ? {
          UserProfileStore: {
            prereqs: { userName: pro.name.toLowerCase() },
            data: {
              user: { id: pro.name.toLowerCase(), userId: pro.userId, userName: pro.name.toLowerCase() },
            },
          },
          ViewProfileStore: { data: { professional: { id: pro.proId, proType: 1, name: pro.name } } },
        }
      : {}),
  };
  return JSON.stringify({ data: { stores: { data: stores } } });
}

function profilePage(id: string): FixtureResponse {
  if (id === "2")
    return html(
      "<!DOCTYPE html><html><head><title>Houzz</title></head><body><h1>Please verify you are a human</h1>" +
        '<div id="px-captcha"></div></body></html>',
    );
  const pro = PROS[id] ?? null;
  if (!pro && id !== "4") return html("<h1>Page not found</h1>", 404);
  const jsonLd = pro
    ? [
        {
          "@context": "http://schema.org",
          "@type": "HomeAndConstructionBusiness",
          "@id": `https://www.houzz.com/professionals/roofing-and-gutters/x-pfvwus-pf~${id}`,
          name: pro.name,
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: String(pro.average),
            reviewCount: String(pro.reviews.length),
          },
        },
      ]
    : [];
  return html(
    `<!DOCTYPE html><html lang="en"><head><title>${pro?.name ?? "Pro"} | Houzz</title>` +
      `<script type="application/ld+json">${JSON.stringify(jsonLd)}</script></head>` +
      `<body><div id="hz-page"></div><script id="hz-ctx" type="application/json">${state(pro)}</script></body></html>`,
  );
}

function reviewsCall(url: URL): FixtureResponse {
  const userId = Number(url.searchParams.get("userId"));
  const proId = Number(url.searchParams.get("proId"));
  const pro = Object.values(PROS).find((p) => p.userId === userId && p.proId === proId);
  if (!pro) return json({ error: "not found" }, 404);
  if (pro.name === "Ajax Walled") return html('<html><body><div id="px-captcha"></div></body></html>');
  const from = Number(url.searchParams.get("fromItem") ?? "0");
  const size = Number(url.searchParams.get("itemsPerPage") ?? "10");
  if (!(from >= 0) || !(size >= 1 && size <= 1024)) return json({ error: "bad request" }, 400);
  const ordered = url.searchParams.get("sortType") === "NEWEST" ? pro.reviews : [...pro.reviews].reverse();
  const shown = ordered.slice(from, from + size);
  const byId = Object.fromEntries(
    [...shown].sort((a, b) => a.reviewId - b.reviewId).map((r) => [String(r.reviewId), r]),
  );
  const users = Object.fromEntries(
    shown
      .filter((r) => r.userId !== 802)
      .map((r) => [
        String(r.userId),
        { displayName: r.userId === 800 ? "Dana K" : `Houzz user ${r.userId}`, isProfessional: false },
      ]),
  );
  return json({
    ctx: {
      data: { stores: { data: { ProfessionalReviewsStore: { data: byId }, UserStore: { data: users } } } },
    },
  });
}

const fixture: PublisherFixture = {
  domains: ["houzz.com", "houzz.co.uk"],
  site: ({ url, method }) => {
    if (method !== "GET") return json({ error: "Method Not Allowed" }, 405);
    if (url.pathname === "/j/ajax/profileReviewsAjax") return reviewsCall(url);
    const id = /^\/professionals\/[a-z0-9-]+\/[a-z0-9-]+-pfvw[a-z]{2}-pf~(\d+)$/.exec(url.pathname)?.[1];
    return id ? profilePage(id) : html("<h1>Page not found</h1>", 404);
  },
};

export default fixture;
