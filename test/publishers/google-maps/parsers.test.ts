/** Pure parts of the Google Maps module, on the fixture site's own answers (./site.ts). */
import { describe, expect, it } from "vitest";
import type { Business } from "../../../src/http/schemas/business";
import { inspectGooglePage } from "../../../src/publishers/google-maps/adapter";
import { googleMaps } from "../../../src/publishers/google-maps";
import { chooseMatch, parseSearchResults, searchUrl } from "../../../src/publishers/google-maps/lookup";
import { parsePlacePage } from "../../../src/publishers/google-maps/place-record";
import { parseReviewsPage, reviewsRpcUrl } from "../../../src/publishers/google-maps/reviews-rpc";
import { business } from "../../helpers/api";
import { BLUE_DOOR, CHANGED_REVIEW, DECOYS, EMPTY, MOVED_LIST, NO_TEXT, OLDEST_WITH_GERMAN_REPLY, TRANSLATED, WITH_REPLY } from "./data";
import fixture from "./site";
import { scrapeError } from "../support";

/** What the fixture site answers for a URL (host from the URL, as X-Forwarded-Host would say). */
function answer(url: string) {
  const u = new URL(url);
  return fixture.site({ url: u, host: u.host, method: "GET", cookie: "", count: 1, headers: {}, body: "" });
}

/** The JSON of a `)]}'`-guarded answer. */
function guardedJson(url: string): unknown {
  const { status, body } = answer(url);
  expect(status).toBe(200);
  expect(body.startsWith(")]}'\n")).toBe(true);
  return JSON.parse(body.slice(5));
}

const rpc = (token = "", featureId = BLUE_DOOR.featureId) => reviewsRpcUrl({ featureId, token, requestId: "StliaIi6EPWA9u8PwLTBwA" });

describe("profile_key at submit", () => {
  const resolve = (key: string, publisher = "maps.google.com") => googleMaps.resolveProfileKey(key, publisher);

  it.each([
    "https://www.google.com/maps/place/Blue+Door+Cafe/@37.7936,-122.3958,17z/data=!4m6!3m5!1s0x8085806287e4e2a1:0x9a1f3c2b4d5e6f70!8m2!3d37.79!4d-122.39?entry=ttu",
    "https://www.google.com/maps/place/Blue+Door+Cafe/@37.7936,-122.3958,17z",
    "https://maps.google.com/?cid=11101394470543396720",
    "https://www.google.com/maps?cid=11101394470543396720",
    "https://maps.app.goo.gl/bLuEdOoRcAfE1",
    "https://goo.gl/maps/bLuEdOoRcAfE1",
    "https://www.google.com/maps/place/?q=place_id:ChIJoeLkh2KAhYARcG9eTSs8H5o",
    "https://www.google.com/maps/search/?api=1&query=Blue+Door&query_place_id=ChIJoeLkh2KAhYARcG9eTSs8H5o",
  ])("takes the place link %s as it is", (url) => {
    expect(resolve(url)).toEqual({ url: new URL(url).toString() });
    expect(resolve(url, "google.com")).toEqual({ url: new URL(url).toString() });
  });

  it("builds the Maps URL of a bare place id or feature id", () => {
    expect(resolve("ChIJoeLkh2KAhYARcG9eTSs8H5o")).toEqual({ url: "https://www.google.com/maps/place/?q=place_id:ChIJoeLkh2KAhYARcG9eTSs8H5o" });
    expect(resolve("0x8085806287E4E2A1:0x9A1F3C2B4D5E6F70")).toEqual({
      url: "https://www.google.com/maps/place/data=!4m2!3m1!1s0x8085806287e4e2a1:0x9a1f3c2b4d5e6f70",
    });
  });

  it.each([
    ["https://www.google.com/search?q=blue+door+cafe", "Enter the URL of a profile on maps.google.com."],
    ["https://www.google.com/maps/@37.79,-122.39,15z", "Enter the URL of a profile on maps.google.com."],
    ["https://maps.app.goo.gl/", "Enter the URL of a profile on maps.google.com."],
    ["https://goo.gl/abc123", "Enter the URL of a profile on maps.google.com."],
    ["https://www.yelp.com/biz/blue-door", "Enter a URL on maps.google.com or one of its subdomains."],
    ["https://www.google.de/maps/place/Blue+Door", "Enter a URL on maps.google.com or one of its subdomains."],
    ["blue-door-cafe", "Enter a valid URL."],
    ["ChIJ", "Enter a valid URL."],
    ["ftp://maps.google.com/?cid=1", "Enter a valid URL."],
  ])("refuses %s", (key, message) => {
    expect(resolve(key)).toEqual({ error: message });
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
    const page = parseReviewsPage(guardedJson(rpc()));
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
      },
    ]);
    expect(page.reviews.map((r) => r.id)).not.toContain("AGG_REVIEW_ID_001");
  });

  it("keeps the original of a translated reply, and the last page has no token", () => {
    const second = parseReviewsPage(guardedJson(rpc())).nextToken!;
    const third = parseReviewsPage(guardedJson(rpc(second))).nextToken!;
    const last = parseReviewsPage(guardedJson(rpc(third)));
    expect(last.nextToken).toBeNull();
    expect(last.entries).toBe(5);
    expect(last.reviews.at(-1)).toMatchObject({
      id: OLDEST_WITH_GERMAN_REPLY.id,
      reply_text: "Das tut uns leid, wir arbeiten daran.",
      reply_date: "2026-03-25T09:30:00.123Z",
    });
  });

  it("names what is missing when the answer's layout changed", () => {
    expect(scrapeError(() => parseReviewsPage({ reviews: [] })).message).toBe("listugcposts: the answer is not a list");
    expect(scrapeError(() => parseReviewsPage([null, null, "reviews"])).message).toBe("listugcposts: the review list at [2] is not a list");
    expect(scrapeError(() => parseReviewsPage([null, null, [["not a record"]]])).message).toBe("listugcposts: entry 0 has no review record at [2][0][0]");
    const changed = scrapeError(() => parseReviewsPage(guardedJson(rpc("", CHANGED_REVIEW.featureId))));
    expect(changed).toMatchObject({ reason: "publisher_error", transient: false, message: "listugcposts: review 0 has no rating at [2][0][0][2][0][0]" });
  });

  it("reads an answer without a list as no reviews (the adapter then checks the place's count)", () => {
    expect(parseReviewsPage(guardedJson(rpc("", EMPTY.featureId)))).toEqual({ reviews: [], entries: 0, nextToken: null });
    expect(parseReviewsPage(guardedJson(rpc("", MOVED_LIST.featureId)))).toEqual({ reviews: [], entries: 0, nextToken: null });
  });
});

