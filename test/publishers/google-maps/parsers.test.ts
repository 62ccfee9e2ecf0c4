/** Pure parts of the Google Maps module, on the fixture site's own answers (./site.ts). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ScrapeError } from "../../../src/scraping/errors";
import type { Business } from "../../../src/http/schemas/business";
import { inspectGooglePage } from "../../../src/publishers/google-maps/adapter";
import { googleMaps } from "../../../src/publishers/google-maps";
import { chooseMatch, parseSearchResults, searchUrl } from "../../../src/publishers/google-maps/lookup";
import { inlineReviewEntries, parsePlacePage } from "../../../src/publishers/google-maps/place-record";
import {
  parseReviewsPage,
  reviewFromEntry,
  reviewsRpcUrl,
} from "../../../src/publishers/google-maps/reviews-rpc";
import {
  contributorId,
  parseWindowPage,
  windowText,
  windowUrl,
} from "../../../src/publishers/google-maps/search-window";
import { business } from "../../helpers/api";
import {
  BLUE_DOOR,
  CHANGED_REVIEW,
  DECOYS,
  EMPTY,
  MOVED_LIST,
  NO_TEXT,
  OLDEST_WITH_GERMAN_REPLY,
  TRANSLATED,
  WIDE,
  WITH_REPLY,
  nativeNewestFirst,
} from "./data";
import fixture, { CAPTURED_ENTRIES } from "./site";
import { scrapeError } from "../support";

/** What the fixture site answers for a URL (host from the URL, as X-Forwarded-Host would say). */
function answer(url: string, cookie = "") {
  const u = new URL(url);
  return fixture.site({ url: u, host: u.host, method: "GET", cookie, count: 1, headers: {}, body: "" });
}

/** The login cookie a signed-in client sends (listugcposts answers 403 without one). */
const SIGNED_IN = "session=s3cret";

/** The JSON of a `)]}'`-guarded answer. */
function guardedJson(url: string, cookie = ""): unknown {
  const { status, body } = answer(url, cookie);
  expect(status).toBe(200);
  expect(body.startsWith(")]}'\n")).toBe(true);
  return JSON.parse(body.slice(5));
}

const rpc = (token = "", featureId = BLUE_DOOR.featureId) =>
  reviewsRpcUrl({ featureId, token, requestId: "StliaIi6EPWA9u8PwLTBwA" });
/** A listugcposts answer as a signed-in client gets it. */
const rpcJson = (token = "", featureId = BLUE_DOOR.featureId) =>
  guardedJson(rpc(token, featureId), SIGNED_IN);

describe("module", () => {
  it("dates its evidence from September 2026 or later (GET /publishers shows it as evidence_date)", () => {
    expect(googleMaps.evidenceDate).toBe("2026-09-13");
    expect(googleMaps.evidenceDate! >= "2026-09").toBe(true);
  });
});

