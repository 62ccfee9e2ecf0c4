/**
 * Places and reviews of the Google Maps fixture site (./site.ts), and what the tests expect of them.
 *
 * The review fields follow the listugcposts review records of gosom/google-maps-scraper
 * (gmaps/testdata/review_native_with_reply.json, review_native_no_text.json,
 * review_native_no_translation.json, review_aggregator.json, read by gmaps/entry.go parseReviews):
 * native id, author name/id/profile link, rating 1–5, posted and updated timestamps in microseconds,
 * original text with Google's translation beside it, the review's own language, the owner's reply
 * with its own timestamp, and reviews Google syndicates from partner sites on another scale.
 * The Search review window's records (GetLocalBoqProxy, the route without login cookies) carry the
 * same review in another layout (see ./site.ts and ./README.md), with the reviewer's review and
 * photo counts. Names, texts, ids and times here are invented; the real captured reviews are in
 * ./captures (see captures/SOURCE.md).
 */

export interface FixtureReview {
  id: string;
  author: string;
  authorId: string;
  rating: number;
  /** What the reviewer wrote; absent for a rating without text. */
  text?: string;
  /** The review's own language, as Google tags it. */
  language?: string;
  /** Google's translation into the page language (hl=en), for reviews written in another language. */
  translation?: string;
  /** Posted time, microseconds since the epoch (Google's unit). */
  postedMicros: number;
  reply?: { text: string; postedMicros: number; language?: string; translation?: string };
  /** A review Google shows from a partner site ("Tripadvisor"), on that site's scale. */
  syndicatedFrom?: string;
  /** The reviewer's review and photo counts (default 1 and 0). */
  reviewerReviews?: number;
  reviewerPhotos?: number;
  /** A Local Guide: labelled "Local Guide · <n> reviews" in listugcposts (gosom's real capture). */
  localGuide?: boolean;
}

export interface FixturePlace {
  featureId: string;
  /** The cid: the feature id's second half, in decimal. */
  cid: string;
  placeId: string;
  name: string;
  street: string;
  city: string;
  state: string;
  postalCode: string;
  /** Newest first is NOT assumed: the site sorts as the RPC's sort field asks. */
  reviews: FixtureReview[];
  /** What the place page shows as its review count (default: the number of native reviews). */
  shownCount?: number;
  /** How the site misbehaves for this place (see site.ts). */
  behaviour?:
    | "consent"
    | "sign-in"
    | "captcha"
    | "changed-review"
    | "moved-list"
    /** listugcposts answers 403 even with login cookies (the window still serves). */
    | "ugc-refuses"
    /** listugcposts serves its first page with login cookies, then answers 403. */
    | "ugc-refuses-later"
    /** The window answers 403: only the place page's five inline reviews are reachable. */
    | "limited"
    /** A hostile site: 2 MB of unclosed tags for the place page, a million nested lists from the window. */
    | "hostile"
    /** The window answers 429 (Retry-After: 20) to the first request for its second page, then serves it. */
    | "throttled"
    /** The window answers 429 (no Retry-After) to every request for its second page. */
    | "throttled-hard"
    /** The window answers 429 asking for 400 s (more than the task's time budget) for its second page. */
    | "throttled-long";
}

const cidOf = (featureId: string) => BigInt(featureId.split(":")[1]).toString();

function place(featureId: string, fields: Omit<FixturePlace, "featureId" | "cid">): FixturePlace {
  return { featureId, cid: cidOf(featureId), ...fields };
}

/** 2026-10-01T09:30:00.123456Z, in microseconds; reviews step back from it. */
const NEWEST = 1_790_847_000_123_456;
const DAY = 86_400_000_000;

/** The reviews the tests look at closely; the rest are plain English filler (./site.ts pages them). */
export const WITH_REPLY: FixtureReview = {
  id: "Ci9DQUlRQUNvZENodHljRjlvT2xGMmRraFdhSFowWW0xWVNURTBObEptU3pWWVgxRRAB",
  author: "Dana K.",
  authorId: "116111130377271376564",
  rating: 5,
  text: "Best flat white in town.\nThe barista remembered my order.",
  language: "en",
  postedMicros: NEWEST,
  reply: { text: "Thank you, Dana! See you soon.", postedMicros: NEWEST + 2 * DAY + 654_321, language: "en" },
  reviewerReviews: 27,
  reviewerPhotos: 4,
  localGuide: true,
};

