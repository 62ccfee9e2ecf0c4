/**
 * Fixture naver.com: the PC place page `pcmap.place.naver.com/place/{id}/home`, whose
 * `window.__APOLLO_STATE__` holds `PlaceDetailBase:{id}` with `missingInfo.businessType` (the
 * structure of the real place page kept in marssol561-cloud/naver-place-collector
 * `scripts/review_html.html` @de4743ef, 2026-08-08, no licence: reference only) and sets a session
 * cookie; and the place GraphQL `POST pcmap-api.place.naver.com/graphql`, a batch of
 * `getVisitorReviews` (`input: {businessId, businessType, size, after, sort: "RECENT", …}` →
 * `visitorReviews {items {id, cursor, rating, author {id, nickname, url, review {totalCount}}, body,
 * media {type, thumbnail}, visited, created, reply {body, created}, language}, total}`) and
 * `getVisitorReviewStats` (`visitorReviewStats {review {avgRating, totalCount}}`), with the
 * `x-wtm-graphql` header base64 of `{"arg": id, "type": businessType, "source": "place"}`:
 * callmebaek/egurado `backend/app/services/naver_review_service.py` @898b645 (2026-04-04: cursor
 * paging with `after`, `sort`, the `x-wtm-graphql` header, `created` as "1.10.금") and the GraphQL
 * fields as marssol561-cloud/naver-place-collector `collector/visitor_collect.py` @de4743ef reads
 * them. The reviews are invented.
 *
 * Like Naver, the GraphQL answers a request without the right `x-wtm-graphql` header with its
 * captcha page (HTML, "WtmCaptcha"); without `sort: "RECENT"` the reviews come in another order.
 * The place page sets a session cookie (`Domain=naver.com`), which the walk must carry.
 *
 * Places: 1716926393 (restaurant, 23 visitor reviews, 10 a page; review 4 has no star rating,
 * review 0 a reply, photos and a video, review 2 is Japanese), 1446535451 (no business type in its
 * state, so `place`; no reviews), 1000000001 (a page without the Apollo state), 1000000002 (the
 * GraphQL answers with the captcha page), 1000000003 (the GraphQL answers an NCaptcha error);
 * unknown: 404.
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export const PLACE = "1716926393";
export const EMPTY = "1446535451";
export const NO_STATE = "1000000001";
export const CAPTCHA = "1000000002";
export const TOKEN = "1000000003";
const TYPES: Record<string, string | null> = {
  [PLACE]: "restaurant",
  [EMPTY]: null,
  [CAPTCHA]: "restaurant",
  [TOKEN]: "hairshop",
};
const SESSION = "NNB=fixture-session-7f3a";
const KOREAN_DAYS = "일월화수목금토";

export interface NaverFixtureReview {
  id: string;
  cursor: string;
  rating: number | null;
  author: { id: string; nickname: string; url: string; review: { totalCount: number } };
  body: string;
  media: { type: string; thumbnail: string }[];
  visited: string;
  created: string;
  reply: { body: string; created: string } | null;
  language: string;
}

/** Naver's printed day: "11.24.화" within the last weeks, "26.7.30.목" before. */
function printed(date: Date, withYear: boolean): string {
  const day = `${date.getUTCMonth() + 1}.${date.getUTCDate()}.${KOREAN_DAYS[date.getUTCDay()]}`;
  return withYear ? `${String(date.getUTCFullYear()).slice(2)}.${day}` : day;
}

const NEWEST = Date.UTC(2026, 10, 24);
const DAY = 86_400_000;

function review(i: number): NaverFixtureReview {
  const created = new Date(NEWEST - i * 9 * DAY);
  const visited = new Date(NEWEST - i * 9 * DAY - DAY);
  return {
    id: `6${String(i).padStart(3, "0")}a1b2c3d4e5f6a7b8c9d0e`,
    cursor: `c${PLACE}-${String(i).padStart(4, "0")}`,
    rating: i === 4 ? null : [5, 4, 3, 5, 2][i % 5],
    author: {
      id: `author${i}`,
      nickname: i === 0 ? "맛집탐방러" : `방문자${i}`,
      url: `https://m.place.naver.com/my/author${i}/review?v=2`,
      review: { totalCount: i === 0 ? 318 : i + 1 },
    },
    body:
      i === 0
        ? "점심에 방문했어요.\n샐러드가 신선하고 양도 많아요! 다음에 또 올게요 😊"
        : i === 2
          ? "東京から来ました。とても美味しかったです。また来たいです。"
          : `음식이 맛있고 직원분들이 친절해요. ${i}번째 방문 후기입니다.`,
    media:
      i === 0
        ? [
            { type: "image", thumbnail: "https://pup-review-phinf.pstatic.net/MjAyNjExMjRf/photo1.jpeg" },
            { type: "video", thumbnail: "https://pup-review-phinf.pstatic.net/MjAyNjExMjRf/video1.jpeg" },
          ]
        : [],
    visited: printed(visited, i >= 5),
    created: printed(created, i >= 5),
    reply: i === 0 ? { body: "방문해 주셔서 감사합니다!", created: "2026-11-25T02:10:00+09:00" } : null,
    language: i === 2 ? "ja" : "ko",
  };
}