describe("listugcposts", () => {
  it("asks for 20 reviews of the feature id, newest first, from the page token", () => {
    const url = new URL(rpc("CAESY0NBRVFBQ2Zmc2V0PTIw"));
    expect(url.origin + url.pathname).toBe("https://www.google.com/maps/rpc/listugcposts");
    expect(url.searchParams.get("hl")).toBe("en");
    expect(url.searchParams.get("pb")).toBe(
      "!1m6!1s0x8085806287e4e2a1:0x9a1f3c2b4d5e6f70!6m4!4m1!1e1!4m1!1e3!2m2!1i20!2sCAESY0NBRVFBQ2Zmc2V0PTIw!5m2!1sStliaIi6EPWA9u8PwLTBwA!7e81!8m9!2b1!3b1!5b1!7b1!12m4!1b1!2b1!4m1!1e1!11m0!13m1!1e2",
    );
  });

  it("reads native reviews with exact times, original text, language and reply; skips syndicated ones", () => {
    const page = parseReviewsPage(rpcJson());
    expect(page.entries).toBe(20);
    expect(page.reviews).toHaveLength(19);
    expect(page.nextToken).toMatch(/^CAESY0NBRVFBQ/);
    expect(page.reviews.slice(0, 3)).toEqual([
      {
        id: WITH_REPLY.id,
        author_name: "Dana K.",
        author_id: "116111130377271376564",
        author_url: "https://www.google.com/maps/contrib/116111130377271376564?hl=en",
        rating: { value: 5, best: 5, worst: 1 },
        text: "Best flat white in town.\nThe barista remembered my order.",
        url: `https://www.google.com/maps/reviews/data=!4m8!14m7!1m6!2m5!1s${WITH_REPLY.id}!2m1!1s0x0:0x9a1f3c2b4d5e6f70`,
        date: "2026-10-01T09:30:00.123Z",
        language: "en",
        author_review_count: 27,
        author_badges: ["local_guide"],
        reply_text: "Thank you, Dana! See you soon.",
        reply_date: "2026-10-03T09:30:00.777Z",
      },
      {
        id: TRANSLATED.id,
        author_name: "Jürgen Weiß",
        author_id: "110617501430675678911",
        author_url: "https://www.google.com/maps/contrib/110617501430675678911?hl=en",
        rating: { value: 4, best: 5, worst: 1 },
        text: "Der Kuchen war köstlich, der Service freundlich.",
        url: `https://www.google.com/maps/reviews/data=!4m8!14m7!1m6!2m5!1s${TRANSLATED.id}!2m1!1s0x0:0x9a1f3c2b4d5e6f70`,
        date: "2026-09-30T09:29:59.623Z",
        language: "de",
        author_review_count: 1,
        // [2][15][1][0] and [2][14][1]: Google's translation into hl=en, kept apart from the text.
        translated_text: "The cake was delicious, the service friendly.",
        translated_language: "en",
      },
      {
        id: NO_TEXT.id,
        author_name: "Lysann L.",
        author_id: "118210304700470843945",
        author_url: "https://www.google.com/maps/contrib/118210304700470843945?hl=en",
        rating: { value: 3, best: 5, worst: 1 },
        text: "",
        url: `https://www.google.com/maps/reviews/data=!4m8!14m7!1m6!2m5!1s${NO_TEXT.id}!2m1!1s0x0:0x9a1f3c2b4d5e6f70`,
        date: "2026-09-29T09:30:00.122Z",
        author_review_count: 1,
      },
    ]);
    expect(page.reviews.map((r) => r.id)).not.toContain("AGG_REVIEW_ID_001");
  });

  it("keeps the original of a translated reply, and the last page has no token", () => {
    const second = parseReviewsPage(rpcJson()).nextToken!;
    const third = parseReviewsPage(rpcJson(second)).nextToken!;
    const last = parseReviewsPage(rpcJson(third));
    expect(last.nextToken).toBeNull();
    expect(last.entries).toBe(5);
    expect(last.reviews.at(-1)).toMatchObject({
      id: OLDEST_WITH_GERMAN_REPLY.id,
      reply_text: "Das tut uns leid, wir arbeiten daran.",
      reply_date: "2026-03-25T09:30:00.123Z",
    });
  });

  it("names what is missing when the answer's layout changed", () => {
    expect(scrapeError(() => parseReviewsPage({ reviews: [] })).message).toBe(
      "listugcposts: the answer is not a list",
    );
    expect(scrapeError(() => parseReviewsPage([null, null, "reviews"])).message).toBe(
      "listugcposts: the review list at [2] is not a list",
    );
    expect(scrapeError(() => parseReviewsPage([null, null, [["not a record"]]])).message).toBe(
      "listugcposts: entry 0 has no review record at [2][0][0]",
    );
    const changed = scrapeError(() => parseReviewsPage(rpcJson("", CHANGED_REVIEW.featureId)));
    expect(changed).toMatchObject({
      reason: "publisher_error",
      transient: false,
      message: "listugcposts: review 0 has no rating at [2][0][0][2][0][0]",
    });
  });

  it("reads an answer without a list as no reviews (the adapter then checks the place's count)", () => {
    expect(parseReviewsPage(rpcJson("", EMPTY.featureId))).toEqual({
      reviews: [],
      entries: 0,
      nextToken: null,
    });
    expect(parseReviewsPage(rpcJson("", MOVED_LIST.featureId))).toEqual({
      reviews: [],
      entries: 0,
      nextToken: null,
    });
  });
});