export const TRANSLATED: FixtureReview = {
  id: "ChZDSUhNMG9nS0VJQ0FnSUNZemVhOFpREAE",
  author: "Jürgen Weiß",
  authorId: "110617501430675678911",
  rating: 4,
  text: "Der Kuchen war köstlich, der Service freundlich.",
  language: "de",
  translation: "The cake was delicious, the service friendly.",
  postedMicros: NEWEST - 1 * DAY - 500_250,
};

export const NO_TEXT: FixtureReview = {
  id: "Ci9DQUlRQUNvZENodHljRjlvT21jMmJ6UnpkemN6Y0dscE9YRndaUzFuVVhCSVprRRAB",
  author: "Lysann L.",
  authorId: "118210304700470843945",
  rating: 3,
  postedMicros: NEWEST - 2 * DAY - 1_000,
};

export const SYNDICATED: FixtureReview = {
  id: "AGG_REVIEW_ID_001",
  author: "Tripadvisor User",
  authorId: "",
  rating: 4,
  text: "Lovely spot for breakfast, would come again.",
  language: "en",
  postedMicros: NEWEST - 3 * DAY,
  syndicatedFrom: "Tripadvisor",
};

/** The oldest review, alone on the last page. */
export const OLDEST_WITH_GERMAN_REPLY: FixtureReview = {
  id: "ChdDSUhNMG9nS0VJQ0FnSURvM19QT3pRRRAB",
  author: "Sam P.",
  authorId: "104400000000000000001",
  rating: 2,
  text: "Slow service on a quiet morning.",
  language: "en",
  postedMicros: NEWEST - 200 * DAY - 77,
  reply: {
    text: "Das tut uns leid, wir arbeiten daran.",
    language: "de",
    translation: "We are sorry, we are working on it.",
    postedMicros: NEWEST - 190 * DAY,
  },
};

function filler(count: number, firstDay: number, idPrefix: string): FixtureReview[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${idPrefix}${String(i + 1).padStart(3, "0")}EAE`,
    author: `Guest ${i + 1}`,
    authorId: String(100000000000000000000n + BigInt(i + 1)),
    rating: (i % 5) + 1,
    // The apostrophe travels as "&#39;" in the window's HTML text ("&", "<" and ">" would too, but
    // md5Hash in the tests assumes text that Go's JSON does not escape).
    text: `Visit ${i + 1}: good coffee, the team's friendly.`,
    language: "en",
    postedMicros: NEWEST - (firstDay + i) * DAY - i * 1_001,
  }));
}

/** 44 native reviews and one syndicated: pages of 20, 20 and 5 entries. */
function blueDoorReviews(idPrefix: string): FixtureReview[] {
  return [WITH_REPLY, TRANSLATED, NO_TEXT, SYNDICATED, ...filler(40, 4, idPrefix), OLDEST_WITH_GERMAN_REPLY];
}

/** The place of the main end-to-end test (and the one Maps search finds for the default business). */
export const BLUE_DOOR = place("0x8085806287e4e2a1:0x9a1f3c2b4d5e6f70", {
  placeId: "ChIJoeLkh2KAhYARcG9eTSs8H5o",
  name: "Blue Door Cafe",
  street: "1 Market St",
  city: "San Francisco",
  state: "CA",
  postalCode: "94105",
  reviews: blueDoorReviews("ChZDSUhNMG9nS0VJQ0FnSUJsdWVk"),
});

/** The same reviews under another place, for the tests that count the site's requests. */
export const BLUE_DOOR_COPY = place("0x8085806287e4e2a1:0x1b2c3d4e5f607182", {
  placeId: "ChIJoeLkh2KAhYARgnFgX05NLBs",
  name: "Blue Door Cafe",
  street: "1 Market St",
  city: "San Francisco",
  state: "CA",
  postalCode: "94105",
  reviews: blueDoorReviews("ChZDSUhNMG9nS0VJQ0FnSUNvcHlk"),
});

/** Search decoys: the same name at another branch, and neighbours whose names only look alike. */
export const DECOYS: FixturePlace[] = [
  place("0x808580e1a2b3c4d5:0x1111111111111111", {
    placeId: "ChIJ1dXEs6LhgIARERERERERERE",
    name: "Blue Door Cafe",
    street: "500 Castro St",
    city: "San Francisco",
    state: "CA",
    postalCode: "94114",
    reviews: [],
  }),
  place("0x808580e1a2b3c4d5:0x2222222222222222", {
    placeId: "ChIJ1dXEs6LhgIARIiIiIiIiIiI",
    name: "Blue Door Bakery",
    street: "1 Market St",
    city: "San Francisco",
    state: "CA",
    postalCode: "94105",
    reviews: [],
  }),
  place("0x808580e1a2b3c4d5:0x3333333333333333", {
    placeId: "ChIJ1dXEs6LhgIARMzMzMzMzMzM",
    name: "Red Door Cafe",
    street: "3 Market St",
    city: "San Francisco",
    state: "CA",
    postalCode: "94105",
    reviews: [],
  }),
];

