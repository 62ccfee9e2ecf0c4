/**
 * Fixture of google.com (www.google.com, maps.google.com, consent.google.com, accounts.google.com)
 * and goo.gl (maps.app.goo.gl short links), as the Google Maps adapter reaches them.
 *
 * Structures copied (never the code) from public sources:
 * - listugcposts request and answer: gosom/google-maps-scraper gmaps/reviews.go (the `pb=` descriptor
 *   `!1m6!1s<feature id>…!2m2!1i<page size>!2s<token>!5m2!1s<session id>!7e81…!13m1!1e<sort>`,
 *   the `)]}'` line, next token at [1], entries at [2]), gmaps/entry.go parseReviews and
 *   gmaps/testdata/review_*.json (the review record); HazelnutParadise/insyra datafetch (Google Maps
 *   store reviews: sort codes 1 relevance, 2 newest, 3 highest, 4 lowest; token at [1], reviews at [2]).
 * - Place page: gosom/google-maps-scraper gmaps/place.go (the place travels as a `)]}'`-guarded JSON
 *   string at window.APP_INITIALIZATION_STATE[3][k][6], record at its [6]) and gmaps/entry.go
 *   EntryFromJSON (record fields [4][7]/[4][8] rating and count, [10] feature id, [11] name,
 *   [18] address, [78] place id, [183][1] address parts).
 * - Maps search: HazelnutParadise/insyra datafetch (`/search?tbm=map&q=…&pb=!7i20!10b1!34m19…`,
 *   results at [64], each with its place record at [1]).
 * - Short links and cid links redirect to the place (maps.app.goo.gl → www.google.com/maps/place/…;
 *   maps.google.com/?cid= → www.google.com/maps?cid=); Google's consent wall redirects to
 *   consent.google.com ("Before you continue to Google"), its captcha lives under /sorry/index.
 *
 * - The Search review window (GetLocalBoqProxy): HazelnutParadise/insyra datafetch/googleMapsCommentCrawler.go
 *   (2026-09, issue 249: the reqpld layout args[1] sort, args[9] page size, args[11] [feature id],
 *   args[16], args[19] token, args[23]; the answer's block at [1][10], records at [1][10][2], token at
 *   [1][10][6]; per record [1] rating, [2] [relative, _, epoch ms], [3] [name, avatar, contributions
 *   URL, review count, photo count], [5] id, [26] language, [27] text with <br> and entities) and
 *   YasogaN/google-maps-review-scraper (tests/helpers/boq.ts: the owner's reply at [4] as
 *   [_, relative date, text, …]; docs: sort codes, the page token at [1][10][6]). No real answer
 *   of this route was found in public code: see ./README.md.
 * - Signed out in 2026, listugcposts answers 403 (insyra issue 249); with login cookies it serves
 *   (YasogaN issue 26, 2026-02: the __Secure-1PSID cookies lift the limited view).
 * - A place page's inline reviews at [175][9][0][0] of its record (gosom gmaps/entry.go), listugcposts
 *   entries; the limited-view place carries the three real captures of ./captures among them.
 *
 * Not verified against the live site (no network here): the exact index of the place slot in
 * APP_INITIALIZATION_STATE[3] (the adapter scans every slot, as gosom does), the full filler of the
 * positional arrays (only the fields above are placed; the rest is null), whether the search answer
 * carries [183] address parts for every result, and what listugcposts answers for a place with no
 * reviews (here: no list at [2], no token).
 */
import type { FixtureRequest, FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import {
  BLUE_DOOR,
  COVERAGE_PLACE,
  DECOYS,
  PLACES,
  SHORT_LINKS,
  type FixturePlace,
  type FixtureReview,
} from "./data";
import withReply from "./captures/listugcposts-review_native_with_reply.json?raw";
import noText from "./captures/listugcposts-review_native_no_text.json?raw";
import noTranslation from "./captures/listugcposts-review_native_no_translation.json?raw";

/** The real captured listugcposts entries (./captures/SOURCE.md), each file a list of one entry. */
export const CAPTURED_ENTRIES: unknown[] = [withReply, noText, noTranslation].map(
  (raw) => (JSON.parse(raw) as unknown[])[0],
);

const html = (body: string, title = "Google Maps", status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=UTF-8" },
  body: `<!DOCTYPE html><html lang="en" dir="ltr"><head><meta charset="UTF-8"><title>${title}</title></head><body>${body}</body></html>`,
});