export const REVIEWS: NaverFixtureReview[] = Array.from({ length: 23 }, (_, i) => review(i));

const json = (data: unknown, status = 200, headers: Record<string, string> = {}): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(data),
});
const html = (body: string, status = 200, headers: Record<string, string> = {}): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8", ...headers },
  body,
});
const CAPTCHA_PAGE = html(
  `<!DOCTYPE html><html><head><title>네이버</title></head><body><div id="WtmCaptcha">자동입력 방지를 위해 아래 문자를 입력해 주세요.</div></body></html>`,
);

function placePage(id: string): FixtureResponse {
  if (id === NO_STATE)
    return html(`<!DOCTYPE html><html lang="ko"><body><div id="app-root"></div></body></html>`, 200, {
      "Set-Cookie": `${SESSION}; Domain=naver.com; Path=/`,
    });
  if (!(id in TYPES)) return html("<html><title>페이지를 찾을 수 없습니다</title></html>", 404);
  const type = TYPES[id];
  const state = {
    "Panorama:3kI12": { __typename: "Panorama", id: "3kI12" },
    [`PlaceDetailBase:${id}`]: {
      __typename: "PlaceDetailBase",
      id,
      name: "라이브볼",
      reviewSettings: { __typename: "ReviewSettings", showVisitorReviewScore: true },
      visitorReviewsTotal: id === PLACE ? REVIEWS.length : 0,
      ...(type ? { missingInfo: { __typename: "MissingInfo", businessType: type, isBoss: false } } : {}),
    },
    ROOT_QUERY: { __typename: "Query" },
  };
  return html(
    `<!DOCTYPE html><html lang="ko"><head><title>라이브볼 : 네이버</title>` +
      `<script>var naver={};naver.place={ncaptcha:{hostname:"https://ncpt.naver.com"}};</script></head><body>` +
      `<div id="app-root"></div><script>window.__APOLLO_STATE__ = ${JSON.stringify(state)};\nwindow.__PLACE_STATE__ = {};</script></body></html>`,
    200,
    { "Set-Cookie": `${SESSION}; Domain=naver.com; Path=/` },
  );
}

interface Operation {
  operationName?: string;
  variables?: {
    input?: { businessId?: string; businessType?: string; size?: number; after?: string; sort?: string };
    id?: string;
    businessType?: string;
  };
}

function graphql(body: string, headers: Record<string, string>): FixtureResponse {
  let batch: Operation[];
  try {
    batch = JSON.parse(body) as Operation[];
  } catch {
    return json({ errors: [{ message: "bad request" }] }, 400);
  }
  if (!Array.isArray(batch) || batch.length === 0) return json({ errors: [{ message: "bad request" }] }, 400);
  const input = batch[0].variables?.input ?? {};
  const id = input.businessId ?? "";
  const type = input.businessType ?? "";
  const expected = btoa(JSON.stringify({ arg: id, type, source: "place" })).replace(/=+$/, "");
  // The session cookie is carried (the e2e test checks it) but not required: no client shows that
  // Naver refuses a call without it, and the browser route keeps its own cookies.
  if (headers["x-wtm-graphql"] !== expected || id === CAPTCHA) return CAPTCHA_PAGE;
  if (id === TOKEN)
    return json([{ errors: [{ message: "Ncaptcha token required (x-wtm-ncaptcha-token)" }], data: null }]);
  if ((TYPES[id] ?? "place") !== type)
    return json([{ errors: [{ message: `businessType ${type} does not match` }], data: null }]);
  const all = id === PLACE ? REVIEWS : [];
  const ordered = input.sort === "RECENT" ? all : [...all].sort((a, b) => (a.body < b.body ? -1 : 1));
  const from = input.after ? ordered.findIndex((r) => r.cursor === input.after) + 1 : 0;
  const size = Math.min(Math.max(input.size ?? 10, 1), 50);
  return json(
    batch.map((op) =>
      op.operationName === "getVisitorReviews"
        ? { data: { visitorReviews: { items: ordered.slice(from, from + size), total: all.length } } }
        : op.operationName === "getVisitorReviewStats"
          ? {
              data: {
                visitorReviewStats: {
                  id,
                  review: { avgRating: all.length ? 4.42 : 0, totalCount: all.length },
                },
              },
            }
          : { errors: [{ message: `unknown operation ${op.operationName}` }], data: null },
    ),
  );
}

const fixture: PublisherFixture = {
  domains: ["naver.com"],
  site: ({ url, method, host, headers, body }) => {
    if (url.pathname === "/graphql" && host.startsWith("pcmap-api.")) {
      return method === "POST" ? graphql(body, headers) : json({ errors: [] }, 405);
    }
    const page = /^\/place\/(\d+)\/home$/.exec(url.pathname);
    if (page && method === "GET") return placePage(page[1]);
    return html("<html></html>", 404);
  },
};

export default fixture;
