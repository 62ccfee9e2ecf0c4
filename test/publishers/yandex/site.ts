/**
 * Fixture Yandex Maps, following robert-werner/marketplace-maps-parser
 * `src/infrastructure/transports/yandex_maps_browser.py` and `README.md` @12c88edf (measured
 * 2026-09-18/19): the organisation's reviews page `/maps/org/[<slug>/]<id>/reviews/` carries a
 * `<script class="state-view">` JSON with the first page of reviews in the default (relevance) order
 * (`reviewResults.reviews`, `reviewResults.params` with `count` / `totalPages`), the organisation's
 * `ratingData` and the session's `csrfToken`, `sessionId` and `reqId`; the reviews API
 * `/maps/api/business/fetchReviews` checks the query signature `s` (djb2-xor over the query without
 * `s`, keys sorted case-insensitively, encoded like encodeURIComponent) and the session, answers a
 * stale token with `{csrfToken}` alone, serves `ranking=by_time` newest first, and errors past the
 * first 600 reviews (page 13 at 50 a page). Reviews `{reviewId, author: {name}, text, rating,
 * updatedTime, businessComment, reactions}` as that client and the djb2 clients read them. The
 * signature check here is written from that description, apart from the module's signer. The
 * reviews are invented.
 *
 * Organisations: 1018907821 (113 reviews, one rated 6, one without a reviewId), 1000000002 (7
 * reviews, all on the page), 1000000003 (700 reviews: past Yandex's 600), 1000000004 (SmartCaptcha),
 * 1000000005 (the page's token is stale), 1000000006 (the API refuses every request with a fresh
 * token, as Yandex does with a bad signature), 1000000007 (a page without the state script), others 404.
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export const PUSHKIN = "1018907821";
export const SMALL = "1000000002";
export const HUGE = "1000000003";
export const CAPTCHA = "1000000004";
export const STALE = "1000000005";
export const REFUSING = "1000000006";
export const STATELESS = "1000000007";

export const CSRF = "efdc30abb7ad58759de6962e19d5f84321a5b86d:1788594635";
const STALE_CSRF = "0000000000000000000000000000000000000000:1700000000";
export const SESSION_ID = "1788594635146516-7338186996850161903-balancer-l7leveler-kubr-yp-vla-88-BAL";
export const REQ_ID = "1788594635192059-1231116757-addrs-upper-yp-22";

export interface YandexFixtureReview {
  reviewId?: string;
  author: { name: string; professionLevel: string };
  text: string;
  rating: number;
  updatedTime: string;
  businessComment?: { text: string; updatedTime: string };
  reactions: { likes: number; dislikes: number };
}

const NEWEST = Date.UTC(2026, 10, 18, 9, 30);
const HOUR = 3_600_000;
const NAMES = ["Мария Петрова", "Алексей", "John D.", "Ирина С."];

function review(org: string, i: number): YandexFixtureReview {
  return {
    ...(org === PUSHKIN && i === 72 ? {} : { reviewId: `r${org.slice(-3)}-${String(i).padStart(4, "0")}` }),
    author: { name: NAMES[i % NAMES.length], professionLevel: `Знаток города ${1 + (i % 9)} уровня` },
    text:
      i === 0
        ? "  Прекрасный ресторан: борщ и пельмени выше всяких похвал, обслуживание на высоте.  "
        : i === 2
          ? "Great place, friendly staff and a cosy atmosphere in the very centre of Moscow."
          : `Отзыв ${i}: всё понравилось, придём ещё раз всей семьёй.`,
    rating: org === PUSHKIN && i === 3 ? 6 : [5, 4, 5, 2, 3][i % 5],
    updatedTime: new Date(NEWEST - i * 29 * HOUR).toISOString(),
    ...(i === 0
      ? {
          businessComment: {
            text: "Спасибо, ждём вас снова!",
            updatedTime: new Date(NEWEST + 2 * HOUR).toISOString(),
          },
        }
      : {}),
    reactions: { likes: i === 0 ? 7 : 0, dislikes: 0 },
  };
}

const COUNTS: Record<string, number> = {
  [PUSHKIN]: 113,
  [SMALL]: 7,
  [HUGE]: 700,
  [STALE]: 60,
  [REFUSING]: 60,
};
export const ORG_REVIEWS: Record<string, YandexFixtureReview[]> = Object.fromEntries(
  Object.entries(COUNTS).map(([org, n]) => [org, Array.from({ length: n }, (_, i) => review(org, i))]),
);
export const RATINGS: Record<string, number> = {
  [PUSHKIN]: 4.6,
  [SMALL]: 4.9,
  [HUGE]: 4.2,
  [STALE]: 4,
  [REFUSING]: 4,
};

/** Yandex's default order: not by date (here the first page reversed in pairs). */
function byRelevance(reviews: YandexFixtureReview[]): YandexFixtureReview[] {
  return reviews.map((_, i) => reviews[i % 2 === 0 ? Math.min(i + 1, reviews.length - 1) : i - 1]);
}

