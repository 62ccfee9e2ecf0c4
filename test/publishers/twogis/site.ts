/**
 * Fixture 2GIS: firm pages (`/firm/{id}`, `/{city}/firm/{id}`) on 2gis.ru, 2gis.com, 2gis.kz and
 * 2gis.ae carrying the site's config script `var __customcfg = JSON.parse('{…"reviewApiKey":"<uuid>",
 * "locale":"ru_RU"…}')`, as BekkerSmartseller/parser-2gis-fork `parser_2gis/db/prices.py` @a5ff4009
 * (2026-08-22) reads a key from it with plain HTTP and yaroslaff/antifraud2gis
 * `contrib/dump_customcfg.py` @6c6491a2 (2025-03-21) reads `__customcfg.reviewApiKey`; and the public
 * review API on public-api.reviews.2gis.com, `GET /3.0/branches/{id}/reviews?limit=&offset=&fields=
 * &rated=true&sort_by=date_created&key=&locale=`, answering `{meta: {code, branch_rating,
 * branch_reviews_count, total_count, next_link}, reviews: [{id, rating, text, date_created,
 * likes_count, user: {name, reviews_count, public_id}, official_answer}]}` as yaroslaff/antifraud2gis
 * `src/antifraud2gis/company.py` and `review.py` @4b139b30 (2025-06-20) read it (its `next_link`
 * carries a `:8080` port the client strips, kept here). The reviews are invented.
 *
 * Only the site's key is accepted (another key: 403 with a JSON error); without
 * `sort_by=date_created` the reviews come oldest first, so a module that forgets the sort gets the
 * wrong order.
 *
 * Firms: 70000001033044306 (113 reviews, one rated 7 and one without an id; page state with another
 * UUID before the config), 70000001018076362 on 2gis.kz (3 reviews, locale ru_KZ),
 * 70000001000000001 (none), 70000001000000002 (a page without the config script),
 * 70000001000000003 (the API lists none of the 12 reviews the branch counts), 70000001000000004 (the
 * API answers an HTML ban page with 200), others: 404.
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export const REVIEW_KEY = "6e7e1929-4ea9-4a5d-8c05-d601860389bd";
/** Another UUID earlier in the page: a module taking the first UUID it sees sends this one. */
const WEB_KEY = "aa11bb22-cc33-dd44-ee55-ff6677889900";
export const ACME = "70000001033044306";
export const ASTANA = "70000001018076362";
export const QUIET = "70000001000000001";
export const NO_CONFIG = "70000001000000002";
export const HOLLOW = "70000001000000003";
export const BANNED = "70000001000000004";

export interface TwogisFixtureReview {
  id?: string;
  rating: number;
  text: string;
  date_created: string;
  date_edited: string | null;
  likes_count: number;
  user: { name: string; reviews_count: number; public_id: string };
  official_answer: { id: string; text: string; date_created: string } | null;
  object: { id: string; type: "branch" };
}

const NEWEST = Date.UTC(2026, 10, 20, 10, 53, 17, 16);
const HOUR = 3_600_000;
const NAMES = ["Анна Смирнова", "Игорь", "Marat K.", "Ольга Ж."];

/** 2GIS prints date_created with microseconds and the branch's own offset (+07:00 in Novosibirsk). */
function printed(time: number): string {
  const local = new Date(time + 7 * HOUR).toISOString();
  return `${local.slice(0, 23)}371+07:00`;
}

function review(firm: string, i: number): TwogisFixtureReview {
  const time = NEWEST - i * 37 * HOUR;
  return {
    ...(firm === ACME && i === 61 ? {} : { id: `${firm.slice(-4)}${String(100_000 + i)}` }),
    rating: firm === ACME && i === 4 ? 7 : [5, 4, 1, 3, 5][i % 5],
    text:
      i === 0
        ? "  Очень вкусный кофе и приветливый персонал. Рекомендую всем, кто рядом!  "
        : i === 1
          ? "Долго ждали заказ, но в целом неплохо. Цены выше среднего."
          : `Отзыв номер ${i}: всё было хорошо, приду ещё.`,
    date_created: printed(time),
    date_edited: i === 1 ? printed(time + HOUR) : null,
    likes_count: i === 0 ? 12 : 0,
    user: { name: NAMES[i % NAMES.length], reviews_count: 3 + i, public_id: `u${i}` },
    official_answer:
      i === 1
        ? {
            id: "oa1",
            text: "Спасибо за отзыв! Мы уже работаем над скоростью обслуживания.",
            date_created: printed(time + 5 * HOUR),
          }
        : null,
    object: { id: firm, type: "branch" },
  };
}