describe("place page", () => {
  it("reads the place record from APP_INITIALIZATION_STATE", () => {
    const page = parsePlacePage(answer(`https://www.google.com/maps?cid=${BLUE_DOOR.cid}`).body);
    expect(page).toEqual({
      found: true,
      place: {
        featureId: BLUE_DOOR.featureId,
        name: "Blue Door Cafe",
        placeId: BLUE_DOOR.placeId,
        reviewCount: 44,
        street: "1 Market St",
        postalCode: "94105",
        addressText: "1 Market St, San Francisco, CA 94105, Blue Door Cafe, 1 Market St, San Francisco, CA 94105, 1 Market St, San Francisco, 94105, CA, US",
      },
    });
  });

  it("counts 0 reviews for a place without a rating block", () => {
    expect(parsePlacePage(answer(`https://www.google.com/maps/place/?q=place_id:${EMPTY.placeId}`).body)).toMatchObject({
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
  const at = (street: string, zip: string, name = "Blue Door Cafe"): Business => ({ ...business(), name, address: { ...business().address, street, zip } });
  const results = (b: Business) => parseSearchResults(guardedJson(searchUrl(b)));

  it("searches Maps for name, street and postal code", () => {
    const url = new URL(searchUrl(business()));
    expect(url.pathname).toBe("/search");
    expect(url.searchParams.get("tbm")).toBe("map");
    expect(url.searchParams.get("q")).toBe("Blue Door Cafe, 1 Market St, 94105 San Francisco");
  });

  it("chooses the result with the same name, street and postal code among decoys", () => {
    const places = results(business());
    expect(places.map((p) => p.name)).toEqual(["Blue Door Cafe", "Blue Door Bakery", "Blue Door Cafe", "Red Door Cafe"]);
    expect(chooseMatch(business(), places)?.place.featureId).toBe(BLUE_DOOR.featureId);
    // Written differently: accents, case, punctuation and "Street" for "St".
    expect(chooseMatch(at("1 MARKET STREET", "94105-1234", "Blue Door Café"), places)?.place.featureId).toBe(BLUE_DOOR.featureId);
  });

  it("finds nothing when the postal code contradicts the street, or only look-alike names share the address", () => {
    // The Castro St branch has the street but another postal code.
    expect(chooseMatch(at("500 Castro St", "94103"), results(business()))).toBeNull();
    expect(chooseMatch(at("500 Castro St", "94114"), results(business()))?.place.featureId).toBe(DECOYS[0].featureId);
    // Without the place itself: "Blue Door Bakery" and "Red Door Cafe" share its address, not its name.
    const neighbours = results(business()).filter((p) => p.featureId !== BLUE_DOOR.featureId && p.postalCode === "94105");
    expect(neighbours.map((p) => p.name)).toEqual(["Blue Door Bakery", "Red Door Cafe"]);
    expect(chooseMatch(business(), neighbours)).toBeNull();
  });

  it("refuses a search answer whose results have no place record", () => {
    expect(scrapeError(() => parseSearchResults([...Array(64).fill(null), [[null, ["no record"]]]])).message).toBe(
      "Maps search: none of 1 results has a place record with a feature id at [1][10]",
    );
  });
});

describe("page inspector", () => {
  const page = (url: string) => {
    const { body, headers } = answer(url);
    return { url: new URL(url), status: 200, headers: new Headers(headers), text: body, rendered: false };
  };

  it("calls consent, captcha and sign-in pages what they are", () => {
    expect(inspectGooglePage(page("https://consent.google.com/m?continue=x"))).toMatchObject({ reason: "blocked", transient: false });
    expect(inspectGooglePage({ ...page("https://consent.google.com/m?continue=x"), url: new URL("https://www.google.com/maps/place/x") })).toMatchObject({
      reason: "blocked",
      transient: false,
    });
    expect(inspectGooglePage(page("https://www.google.com/sorry/index?continue=x"))).toMatchObject({ reason: "blocked", transient: true });
    expect(inspectGooglePage({ ...page("https://www.google.com/sorry/index"), url: new URL("https://www.google.com/maps/rpc/listugcposts") })).toMatchObject({
      reason: "blocked",
      transient: true,
    });
    expect(inspectGooglePage(page("https://accounts.google.com/ServiceLogin"))).toMatchObject({ reason: "login_required" });
  });

  it("lets place pages and RPC answers through, whatever their reviews say", () => {
    expect(inspectGooglePage(page(`https://www.google.com/maps?cid=${BLUE_DOOR.cid}`))).toBeNull();
    const rpcPage = page(rpc());
    expect(
      inspectGooglePage({ ...rpcPage, text: rpcPage.text.replace("good coffee", "Before you continue: detected unusual traffic from your computer network") }),
    ).toBeNull();
  });
});