export const EMPTY = place("0x80858062aaaaaaaa:0x0a0a0a0a0a0a0a0a", {
  placeId: "ChIJqqqqqmKAhYARCgoKCgoKCgo",
  name: "Quiet Corner",
  street: "9 Pier",
  city: "San Francisco",
  state: "CA",
  postalCode: "94111",
  reviews: [],
});

const smallReviews = (idPrefix: string) => filler(3, 1, idPrefix);

export const CONSENT = place("0x80858062bbbbbbbb:0x0b0b0b0b0b0b0b0b", {
  placeId: "ChIJu7u7u2KAhYARCwsLCwsLCws",
  name: "Consent Cafe",
  street: "2 Pier",
  city: "San Francisco",
  state: "CA",
  postalCode: "94111",
  reviews: smallReviews("Q29uc2VudA"),
  behaviour: "consent",
});
export const SIGN_IN = place("0x80858062cccccccc:0x0c0c0c0c0c0c0c0c", {
  placeId: "ChIJzMzMzGKAhYARDAwMDAwMDAw",
  name: "Members Cafe",
  street: "3 Pier",
  city: "San Francisco",
  state: "CA",
  postalCode: "94111",
  reviews: smallReviews("U2lnbklu"),
  behaviour: "sign-in",
});
export const CAPTCHA = place("0x80858062dddddddd:0x0d0d0d0d0d0d0d0d", {
  placeId: "ChIJ3d3d3WKAhYARDQ0NDQ0NDQ0",
  name: "Busy Cafe",
  street: "4 Pier",
  city: "San Francisco",
  state: "CA",
  postalCode: "94111",
  reviews: smallReviews("Q2FwdGNoYQ"),
  behaviour: "captcha",
});
export const CHANGED_REVIEW = place("0x80858062eeeeeeee:0x0e0e0e0e0e0e0e0e", {
  placeId: "ChIJ7u7u7mKAhYARDg4ODg4ODg4",
  name: "Changed Cafe",
  street: "5 Pier",
  city: "San Francisco",
  state: "CA",
  postalCode: "94111",
  reviews: smallReviews("Q2hhbmdlZA"),
  behaviour: "changed-review",
});
export const MOVED_LIST = place("0x80858062ffffffff:0x0f0f0f0f0f0f0f0f", {
  placeId: "ChIJ____-2KAhYARDw8PDw8PDw8",
  name: "Moved Cafe",
  street: "6 Pier",
  city: "San Francisco",
  state: "CA",
  postalCode: "94111",
  reviews: smallReviews("TW92ZWQ"),
  behaviour: "moved-list",
});

/** 150 reviews: the window serves them in pages of 60, 60 and 30. */
export const WIDE = place("0x8085806266666666:0x6060606060606060", {
  placeId: "ChIJZmZmZmZmoYARYGBgYGBgYGA",
  name: "Wide Hall",
  street: "11 Pier",
  city: "San Francisco",
  state: "CA",
  postalCode: "94111",
  reviews: filler(150, 1, "V2lkZUhhbGw"),
});
/** The same reviews under another place, for the test that counts its requests. */
export const WIDE_COPY = place("0x8085806266666666:0x6161616161616161", {
  placeId: "ChIJZmZmZmZmoYARYWFhYWFhYWE",
  name: "Wide Hall Annex",
  street: "12 Pier",
  city: "San Francisco",
  state: "CA",
  postalCode: "94111",
  reviews: filler(150, 1, "V2lkZUNvcHk"),
});
/** 90 reviews (pages of 60 and 30) behind a window that answers 429 to its second page (see behaviour). */
function throttled(suffix: string, behaviour: FixturePlace["behaviour"], idPrefix: string): FixturePlace {
  return place(`0x8085806277777777:0x707070707070707${suffix}`, {
    placeId: `ChIJd3d3d3d3oYARcHBwcHBwcH${suffix}`,
    name: `Throttled Cafe ${suffix}`,
    street: "13 Pier",
    city: "San Francisco",
    state: "CA",
    postalCode: "94111",
    reviews: filler(90, 1, idPrefix),
    behaviour,
  });
}
export const THROTTLED = throttled("1", "throttled", "VGhyb3R0bGVk");
export const THROTTLED_HARD = throttled("2", "throttled-hard", "VGhyb3R0bGVkSGFyZA");
export const THROTTLED_LONG = throttled("3", "throttled-long", "VGhyb3R0bGVkTG9uZw");
/** 25 reviews: listugcposts refuses even signed in; the window serves them (one page). */
export const UGC_REFUSES = place("0x8085806211111111:0x1010101010101010", {
  placeId: "ChIJERERERESoYARbGRobGRobGQ",
  name: "Refused Cafe",
  street: "7 Pier",
  city: "San Francisco",
  state: "CA",
  postalCode: "94111",
  reviews: filler(25, 1, "UmVmdXNlZA"),
  behaviour: "ugc-refuses",
});