const guarded = (data: unknown): FixtureResponse => ({
  status: 200,
  headers: { "Content-Type": "application/json; charset=UTF-8" },
  body: `)]}'\n${JSON.stringify(data)}`,
});

const redirect = (location: string, status = 302): FixtureResponse => ({
  status,
  headers: { Location: location },
  body: "",
});

/** A positional array of `length` nulls with the given fields set. */
function positional(length: number, fields: Record<number, unknown>): unknown[] {
  const array: unknown[] = Array.from({ length }, () => null);
  for (const [index, value] of Object.entries(fields)) array[Number(index)] = value;
  return array;
}

const nativeCount = (p: FixturePlace) => p.reviews.filter((r) => !r.syndicatedFrom).length;

/** The place record (gosom EntryFromJSON's `darray`). */
function placeRecord(p: FixturePlace): unknown[] {
  const count = p.shownCount ?? nativeCount(p);
  const locality = `${p.city}, ${p.state} ${p.postalCode}`;
  return positional(184, {
    2: [p.street, locality],
    // No rating block at all for a place nobody reviewed.
    4: count
      ? [
          null,
          null,
          null,
          [`https://search.google.com/local/reviews?placeid=${p.placeId}`, `${count} reviews`],
          null,
          null,
          null,
          4.4,
          count,
        ]
      : null,
    9: [null, null, 37.7936, -122.3958],
    10: p.featureId,
    11: p.name,
    13: ["Cafe"],
    18: `${p.name}, ${p.street}, ${locality}`,
    78: p.placeId,
    175: [null, null, null, null, null, null, null, null, null, [[inlineReviews(p)]]],
    183: [
      null,
      [null, p.street, null, p.city, p.postalCode, p.state, "US"],
      null,
      [null, null, null, null, null, null, null, p.street],
    ],
  });
}

/**
 * The reviews a signed-out place page shows: five, most relevant first (the limited-view place: the
 * three real captures, then its own).
 */
function inlineReviews(p: FixturePlace): unknown[] {
  const own = sorted(p.reviews, 1).map((r, i) => reviewEntry(r, p, i));
  return (p.behaviour === "limited" ? [...CAPTURED_ENTRIES, ...own] : own).slice(0, 5);
}

/** A Maps page: APP_INITIALIZATION_STATE with the place's guarded JSON at [3][1][6], or the bare map. */
function placePage(p: FixturePlace | null): FixtureResponse {
  const slots: unknown[] = [
    positional(7, { 2: ')]}\'\n[null,["en","US"]]' }),
    positional(
      7,
      p ? { 6: `)]}'\n${JSON.stringify(positional(7, { 0: [p.name], 6: placeRecord(p) }))}` } : {},
    ),
  ];
  const state = [
    [[3000, -122.3958, 37.7936], [0, 0, 0], [1024, 768], 13.1],
    null,
    [null, "en"],
    slots,
    null,
    null,
  ];
  // The page embeds the state in a script the way Maps does: JSON, with "<" escaped.
  const script = `window.APP_OPTIONS=[null,"en"];window.APP_INITIALIZATION_STATE=${JSON.stringify(state).replace(/</g, "\\u003c")};window.APP_FLAGS=[1,0];`;
  return html(
    `<div id="app"></div><script nonce="fixture">${script}</script>`,
    p ? `${p.name} - Google Maps` : "Google Maps",
  );
}

const text = (t: string) => [t, null, [0, t.length]];