describe("place page", () => {
  it("reads the place record from APP_INITIALIZATION_STATE", () => {
    const page = parsePlacePage(answer(`https://www.google.com/maps?cid=${BLUE_DOOR.cid}`).body);
    expect(page).toEqual({
      found: true,
      record: expect.any(Array),
      place: {
        featureId: BLUE_DOOR.featureId,
        name: "Blue Door Cafe",
        placeId: BLUE_DOOR.placeId,
        reviewCount: 44,
        // [4][7]: the average the place shows (business.publisher_summary.rating).
        rating: 4.4,
        street: "1 Market St",
        postalCode: "94105",
        addressText:
          "1 Market St, San Francisco, CA 94105, Blue Door Cafe, 1 Market St, San Francisco, CA 94105, 1 Market St, San Francisco, 94105, CA, US",
      },
    });
  });

  it("keeps the record, whose inline reviews (at most five signed out) sit at [175][9][0][0]", () => {
    const page = parsePlacePage(answer(`https://www.google.com/maps?cid=${BLUE_DOOR.cid}`).body);
    const entries = page.found ? inlineReviewEntries(page.record) : [];
    expect(entries).toHaveLength(5);
    expect(entries.map((e, i) => reviewFromEntry(e, i)?.id)).toContain(WITH_REPLY.id);
    expect(inlineReviewEntries(null)).toEqual([]);
  });

  it("counts 0 reviews for a place without a rating block", () => {
    expect(
      parsePlacePage(answer(`https://www.google.com/maps/place/?q=place_id:${EMPTY.placeId}`).body),
    ).toMatchObject({
      found: true,
      place: { reviewCount: 0 },
    });
  });

  it("tells the bare map (no place) from a page that is not a Maps page", () => {
    expect(parsePlacePage(answer("https://www.google.com/maps?cid=42").body)).toEqual({ found: false });
    expect(scrapeError(() => parsePlacePage("<html><body>Maps</body></html>"))).toMatchObject({
      reason: "publisher_error",
      message: "Maps place page: no window.APP_INITIALIZATION_STATE array",
    });
  });
});

describe("lookup", () => {
  const at = (street: string, zip: string, name = "Blue Door Cafe"): Business => ({
    ...business(),
    name,
    address: { ...business().address, street, zip },
  });
  const results = (b: Business) => parseSearchResults(guardedJson(searchUrl(b)));

  it("searches Maps for name, street and postal code", () => {
    const url = new URL(searchUrl(business()));
    expect(url.pathname).toBe("/search");
    expect(url.searchParams.get("tbm")).toBe("map");
    expect(url.searchParams.get("q")).toBe("Blue Door Cafe, 1 Market St, 94105 San Francisco");
  });

  it("chooses the result with the same name, street and postal code among decoys", () => {
    const places = results(business());
    expect(places.map((p) => p.name)).toEqual([
      "Blue Door Cafe",
      "Blue Door Bakery",
      "Blue Door Cafe",
      "Red Door Cafe",
    ]);
    expect(chooseMatch(business(), places)?.place.featureId).toBe(BLUE_DOOR.featureId);
    // Written differently: accents, case, punctuation and "Street" for "St".
    expect(chooseMatch(at("1 MARKET STREET", "94105-1234", "Blue Door Café"), places)?.place.featureId).toBe(
      BLUE_DOOR.featureId,
    );
  });

  it("finds nothing when the postal code contradicts the street, or only look-alike names share the address", () => {
    // The Castro St branch has the street but another postal code.
    expect(chooseMatch(at("500 Castro St", "94103"), results(business()))).toBeNull();
    expect(chooseMatch(at("500 Castro St", "94114"), results(business()))?.place.featureId).toBe(
      DECOYS[0].featureId,
    );
    // Without the place itself: "Blue Door Bakery" and "Red Door Cafe" share its address, not its name.
    const neighbours = results(business()).filter(
      (p) => p.featureId !== BLUE_DOOR.featureId && p.postalCode === "94105",
    );
    expect(neighbours.map((p) => p.name)).toEqual(["Blue Door Bakery", "Red Door Cafe"]);
    expect(chooseMatch(business(), neighbours)).toBeNull();
  });

  it("refuses a search answer whose results have no place record", () => {
    expect(
      scrapeError(() => parseSearchResults([...Array(64).fill(null), [[null, ["no record"]]]])).message,
    ).toBe("Maps search: none of 1 results has a place record with a feature id at [1][10]");
  });
});

