/**
 * Fixture zomato.com: restaurant pages (`/{city}/{slug}`) whose state, an escaped JSON string in a
 * script as Zomato's pages carry it, names the restaurant's `resId` (where both public clients read
 * it), and the review route the review tab loads,
 * `GET /webroutes/reviews/loadMore?sort=dd&filter=reviews-dd&res_id=N&page=N`, answering
 * `{entities: {REVIEWS: {<id>: review}, RATING: {...}}, page_data: {sections: {SECTION_REVIEWS:
 * {numberOfPages, currentPage, entities: [{entity_type: "REVIEWS", entity_ids}]}}}}` with reviews
 * `{reviewId, userName, reviewUserId, ratingV2, ratingV2Text, reviewText, timestamp, likeCount,
 * commentCount, experience, reviewTags, reviewPhotos, reviewUrl, rating}`:
 * The-Great-One/zomato-py `src/zomato/client.py` and `README.md` @2fb8ea0b (2026-08-01, MIT) for
 * the route, `entities.REVIEWS` keyed by id, the review fields and `"resId"` in the page;
 * sivaprakashsp21/zomato_scrapper `zomatoscrapperoptimised.py` @be2ca50f (2024-11-05) for
 * `sort=dd&filter=reviews-dd&page=N`, `SECTION_REVIEWS.numberOfPages`, the escaped `"resId"` and the
 * `timestamp` forms ("23 hours ago", "yesterday", "one month ago", "just now", "Oct 29, 2023").
 * The reviews are invented. Without `sort=dd` the reviews come oldest first here, so a module that
 * forgets the sort gets the wrong order; the object of reviews is keyed by numeric ids, so a module
 * that takes its order from the object gets them oldest first too.
 *
 * Restaurants: ncr/the-chinese-thai-restaurant-safdarjung-new-delhi (23 reviews, 10 a page, relative
 * and absolute dates, Hindi and English text, one with the rating "-" and one without a timestamp),
 * dubai/operation-falafel-jumeirah (12 reviews, absolute dates, Arabic and English text),
 * chennai/quiet-cafe-adyar (none), ncr/moved-state-cafe (a page without a restaurant id),
 * ncr/walled-bistro (the review route answers with Akamai's Access Denied page), unknown: 404.
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export interface ZomatoFixtureReview {
  reviewId: number;
  userName: string;
  reviewUserId: number;
  ratingV2: string;
  ratingV2Text: string;
  reviewText: string;
  timestamp?: string;
  likeCount: number;
  commentCount: number;
  experience: "DINING" | "DELIVERY";
  reviewTags: { tag: string }[];
  reviewPhotos: { entities: { entity_type: string; entity_ids: number[] }[] };
  reviewUrl: string;
  rating: { entities: { entity_type: string; entity_ids: number[] }[] };
}

export const RESTAURANTS: Record<string, { resId: number; city: string }> = {
  "ncr/the-chinese-thai-restaurant-safdarjung-new-delhi": { resId: 18371428, city: "ncr" },
  "dubai/operation-falafel-jumeirah": { resId: 202344, city: "dubai" },
  "chennai/quiet-cafe-adyar": { resId: 67001, city: "chennai" },
  "ncr/walled-bistro": { resId: 99001, city: "ncr" },
};
/** Another restaurant's id, later in the page (a "similar restaurants" rail). */
const OTHER_RES_ID = 308020;
const PER_PAGE = 10;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const printed = (ms: number) => {
  const d = new Date(ms);
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, "0")}, ${d.getUTCFullYear()}`;
};
/** The first absolute date printed, and every older review three days before the previous one. */
export const OLDEST_RELATIVE = 5;
const FIRST_ABSOLUTE = Date.UTC(2026, 9, 20);
const RELATIVE = ["5 minutes ago", "23 hours ago", "yesterday", "2 days ago", "one month ago"];
const HINDI = "खाना बहुत स्वादिष्ट था और सेवा भी तेज़ थी। हम फिर से ज़रूर आएँगे।";
const ARABIC = "الفلافل طازج ولذيذ جداً والخدمة سريعة. سنعود مرة أخرى بالتأكيد.";

function review(base: number, i: number, timestamp: string | undefined, text: string): ZomatoFixtureReview {
  const reviewId = base - i * 7;
  return {
    reviewId,
    userName: i === 0 ? " Priya Sharma " : `Diner ${i}`,
    reviewUserId: 40_000_000 + i,
    ratingV2: ["5", "4", "3", "2", "1"][i % 5],
    ratingV2Text: "Rated",
    reviewText: text,
    ...(timestamp === undefined ? {} : { timestamp }),
    likeCount: i % 4,
    commentCount: 0,
    experience: i % 2 ? "DELIVERY" : "DINING",
    reviewTags: [{ tag: "Great Service" }],
    reviewPhotos: { entities: [{ entity_type: "PHOTOS", entity_ids: [] }] },
    reviewUrl: `https://www.zomato.com/review/r${reviewId}`,
    rating: { entities: [{ entity_type: "RATING", entity_ids: [900_000 + i] }] },
  };
}