/** One listugcposts entry, shaped like gosom's gmaps/testdata/review_*.json. */
function reviewEntry(r: FixtureReview, p: FixturePlace, index: number): unknown[] {
  const author = [
    r.author,
    "https://lh3.googleusercontent.com/a/photo=s120-c-rp-mo-br100",
    [`https://www.google.com/maps/contrib/${r.authorId}?hl=en`],
    r.authorId,
    null,
    r.reviewerReviews ?? 1,
    0,
    null,
    [r.localGuide ? 1 : 0, r.reviewerReviews ?? 1, 1],
    0,
    [`${r.localGuide ? "Local Guide · " : ""}${r.reviewerReviews ?? 1} reviews`],
  ];
  const meta = positional(18, {
    0: `0x0:${p.featureId.split(":")[1]}`,
    2: r.postedMicros,
    3: r.postedMicros + 1_000_000,
    4: [null, null, [`https://www.google.com/maps/contrib/${r.authorId}/reviews?hl=en`], null, null, author],
    6: "2 months ago",
    13: r.syndicatedFrom
      ? [r.syndicatedFrom, "https://www.tripadvisor.com/favicon.ico", null, null, 10]
      : ["Google", "https://www.gstatic.com/images/branding/product/1x/googleg_48dp.png", null, null, 5],
    15: 1,
    17: 0.99,
  });
  const language = r.language
    ? r.translation
      ? [r.language, "en", r.language, "English", 1]
      : [r.language]
    : null;
  const content = r.syndicatedFrom
    ? positional(16, { 8: [null, r.rating * 2], 14: language, 15: r.text ? [text(r.text)] : null })
    : positional(16, {
        0: [r.rating],
        14: language,
        15: r.text ? [text(r.text), ...(r.translation ? [text(r.translation)] : [])] : null,
      });
  const manage = `https://business.google.com/local/business/4798856530163220559/customers/reviews/reply?p=${r.id}`;
  const reply = r.reply
    ? positional(15, {
        1: r.reply.postedMicros,
        2: r.reply.postedMicros,
        3: "a month ago",
        5: manage,
        13: r.reply.language
          ? r.reply.translation
            ? [r.reply.language, "en", r.reply.language, "English", 1]
            : [r.reply.language]
          : null,
        14: [text(r.reply.text), ...(r.reply.translation ? [text(r.reply.translation)] : [])],
      })
    : positional(12, { 5: manage });
  const links = [
    null,
    null,
    57,
    [
      `https://www.google.com/maps/reviews/data=!4m8!14m7!1m6!2m5!1s${r.id}!2m1!1s0x0:${p.featureId.split(":")[1]}`,
    ],
    [`https://www.google.com/local/content/rap/report?postId=${r.id}`],
  ];
  return [
    [r.id, meta, content, reply, links, "0ahUKEwj4wK6t6rmUAxULEWMBHV2BLVoQ0pMFCAgoAg"],
    null,
    `CAQSRENqRUlBUklwQ2dvQVA3X2FB:${index}`,
  ];
}

/** Page tokens carry the offset (base64), as opaque to the adapter as Google's. */
const tokenFor = (offset: number) => `CAESY0NBRVFBQ${btoa(`offset=${offset}`)}`;
function offsetOf(token: string): number | null {
  if (!token) return 0;
  if (!token.startsWith("CAESY0NBRVFBQ")) return null;
  let decoded: string;
  try {
    decoded = atob(token.slice(13));
  } catch {
    return null;
  }
  const match = /^offset=(\d+)$/.exec(decoded);
  return match ? Number(match[1]) : null;
}

/**
 * Newest first for sort 2, highest rating first for 3, lowest for 4; any other sort ("most
 * relevant", the page's default) puts the longest texts first.
 */
function sorted(reviews: FixtureReview[], sort: number): FixtureReview[] {
  if (sort === 2) return [...reviews].sort((a, b) => b.postedMicros - a.postedMicros);
  if (sort === 3 || sort === 4) {
    const sign = sort === 3 ? 1 : -1;
    return [...reviews].sort((a, b) => sign * (b.rating - a.rating) || b.postedMicros - a.postedMicros);
  }
  return [...reviews].sort(
    (a, b) => (b.text?.length ?? 0) - (a.text?.length ?? 0) || a.id.localeCompare(b.id),
  );
}

/** Google's 403 page (no login form: the client calls it blocked). */
const FORBIDDEN: FixtureResponse = {
  status: 403,
  headers: { "Content-Type": "text/html; charset=UTF-8" },
  body: "<!DOCTYPE html><html lang=en><title>Error 403 (Forbidden)!!1</title><p><b>403.</b> <ins>That’s an error.</ins><p>Your client does not have permission to get URL from this server.",
};