describe("page inspector", () => {
  const page = (url: string) => {
    const { body, headers } = answer(url);
    return { url: new URL(url), status: 200, headers: new Headers(headers), text: body, rendered: false };
  };

  it("calls consent, captcha and sign-in pages what they are", () => {
    expect(inspectGooglePage(page("https://consent.google.com/m?continue=x"))).toMatchObject({
      reason: "blocked",
      transient: false,
    });
    expect(
      inspectGooglePage({
        ...page("https://consent.google.com/m?continue=x"),
        url: new URL("https://www.google.com/maps/place/x"),
      }),
    ).toMatchObject({
      reason: "blocked",
      transient: false,
    });
    expect(inspectGooglePage(page("https://www.google.com/sorry/index?continue=x"))).toMatchObject({
      reason: "blocked",
      transient: true,
    });
    expect(
      inspectGooglePage({
        ...page("https://www.google.com/sorry/index"),
        url: new URL("https://www.google.com/maps/rpc/listugcposts"),
      }),
    ).toMatchObject({
      reason: "blocked",
      transient: true,
    });
    expect(inspectGooglePage(page("https://accounts.google.com/ServiceLogin"))).toMatchObject({
      reason: "login_required",
    });
  });

  it("lets place pages and RPC answers through, whatever their reviews say", () => {
    expect(inspectGooglePage(page(`https://www.google.com/maps?cid=${BLUE_DOOR.cid}`))).toBeNull();
    const rpcPage = page(windowUrl(BLUE_DOOR.featureId, ""));
    expect(
      inspectGooglePage({
        ...rpcPage,
        text: rpcPage.text.replace(
          "good coffee",
          "Before you continue: detected unusual traffic from your computer network",
        ),
      }),
    ).toBeNull();
  });
});