const PAGE = 50;
const WINDOW = 600;

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json; charset=utf-8" },
  body: JSON.stringify(data),
});
const html = (body: string, status = 200, headers: Record<string, string> = {}): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8", ...headers },
  body,
});

function reviewsPage(org: string): FixtureResponse {
  if (org === CAPTCHA)
    return html("", 302, { Location: `/showcaptcha?cc=1&retpath=%2Fmaps%2Forg%2F${org}%2Freviews%2F` });
  const all = ORG_REVIEWS[org];
  if (!all && org !== STATELESS) return html("<html><title>Ничего не нашлось</title></html>", 404);
  const first = byRelevance(all?.slice(0, PAGE) ?? []);
  const state = {
    config: {
      // A list of reviews that is no review results (no reviewId): the module must not take it.
      promo: { reviews: [{ title: "Лучшие места города" }] },
      csrfToken: org === STALE ? STALE_CSRF : CSRF,
      counters: { sessionId: SESSION_ID, reqId: REQ_ID },
    },
    stack: [
      {
        businessData: {
          ratingData: {
            ratingValue: RATINGS[org],
            ratingCount: (all?.length ?? 0) * 2,
            reviewCount: all?.length ?? 0,
          },
          reviewResults: {
            reviews: first,
            params: {
              offset: 0,
              limit: PAGE,
              count: all?.length ?? 0,
              page: 1,
              totalPages: Math.ceil((all?.length ?? 0) / PAGE),
              reviewsRemained: Math.max(0, (all?.length ?? 0) - PAGE),
            },
          },
        },
      },
    ],
  };
  const script =
    org === STATELESS
      ? ""
      : `<script type="application/json" class="state-view">${JSON.stringify(state)}</script>`;
  return html(
    `<!DOCTYPE html><html lang="ru"><head><meta charset="utf-8"><title>Пушкинъ — Яндекс Карты</title></head>` +
      `<body><div class="app"></div>${script}</body></html>`,
  );
}

/** The site's check of `s`: djb2-xor over the query without `s`, keys sorted case-insensitively. */
function signatureOf(url: URL): string {
  const entries = [...url.searchParams.entries()]
    .filter(([key]) => key !== "s")
    .sort(([a], [b]) => a.toLowerCase().localeCompare(b.toLowerCase()));
  const query = entries.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  let hash = 5381;
  for (const char of query) hash = (Math.imul(hash, 33) ^ char.charCodeAt(0)) >>> 0;
  return String(hash);
}

function fetchReviews(url: URL): FixtureResponse {
  const q = url.searchParams;
  const org = q.get("businessId") ?? "";
  const signed = q.get("s") === signatureOf(url);
  if (!signed || org === REFUSING || q.get("csrfToken") !== CSRF) return json({ csrfToken: CSRF });
  if (q.get("sessionId") !== SESSION_ID || q.get("reqId") !== REQ_ID || q.get("ajax") !== "1")
    return json({ csrfToken: CSRF });
  const all = ORG_REVIEWS[org];
  if (!all) return html("Not Found", 404);
  const page = Number(q.get("page"));
  const size = Number(q.get("pageSize"));
  if (!(page >= 1 && size >= 1 && size <= PAGE)) return html("Bad Request", 400);
  if ((page - 1) * size >= WINDOW) return json({ error: { message: "Internal error" } });
  const ordered = q.get("ranking") === "by_time" ? all : byRelevance(all);
  return json({
    data: {
      reviews: ordered.slice((page - 1) * size, page * size),
      params: {
        offset: (page - 1) * size,
        limit: size,
        count: all.length,
        page,
        totalPages: Math.ceil(all.length / size),
        reviewsRemained: Math.max(0, all.length - page * size),
      },
    },
  });
}

const fixture: PublisherFixture = {
  domains: ["yandex.ru", "yandex.com"],
  coverageSample: { profileUrl: `https://yandex.ru/maps/org/${PUSHKIN}/` },
  site: ({ url, method }) => {
    if (method !== "GET") return html("Method Not Allowed", 405);
    if (url.pathname === "/maps/api/business/fetchReviews") return fetchReviews(url);
    if (url.pathname === "/showcaptcha")
      return html(
        `<html><head><title>Вы не робот?</title></head><body><form action="/checkcaptcha"></form></body></html>`,
      );
    const org = /^\/maps\/org\/(?:[\w%.-]+\/)?(\d+)\/reviews\/$/.exec(url.pathname);
    return org ? reviewsPage(org[1]) : html("<html></html>", 404);
  },
};

export default fixture;