/** 30 reviews: listugcposts serves its first 20 signed in, then refuses; the window serves the rest. */
export const UGC_REFUSES_LATER = place("0x8085806222222222:0x2020202020202020", {
  placeId: "ChIJIiIiIiIioYARICAgICAgICA",
  name: "Later Cafe",
  street: "8 Pier",
  city: "San Francisco",
  state: "CA",
  postalCode: "94111",
  reviews: filler(30, 1, "TGF0ZXI"),
  behaviour: "ugc-refuses-later",
});

/** The window refuses; the signed-out place page shows five reviews of the 57 it counts. */
export const LIMITED = place("0x8085806233333333:0x3030303030303030", {
  placeId: "ChIJMzMzMzMzoYARMDAwMDAwMDA",
  name: "Limited Cafe",
  street: "9 Pier",
  city: "San Francisco",
  state: "CA",
  postalCode: "94111",
  reviews: filler(2, 1, "TGltaXRlZA"),
  shownCount: 57,
  behaviour: "limited",
});

/** A hostile copy of Google (issue 23): its answers try to burn the parser's CPU. */
export const HOSTILE = place("0x8085806244444444:0x4040404040404040", {
  placeId: "ChIJRERERERERKARQEBAQEBAQEA",
  name: "Hostile Cafe",
  street: "10 Pier",
  city: "San Francisco",
  state: "CA",
  postalCode: "94111",
  reviews: filler(3, 1, "SG9zdGlsZQ"),
  behaviour: "hostile",
});

/**
 * The place of the collection-option tests (test/e2e/collection-options.test.ts): 150 reviews, one
 * a day back from 2026-10-01, ratings 1 to 5 in turn; three window pages of 60, 60 and 30. Its own
 * feature id, so its request counts are those tests' own.
 */
export const OPTIONS_PLACE = place("0x8085806255555555:0x5050505050505050", {
  placeId: "ChIJOptionsPlace0000000000",
  name: "Options Test Roastery",
  street: "9 Pier 39",
  city: "San Francisco",
  state: "CA",
  postalCode: "94133",
  reviews: filler(150, 0, "T3B0aW9ucw"),
});

/**
 * The coverage sample (test/publishers/contract.test.ts): signed in, listugcposts serves its first
 * 20 (a Local Guide, Google's translation), then refuses; the window serves the rest (photo counts).
 */
export const COVERAGE_PLACE = place("0x8085806288888888:0x8080808080808080", {
  placeId: "ChIJiIiIiIiIoYARgICAgICAgIA",
  name: "Coverage Cafe",
  street: "14 Pier",
  city: "San Francisco",
  state: "CA",
  postalCode: "94111",
  reviews: [WITH_REPLY, TRANSLATED, NO_TEXT, ...filler(30, 4, "Q292ZXJhZ2U")],
  behaviour: "ugc-refuses-later",
});

export const PLACES: FixturePlace[] = [
  OPTIONS_PLACE,
  BLUE_DOOR,
  BLUE_DOOR_COPY,
  ...DECOYS,
  EMPTY,
  CONSENT,
  SIGN_IN,
  CAPTCHA,
  CHANGED_REVIEW,
  MOVED_LIST,
  UGC_REFUSES,
  UGC_REFUSES_LATER,
  LIMITED,
  HOSTILE,
  WIDE,
  WIDE_COPY,
  THROTTLED,
  THROTTLED_HARD,
  THROTTLED_LONG,
  COVERAGE_PLACE,
];

/** maps.app.goo.gl codes → places (goo.gl/maps/<code> redirects to maps.app.goo.gl/<code>). */
export const SHORT_LINKS: Record<string, FixturePlace> = {
  bLuEdOoRcAfE1: BLUE_DOOR,
  qUiEtCoRnEr22: EMPTY,
};

/** Native reviews (what the adapter keeps), newest first. */
export function nativeNewestFirst(p: FixturePlace): FixtureReview[] {
  return p.reviews.filter((r) => !r.syndicatedFrom).sort((a, b) => b.postedMicros - a.postedMicros);
}