describe("Search review window (GetLocalBoqProxy)", () => {
  const windowJson = (token = "", featureId = BLUE_DOOR.featureId) =>
    guardedJson(windowUrl(featureId, token));

  it("asks for 60 reviews (the most the window serves) of the feature id, newest first, from the page token", () => {
    const url = new URL(windowUrl(BLUE_DOOR.featureId, "CAESY0NBRVFBQ2Zmc2V0PTEw"));
    expect(url.origin + url.pathname).toBe(
      "https://www.google.com/httpservice/web/PrivateLocalSearchUiDataService/GetLocalBoqProxy",
    );
    expect([...url.searchParams.keys()]).toEqual(["hl", "reqpld", "msc", "opi"]);
    expect(url.searchParams.get("msc")).toBe("gwsrpc");
    expect(url.searchParams.get("opi")).toBe("89978449");
    const args = Array(24).fill(null);
    Object.assign(args, {
      1: 2,
      9: 60,
      11: [BLUE_DOOR.featureId],
      16: [1, 1, null, [[3], [4], [5], [6], [7]]],
      19: "CAESY0NBRVFBQ2Zmc2V0PTEw",
      23: 0,
    });
    expect(JSON.parse(url.searchParams.get("reqpld")!)).toEqual([null, [...Array(9).fill(null), args]]);
  });

  it("reads rating, exact time, reviewer with counts, id, language, text (line breaks, entities) and reply", () => {
    const page = parseWindowPage(windowJson());
    // All 44 of the place in one answer of at most 60: no next page.
    expect(page.records).toBe(44);
    expect(page.nextToken).toBeNull();
    expect(page.reviews.slice(0, 3)).toEqual([
      {
        id: WITH_REPLY.id,
        author_name: "Dana K.",
        author_id: "116111130377271376564",
        author_url: "https://www.google.com/maps/contrib/116111130377271376564?hl=en",
        rating: { value: 5, best: 5, worst: 1 },
        text: "Best flat white in town.\nThe barista remembered my order.",
        date: "2026-10-01T09:30:00.123Z",
        language: "en",
        author_review_count: 27,
        author_photo_count: 4,
        reply_text: "Thank you, Dana! See you soon.",
        reply_date: "a month ago",
      },
      {
        id: TRANSLATED.id,
        author_name: "Jürgen Weiß",
        author_id: "110617501430675678911",
        author_url: "https://www.google.com/maps/contrib/110617501430675678911?hl=en",
        rating: { value: 4, best: 5, worst: 1 },
        text: "Der Kuchen war köstlich, der Service freundlich.",
        // This record's time is a string of digits; the one before is a number.
        date: "2026-09-30T09:29:59.623Z",
        language: "de",
        author_review_count: 1,
        author_photo_count: 0,
      },
      {
        id: NO_TEXT.id,
        author_name: "Lysann L.",
        author_id: "118210304700470843945",
        author_url: "https://www.google.com/maps/contrib/118210304700470843945?hl=en",
        rating: { value: 3, best: 5, worst: 1 },
        text: "",
        date: "2026-09-29T09:30:00.122Z",
        author_review_count: 1,
        author_photo_count: 0,
      },
    ]);
    // Filler texts carry an apostrophe, sent as "&#39;".
    expect(page.reviews[3].text).toBe("Visit 1: good coffee, the team's friendly.");
    // The window shows Google's own reviews only.
    expect(page.reviews.map((r) => r.id)).not.toContain("AGG_REVIEW_ID_001");
  });

  it("pages by token to the last page, which has none", () => {
    const tokens: (string | null)[] = [];
    let token = "";
    const ids: string[] = [];
    for (;;) {
      const page = parseWindowPage(windowJson(token, WIDE.featureId));
      ids.push(...page.reviews.map((r) => r.id!));
      tokens.push(page.nextToken);
      if (!page.nextToken) break;
      token = page.nextToken;
    }
    // 150 reviews in pages of 60, 60 and 30.
    expect(tokens).toHaveLength(3);
    expect(ids).toEqual(nativeNewestFirst(WIDE).map((r) => r.id));
  });

  it("names what is missing when the answer's layout changed", () => {
    expect(scrapeError(() => parseWindowPage({})).message).toBe(
      "GetLocalBoqProxy: the answer has no review block at [1][10]",
    );
    expect(
      scrapeError(() => parseWindowPage([null, [...Array(10).fill(null), [null, null, "x"]]])).message,
    ).toBe("GetLocalBoqProxy: the records at [1][10][2] are not a list");
    expect(
      scrapeError(() =>
        parseWindowPage([null, [...Array(10).fill(null), [null, null, [], null, null, null, 7]]]),
      ).message,
    ).toBe("GetLocalBoqProxy: the next page token at [1][10][6] is not a string");
    expect(scrapeError(() => parseWindowPage(windowJson("", CHANGED_REVIEW.featureId)))).toMatchObject({
      reason: "publisher_error",
      message: "GetLocalBoqProxy: record 0 has no rating 1–5 at [1]",
    });
    expect(parseWindowPage(windowJson("", MOVED_LIST.featureId))).toEqual({
      reviews: [],
      records: 0,
      nextToken: null,
    });
  });

  it("decodes texts and contributor ids without patterns over the text", () => {
    expect(windowText("a<br>b &amp; c &lt;br&gt; &#233;&#x1F600; &bogus; & ;")).toBe(
      "a\nb & c <br> é😀 &bogus; & ;",
    );
    expect(windowText("&#0; &#xD800; &#1114112; &amp")).toBe("&#0; &#xD800; &#1114112; &amp");
    expect(contributorId("https://www.google.com/maps/contrib/116111130377271376564/reviews?hl=en")).toBe(
      "116111130377271376564",
    );
    expect(contributorId("https://www.google.com/maps/contrib/?hl=en")).toBeUndefined();
    expect(contributorId(undefined)).toBeUndefined();
  });
});