function listUgcPosts(url: URL, cookie: string): FixtureResponse {
  const pb = url.searchParams.get("pb") ?? "";
  const featureId = /^!1m6!1s(0x[0-9a-f]+:0x[0-9a-f]+)!/.exec(pb)?.[1];
  const paging = /!2m2!1i(\d+)!2s([^!]*)!/.exec(pb);
  const sort = Number(/!13m1!1e(\d)/.exec(pb)?.[1] ?? "1");
  const p = PLACES.find((x) => x.featureId === featureId);
  const offset = paging ? offsetOf(paging[2]) : null;
  // Google answers a request it cannot read with 400.
  if (!featureId || !paging || offset === null)
    return { status: 400, headers: { "Content-Type": "text/html" }, body: "<h1>Bad Request</h1>" };
  // 2026: signed out, listugcposts refuses every request.
  if (!cookie) return FORBIDDEN;
  if (p?.behaviour === "ugc-refuses" || (p?.behaviour === "ugc-refuses-later" && offset > 0))
    return FORBIDDEN;
  if (!p) return guarded([null, null, null]);
  if (p.behaviour === "captcha")
    return redirect(
      `https://www.google.com/sorry/index?continue=${encodeURIComponent(url.toString())}&q=EgQKAAAB`,
    );
  const size = Number(paging[1]);
  const all = sorted(p.reviews, sort);
  const page = all.slice(offset, offset + size);
  const next = offset + size < all.length ? tokenFor(offset + size) : null;
  const entries = page.map((r, i) => reviewEntry(r, p, offset + i));
  if (p.behaviour === "changed-review") {
    // A new layout: the rating is no longer a list at [2][0].
    for (const entry of entries) ((entry as unknown[][])[0][2] as unknown[])[0] = "FIVE_STARS";
  }
  if (p.behaviour === "moved-list") return guarded([null, next, null, entries]);
  return guarded(entries.length ? [null, next, entries] : [null, null]);
}

/**
 * Whether the window answers 429 to this request of a later page (`count`: how often this very
 * request came): once for a "throttled" place, always for the "throttled-hard" and "-long" ones.
 */
function throttles(p: FixturePlace | undefined, count: number): boolean {
  if (p?.behaviour === "throttled") return count === 1;
  return p?.behaviour === "throttled-hard" || p?.behaviour === "throttled-long";
}

/** Google's 429 page (the "unusual traffic" text, as its rate limit answers), with Retry-After when given. */
function tooManyRequests(retryAfter: number | null): FixtureResponse {
  return {
    status: 429,
    headers: {
      "Content-Type": "text/html; charset=UTF-8",
      ...(retryAfter === null ? {} : { "Retry-After": String(retryAfter) }),
    },
    body: "<!DOCTYPE html><html lang=en><title>429 Too Many Requests</title><p>We're sorry, but you have sent too many requests to us recently. Please try again later.</p>",
  };
}

const WINDOW_PATH = "/httpservice/web/PrivateLocalSearchUiDataService/GetLocalBoqProxy";

/** A window text: HTML, line breaks as <br>, "&", "<", ">" and quotes as entities. */
const htmlText = (t: string) =>
  t
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
    .replace(/\n/g, "<br>");

/** One record of the Search review window (insyra's parseGoogleMapsReviewPage, YasogaN's makeReview). */
function windowRecord(r: FixtureReview, index: number): unknown[] {
  const ms = Math.floor(r.postedMicros / 1000);
  return positional(30, {
    1: r.rating,
    // insyra reads the time as text, YasogaN's tests give a number: the site sends both, alternately.
    2: ["2 months ago", null, index % 2 === 0 ? ms : String(ms)],
    3: [
      r.author,
      "https://lh3.googleusercontent.com/a/photo=s40-c-rp-mo-br100",
      `https://www.google.com/maps/contrib/${r.authorId}?hl=en`,
      r.reviewerReviews ?? 1,
      r.reviewerPhotos ?? 0,
    ],
    4: r.reply
      ? [null, "a month ago", htmlText(r.reply.text), null, "English", null, null, "English", 1]
      : null,
    5: r.id,
    26: r.text ? (r.language ?? null) : null,
    27: r.text ? htmlText(r.text) : null,
  });
}

/**
 * The most reviews the window serves a request: it answers a request for 100 with 60 (lab note E13,
 * 2026-09-03; reviews-finder README, mid-2026).
 */
export const WINDOW_MAX_PAGE = 60;