const absolute = (i: number) => printed(FIRST_ABSOLUTE - (i - OLDEST_RELATIVE) * 3 * 86_400_000);

export const CHINESE_THAI: ZomatoFixtureReview[] = Array.from({ length: 23 }, (_, i) => {
  const r = review(
    1_460_000_000,
    i,
    i === 14 ? undefined : i < OLDEST_RELATIVE ? RELATIVE[i] : absolute(i),
    i === 0
      ? " The dim sums were excellent and the staff were quick. "
      : i === 1
        ? HINDI
        : `Review ${i}: good food.`,
  );
  return i === 6 ? { ...r, ratingV2: "-" } : r;
});

export const FALAFEL: ZomatoFixtureReview[] = Array.from({ length: 12 }, (_, i) =>
  review(
    1_450_000_000,
    i,
    printed(Date.UTC(2026, 8, 30) - i * 5 * 86_400_000),
    i === 0 ? ARABIC : `Falafel review ${i}.`,
  ),
);

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
const DENIED =
  "<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n" +
  "You don't have permission to access this server.<P>\nReference&#32;&#35;18&#46;1c2b3a4d\n" +
  "<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;1c2b3a4d</P>\n</BODY>\n</HTML>\n";

function restaurantPage(key: string): FixtureResponse {
  const known = RESTAURANTS[key];
  if (!known && key !== "ncr/moved-state-cafe")
    return html("<html><title>Page not found</title></html>", 404);
  const state = {
    pages: {
      current: { pageUrl: `/${key}` },
      restaurant: known
        ? { [known.resId]: { sections: { SECTION_BASIC_INFO: { resId: known.resId, name: key } } } }
        : {},
    },
    similarRestaurants: known ? [{ resId: OTHER_RES_ID, name: "Another Place" }] : [],
  };
  // Zomato writes its state as a JSON string inside JSON.parse("…"): quotes arrive escaped.
  const escaped = JSON.stringify(JSON.stringify(state));
  return html(
    `<!DOCTYPE html><html lang="en"><head><title>${key} | Zomato</title></head><body><div id="root"></div>` +
      `<script>window.__PRELOADED_STATE__ = JSON.parse(${escaped});</script></body></html>`,
  );
}

function reviewsAnswer(url: URL): FixtureResponse {
  const resId = Number(url.searchParams.get("res_id"));
  const page = Number(url.searchParams.get("page") ?? "1");
  const entry = Object.entries(RESTAURANTS).find(([, r]) => r.resId === resId);
  if (!entry || !(page >= 1)) return json({ status: "failed", message: "Invalid res_id" }, 400);
  if (entry[0] === "ncr/walled-bistro") return html(DENIED, 403);
  const all =
    entry[0] === "ncr/the-chinese-thai-restaurant-safdarjung-new-delhi"
      ? CHINESE_THAI
      : entry[0] === "dubai/operation-falafel-jumeirah"
        ? FALAFEL
        : [];
  const newestFirst =
    url.searchParams.get("sort") === "dd" && url.searchParams.get("filter") === "reviews-dd";
  const ordered = newestFirst ? all : [...all].reverse();
  const shown = ordered.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  return json({
    entities: {
      REVIEWS: Object.fromEntries(shown.map((r) => [String(r.reviewId), r])),
      RATING: Object.fromEntries(
        shown.map((r) => [String(r.rating.entities[0].entity_ids[0]), { rating: Number(r.ratingV2) || 0 }]),
      ),
    },
    page_data: {
      sections: {
        SECTION_REVIEWS: {
          numberOfPages: Math.ceil(all.length / PER_PAGE),
          currentPage: page,
          entities: [{ entity_type: "REVIEWS", entity_ids: shown.map((r) => r.reviewId) }],
        },
      },
    },
  });
}

const fixture: PublisherFixture = {
  domains: ["zomato.com"],
  site: ({ url, method }) => {
    if (method !== "GET") return json({ error: "Method Not Allowed" }, 405);
    if (url.pathname === "/webroutes/reviews/loadMore") return reviewsAnswer(url);
    const page = /^\/([a-z]+)\/([a-z0-9-]+)$/.exec(url.pathname);
    return page ? restaurantPage(`${page[1]}/${page[2]}`) : html("<html></html>", 404);
  },
};

export default fixture;