describe("real captured listugcposts entries (captures/SOURCE.md)", () => {
  it("reads the fields of each capture, read by hand from the files", () => {
    const [withReply, noText, noTranslation] = CAPTURED_ENTRIES.map((entry, i) => reviewFromEntry(entry, i));
    expect(withReply).toMatchObject({
      id: "Ci9DQUlRQUNvZENodHljRjlvT2xGMmRraFdhSFowWW0xWVNURTBObEptU3pWWVgxRRAB",
      author_name: "E. Ö.",
      author_id: "116111130377271376564",
      author_url: "https://www.google.com/maps/contrib/116111130377271376564?hl=en",
      rating: { value: 1, best: 5, worst: 1 },
      url: "https://www.google.com/maps/reviews/data=!4m8!14m7!1m6!2m5!1sCi9DQUlRQUNvZENodHljRjlvT2xGMmRraFdhSFowWW0xWVNURTBObEptU3pWWVgxRRAB!2m1!1s0x0:0xa73f342ed9222e57!3m1!1s2@1:CAIQACodChtycF9oOlF2dkhWaHZ0Ym1YSTE0NlJmSzVYX1E%7C%7C?hl=en",
      date: "2026-02-27T10:02:02.193Z",
      language: "de",
      author_review_count: 2,
      reply_date: "2026-02-28T08:22:27.000Z",
    });
    expect(
      withReply!.text!.startsWith(
        "Ich bin sehr enttäuscht vom Verhalten der Rezeption in dieser Praxis.\nIch hatte seit über 10 Tagen",
      ),
    ).toBe(true);
    expect(
      withReply!.text!.endsWith("Ich habe mich nicht ernst genommen und sehr allein gelassen gefühlt."),
    ).toBe(true);
    expect(withReply!.reply_text!.startsWith("Es tut uns sehr leid, dass Sie sich")).toBe(true);
    expect(withReply!.reply_text!.endsWith("Ihr Praxisteam")).toBe(true);
    expect(noText).toEqual({
      id: "Ci9DQUlRQUNvZENodHljRjlvT21jMmJ6UnpkemN6Y0dscE9YRndaUzFuVVhCSVprRRAB",
      author_name: "Lysann Lieblang",
      author_id: "118210304700470843945",
      author_url: "https://www.google.com/maps/contrib/118210304700470843945?hl=en",
      rating: { value: 5, best: 5, worst: 1 },
      text: "",
      url: "https://www.google.com/maps/reviews/data=!4m8!14m7!1m6!2m5!1sCi9DQUlRQUNvZENodHljRjlvT21jMmJ6UnpkemN6Y0dscE9YRndaUzFuVVhCSVprRRAB!2m1!1s0x0:0x4fe4cdec96e220c1!3m1!1s2@1:CAIQACodChtycF9oOmc2bzRzdzczcGlpOXFwZS1nUXBIZkE%7C%7C?hl=en",
      date: "2026-02-12T14:27:56.231Z",
      author_review_count: 6,
    });
    expect(noTranslation).toMatchObject({
      id: "ChZDSUhNMG9nS0VJQ0FnSUNZemVhOFpREAE",
      author_name: "Olena Kuzhel",
      author_id: "110617501430675678911",
      rating: { value: 5, best: 5, worst: 1 },
      date: "2019-04-17T09:54:51.197Z",
      language: "en",
      author_review_count: 46,
      // Labelled "Local Guide · 46 reviews": the badge, without a level (the label names none).
      author_badges: ["local_guide"],
    });
    // The other two are labelled "2 reviews" and "6 reviews": no badge.
    expect(withReply).not.toHaveProperty("author_badges");
    expect(noTranslation!.text!.startsWith("I had been recently in gynecologist Tatjana Mahnhardt")).toBe(
      true,
    );
    expect(noTranslation).not.toHaveProperty("reply_text");
  });
});