/**
 * GetLocalBoqProxy: reqpld [null, [<9 nulls>, args]]; native reviews by sort, as many a page as
 * args[9] asks (at most WINDOW_MAX_PAGE; 10, the window's own size, when it names none).
 */
function reviewWindow(url: URL, count: number): FixtureResponse {
  if (url.searchParams.get("msc") !== "gwsrpc")
    return { status: 400, headers: { "Content-Type": "text/html" }, body: "<h1>Bad Request</h1>" };
  let args: unknown;
  try {
    args = (JSON.parse(url.searchParams.get("reqpld") ?? "") as unknown[][])[1][9];
  } catch {
    return { status: 400, headers: { "Content-Type": "text/html" }, body: "<h1>Bad Request</h1>" };
  }
  if (!Array.isArray(args))
    return { status: 400, headers: { "Content-Type": "text/html" }, body: "<h1>Bad Request</h1>" };
  const featureId = Array.isArray(args[11]) ? args[11][0] : undefined;
  const sort = typeof args[1] === "number" ? args[1] : 1;
  const size = Math.min(typeof args[9] === "number" && args[9] > 0 ? args[9] : 10, WINDOW_MAX_PAGE);
  const offset = offsetOf(typeof args[19] === "string" ? args[19] : "");
  if (offset === null)
    return { status: 400, headers: { "Content-Type": "text/html" }, body: "<h1>Bad Request</h1>" };
  const p = PLACES.find((x) => x.featureId === featureId);
  if (p?.behaviour === "limited") return FORBIDDEN;
  if (p?.behaviour === "hostile")
    return {
      status: 200,
      headers: { "Content-Type": "application/json" },
      body: `)]}'\n${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`,
    };
  if (p?.behaviour === "captcha")
    return redirect(
      `https://www.google.com/sorry/index?continue=${encodeURIComponent(url.toString())}&q=EgQKAAAB`,
    );
  if (offset > 0 && throttles(p, count))
    return tooManyRequests(
      p!.behaviour === "throttled-long" ? 400 : p!.behaviour === "throttled" ? 20 : null,
    );
  const all = p ? sorted(p.reviews, sort).filter((r) => !r.syndicatedFrom) : [];
  const records = all.slice(offset, offset + size).map((r, i) => windowRecord(r, offset + i));
  const next = offset + size < all.length ? tokenFor(offset + size) : null;
  // A new layout: the rating is no longer a number at [1].
  if (p?.behaviour === "changed-review") for (const record of records) record[1] = "FIVE_STARS";
  const block: unknown[] = [
    null,
    null,
    p?.behaviour === "moved-list" ? null : records,
    null,
    null,
    null,
    next,
  ];
  if (p?.behaviour === "moved-list") block[3] = records;
  return guarded([null, positional(11, { 0: "wrb.fr", 10: block })]);
}

/** The place a Maps URL names: feature id in the data segment, cid, place id, or name. */
function placeFor(url: URL): FixturePlace | null {
  const path = decodeURIComponent(url.pathname);
  const featureId = /!1s(0x[0-9a-f]+:0x[0-9a-f]+)/.exec(path)?.[1];
  if (featureId) return PLACES.find((p) => p.featureId === featureId) ?? null;
  const cid = url.searchParams.get("cid");
  if (cid) return PLACES.find((p) => p.cid === cid) ?? null;
  const placeId = /^place_id:(.+)$/.exec(url.searchParams.get("q") ?? "")?.[1];
  if (placeId) return PLACES.find((p) => p.placeId === placeId) ?? null;
  const name = /^\/maps\/place\/([^/@]+)/.exec(path)?.[1]?.replace(/\+/g, " ");
  return name ? (PLACES.find((p) => p.name === name) ?? null) : null;
}

/** 2 MB of tags that never close: a regex of the form `<tag[^>]*…` rescans the rest at each one. */
const UNCLOSED = "<script ".repeat(120_000) + '<form action="x" '.repeat(60_000);

function mapsPage(url: URL): FixtureResponse {
  const p = placeFor(url);
  if (p?.behaviour === "hostile")
    return {
      status: 200,
      headers: { "Content-Type": "text/html" },
      body: `<!DOCTYPE html><html><head><title>x</title>${UNCLOSED}`,
    };
  if (p?.behaviour === "consent")
    return redirect(
      `https://consent.google.com/m?continue=${encodeURIComponent(`https://www.google.com${url.pathname}${url.search}`)}&gl=DE&m=0&pc=m&hl=en&src=1`,
      303,
    );
  if (p?.behaviour === "sign-in")
    return redirect(
      `https://accounts.google.com/ServiceLogin?continue=${encodeURIComponent(url.toString())}`,
    );
  return placePage(p);
}