const COUNTS: Record<string, number> = { [ACME]: 113, [ASTANA]: 3, [QUIET]: 0 };
export const FIRM_REVIEWS: Record<string, TwogisFixtureReview[]> = Object.fromEntries(
  Object.entries(COUNTS).map(([firm, n]) => [firm, Array.from({ length: n }, (_, i) => review(firm, i))]),
);
export const RATINGS: Record<string, number> = {
  [ACME]: 4.3,
  [ASTANA]: 4.7,
  [QUIET]: 0,
  [HOLLOW]: 4.1,
  [BANNED]: 4.5,
};
/** The branch counts more reviews than the rated listing holds (ratings without text, hidden ones). */
export const BRANCH_COUNTS: Record<string, number> = { [ACME]: 131, [ASTANA]: 3, [QUIET]: 0, [HOLLOW]: 12 };

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json; charset=utf-8" },
  body: JSON.stringify(data),
});
const html = (body: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body,
});

const LOCALES: Record<string, string> = { "2gis.kz": "ru_KZ", "2gis.ae": "en_AE", "2gis.com": "en_AE" };

function firmPage(site: string, id: string): FixtureResponse {
  if (!(id in RATINGS) && id !== NO_CONFIG)
    return html("<html><title>Страница не найдена</title></html>", 404);
  const config = JSON.stringify({
    webApiKey: WEB_KEY,
    webApiUrl: "https://catalog.api.2gis.ru/2.0/",
    reviewApiKey: REVIEW_KEY,
    locale: LOCALES[site] ?? "ru_RU",
    defaultCountryCode: "RU",
  });
  const script = id === NO_CONFIG ? "" : `<script>var __customcfg = JSON.parse('${config}');</script>`;
  return html(
    `<!DOCTYPE html><html lang="ru"><head><meta charset="utf-8"><title>Кафе «Акме» — 2ГИС</title>` +
      `<meta name="x-session" content="${WEB_KEY}">${script}</head>` +
      `<body><div id="root"></div><script>var initialState = JSON.parse('{"data":{"entity":{"profile":{"${id}":{"data":{"id":"${id}"}}}}}}');</script></body></html>`,
  );
}

function reviewsAnswer(id: string, url: URL): FixtureResponse {
  if (url.searchParams.get("key") !== REVIEW_KEY)
    return json({ meta: { code: 403, error: { type: "keyError", message: "Access denied" } } }, 403);
  if (!(id in RATINGS)) return json({ meta: { code: 404, error: { type: "itemNotFound" } } }, 404);
  if (id === BANNED) return html("<html><body><h1>Доступ ограничен</h1></body></html>");
  const limit = Number(url.searchParams.get("limit") ?? "50");
  const offset = Number(url.searchParams.get("offset") ?? "0");
  if (!(limit >= 1 && limit <= 50 && offset >= 0)) return json({ meta: { code: 400 } }, 400);
  const all = FIRM_REVIEWS[id] ?? [];
  const ordered = url.searchParams.get("sort_by") === "date_created" ? all : [...all].reverse();
  const total = id === HOLLOW ? 0 : all.length;
  const next = new URL(url);
  next.host = "public-api.reviews.2gis.com:8080";
  next.protocol = "http:";
  next.searchParams.set("offset", String(offset + limit));
  return json({
    meta: {
      code: 200,
      branch_rating: RATINGS[id],
      branch_reviews_count: BRANCH_COUNTS[id],
      total_count: total,
      ...(offset + limit < total ? { next_link: next.toString() } : {}),
    },
    reviews: ordered.slice(offset, offset + limit),
  });
}

const fixture: PublisherFixture = {
  domains: ["2gis.ru", "2gis.com", "2gis.kz", "2gis.ae"],
  coverageSample: { profileUrl: `https://2gis.ru/firm/${ACME}` },
  site: ({ url, method, host }) => {
    if (method !== "GET") return json({ meta: { code: 405 } }, 405);
    const hostname = host.split(":")[0];
    if (hostname === "public-api.reviews.2gis.com") {
      const api = /^\/3\.0\/branches\/(\d+)\/reviews$/.exec(url.pathname);
      return api ? reviewsAnswer(api[1], url) : json({ meta: { code: 404 } }, 404);
    }
    const firm = /^\/(?:[a-z_-]+\/)?firm\/(\d+)$/.exec(url.pathname);
    return firm ? firmPage(hostname, firm[1]) : html("<html></html>", 404);
  },
};

export default fixture;