describe("hostile answers", () => {
  /** Every parser either returns or fails with publisher_error: never a TypeError or RangeError. */
  function returnsOrPublisherError(fn: () => unknown): void {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(ScrapeError);
      expect((err as ScrapeError).reason).toBe("publisher_error");
    }
  }

  const deep = (depth: number): unknown => {
    let value: unknown = "leaf";
    for (let i = 0; i < depth; i++) value = [value, value];
    return value;
  };

  it("random JSON, deep nesting, shared fans and __proto__ keys end in a result or publisher_error", () => {
    const block = (records: unknown) => [
      null,
      [...Array(10).fill(null), [null, null, records, null, null, null, null]],
    ];
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        returnsOrPublisherError(() => parseWindowPage(value));
        returnsOrPublisherError(() => parseWindowPage(block(value)));
        returnsOrPublisherError(() => parseWindowPage(block([value])));
        returnsOrPublisherError(() => parseReviewsPage(value));
        returnsOrPublisherError(() => parseReviewsPage([null, null, [value]]));
        returnsOrPublisherError(() => parseReviewsPage([null, null, [[value]]]));
      }),
      { numRuns: 300 },
    );
    // 2^40 paths through 40 shared levels: reading goes by index paths, never walks the value.
    returnsOrPublisherError(() => parseWindowPage(block([deep(40)])));
    returnsOrPublisherError(() => parseReviewsPage([null, null, [[deep(40)]]]));
    const proto = JSON.parse('{"__proto__": {"polluted": true}, "1": [1]}') as unknown;
    returnsOrPublisherError(() => parseWindowPage(block([proto])));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("times past Date's range are no times (publisher_error), not a RangeError", () => {
    const record = (time: unknown) =>
      Object.assign(Array(28).fill(null), { 1: 5, 2: ["now", null, time], 3: ["A"], 5: "id" });
    for (const time of [1e300, -1, "99999999999999999", 8.64e15 + 1]) {
      expect(
        scrapeError(() => parseWindowPage([null, [...Array(10).fill(null), [null, null, [record(time)]]]]))
          .message,
      ).toBe("GetLocalBoqProxy: record 0 has no posting time at [2][2]");
    }
    const entry = [["id", [null, null, 1e300], [[5]]]];
    expect(scrapeError(() => parseReviewsPage([null, null, [entry]])).message).toBe(
      "listugcposts: review 0 has no timestamp at [2][0][0][1][2]",
    );
  });

  it("an answer with more records than any page holds fails within its work budget", () => {
    const many = Array.from({ length: 5_000 }, () => ["not a record"]);
    expect(
      scrapeError(() =>
        parseWindowPage([null, [...Array(10).fill(null), [null, null, many.map(() => null)]]]),
      ).message,
    ).toMatch(/^GetLocalBoqProxy: record 0 at \[1\]\[10\]\[2\]\[0\] is not a list$/);
    const records = Array.from({ length: 5_000 }, () =>
      Object.assign(Array(28).fill(null), { 1: 5, 2: ["now", null, 1_790_000_000_000], 3: ["A"], 5: "id" }),
    );
    expect(
      scrapeError(() => parseWindowPage([null, [...Array(10).fill(null), [null, null, records]]])).message,
    ).toBe("GetLocalBoqProxy answer: the answer needs more than 1000 steps to read");
    expect(
      parseWindowPage([null, [...Array(10).fill(null), [null, null, records.slice(0, 1_000)]]]).reviews,
    ).toHaveLength(1_000);
  });

  it("2 MB of unclosed tags: the page inspector and the place page reader finish in one pass", () => {
    const unclosed = "<form action=x ".repeat(90_000) + "<script ".repeat(90_000);
    expect(unclosed.length).toBeGreaterThan(1_900_000);
    const page = {
      url: new URL("https://www.google.com/maps/place/x"),
      status: 200,
      headers: new Headers(),
      text: unclosed,
      rendered: false,
    };
    expect(inspectGooglePage(page)).toBeNull();
    expect(scrapeError(() => parsePlacePage(unclosed))).toMatchObject({ reason: "publisher_error" });
    const opened = `window.APP_INITIALIZATION_STATE=${"[".repeat(1_000_000)}`;
    expect(scrapeError(() => parsePlacePage(opened))).toMatchObject({ reason: "publisher_error" });
  });
});