/** Maps search: results at [64], each [_, record]; a query for a business Maps does not know finds only the decoys. */
function search(url: URL): FixtureResponse {
  if (url.searchParams.get("tbm") !== "map" || !url.searchParams.get("pb")) return html("<h1>Search</h1>");
  const q = (url.searchParams.get("q") ?? "").toLowerCase();
  const results = q.includes("blue door") ? [DECOYS[0], DECOYS[1], BLUE_DOOR, DECOYS[2]] : DECOYS;
  return guarded(positional(70, { 0: [q], 64: results.map((p) => [null, placeRecord(p)]) }));
}

const CONSENT_PAGE = `<h1>Before you continue to Google</h1><p>We use cookies and data to deliver and maintain Google services.</p>
<form action="https://consent.google.com/save" method="POST"><input type="hidden" name="set_eom" value="true"><button>Reject all</button></form>
<form action="https://consent.google.com/save" method="POST"><input type="hidden" name="set_eom" value="false"><button>Accept all</button></form>`;

const SORRY_PAGE = `<div>Our systems have detected unusual traffic from your computer network. This page checks to see if it's really you sending the requests, and not a robot.</div>
<form id="captcha-form" action="index" method="post"><div class="g-recaptcha"></div><input type="hidden" name="q" value="EgQKAAAB"></form>`;

function site({ url, host, cookie, count }: FixtureRequest): FixtureResponse {
  const h = host.toLowerCase().replace(/:\d+$/, "");
  if (h === "maps.app.goo.gl") {
    const p = SHORT_LINKS[url.pathname.slice(1)];
    if (!p) return html("<h1>Dynamic Link Not Found</h1>", "Error 404 (Not Found)", 404);
    return redirect(
      `https://www.google.com/maps/place/${p.name.replace(/ /g, "+")}/@37.7936,-122.3958,17z/data=!4m6!3m5!1s${p.featureId}!8m2!3d37.7936!4d-122.3958!16s%2Fg%2F11c0000000?entry=tts&g_st=ic`,
    );
  }
  if (h === "goo.gl" || h === "www.goo.gl") {
    const code = /^\/maps\/([A-Za-z0-9_-]+)$/.exec(url.pathname)?.[1];
    return code
      ? redirect(`https://maps.app.goo.gl/${code}`, 301)
      : html("<h1>Not Found</h1>", "Not Found", 404);
  }
  if (h === "consent.google.com") return html(CONSENT_PAGE, "Before you continue to Google");
  if (h === "accounts.google.com")
    return html(
      `<form action="/signin/v2/identifier" method="post"><input type="email" name="identifier"><input type="password" name="Passwd"></form>`,
      "Sign in - Google Accounts",
    );
  if (h === "maps.google.com" && url.pathname === "/" && url.searchParams.has("cid"))
    return redirect(`https://www.google.com/maps?cid=${url.searchParams.get("cid")}`, 301);
  if (url.pathname === "/maps/rpc/listugcposts") return listUgcPosts(url, cookie);
  if (url.pathname === WINDOW_PATH) return reviewWindow(url, count);
  if (url.pathname === "/search") return search(url);
  if (url.pathname.startsWith("/sorry/")) return html(SORRY_PAGE, "https://www.google.com/sorry/index");
  if (url.pathname === "/maps" || url.pathname.startsWith("/maps/")) return mapsPage(url);
  return html("<h1>Not Found</h1>", "Error 404 (Not Found)", 404);
}

const fixture: PublisherFixture = {
  domains: ["google.com", "goo.gl"],
  site,
  // Signed in: listugcposts' first page (a Local Guide, a translated review), then the window's.
  coverageSample: {
    profileUrl: `https://www.google.com/maps/place/Coverage+Cafe/data=!4m2!3m1!1s${COVERAGE_PLACE.featureId}`,
    pages: 2,
    cookie: "__Secure-1PSID=fixture-session; __Secure-1PSIDTS=fixture-ts",
  },
};
export default fixture;
