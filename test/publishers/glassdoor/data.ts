/**
 * Employers and reviews of the Glassdoor fixture site (./site.ts). Review fields follow the
 * `EmployerReviewRG` objects of Glassdoor's Apollo cache as scrapfly/scrapfly-scrapers
 * glassdoor-scraper/results/reviews.json shows them (reviewId, reviewDateTime without a zone,
 * ratingOverall, summary/pros/cons/advice with their *Original twins for translated reviews,
 * languageId/originalLanguageId as ISO 639-2, jobTitle.text, employerResponses with `response`,
 * `userJobTitle` and `responseDateTime({"format":"ISO"})`). Names, texts, ids and times are invented.
 */
export interface FixtureGlassdoorReview {
  reviewId: number;
  reviewDateTime: string;
  ratingOverall: number;
  jobTitle?: string;
  summary: string;
  pros: string;
  cons: string;
  advice?: string;
  /** A review Glassdoor machine-translated: the fields above are the English translation. */
  original?: { languageId: string; summary: string; pros: string; cons: string };
  response?: { text: string; dateTime: string; userJobTitle: string };
  /** The aspects the reviewer rated (1–5), by Glassdoor's field name; the others are sent as 0, as Glassdoor does. */
  subRatings?: Partial<Record<(typeof SUB_RATING_FIELDS)[number], number>>;
}

/** The rated aspects every `EmployerReviewRG` carries (scrapfly's results/reviews.json, 2026-01). */
export const SUB_RATING_FIELDS = [
  "ratingWorkLifeBalance",
  "ratingCultureAndValues",
  "ratingDiversityAndInclusion",
  "ratingSeniorLeadership",
  "ratingCareerOpportunities",
  "ratingCompensationAndBenefits",
] as const;

export interface FixtureEmployer {
  id: number;
  name: string;
  reviews: FixtureGlassdoorReview[];
  behaviour?:
    | "login-redirect"
    | "bot-check"
    | "changed"
    | "hidden"
    /** Page 1 carries no gdToken. */
    | "no-token"
    /** Page 1 carries a token the JSON call refuses (403, as without one). */
    | "stale-token"
    /** The JSON call redirects to the sign-in page. */
    | "graph-login"
    /** The JSON call answers with a GraphQL error envelope. */
    | "graph-error"
    /** The JSON call answers without data.employerReviews. */
    | "graph-changed"
    /** The JSON call answers page 1 whatever page it is asked for. */
    | "graph-page-one"
    /** The JSON call answers without numberOfPages and currentPage (filteredReviewsCount only). */
    | "no-page-count"
    /** Page 1's Apollo cache is a depth-30 fan: every node refers twice to the next. */
    | "hostile-fan"
    /** Page 1 is 2 MB of unclosed `<script ` and `<input ` openings. */
    | "hostile-tags"
    /** Page 1 is served as an App Router RSC payload (`self.__next_f`), without __NEXT_DATA__ or apolloState. */
    | "rsc";
}

export const WITH_RESPONSE: FixtureGlassdoorReview = {
  reviewId: 98000001,
  reviewDateTime: "2026-10-02T16:45:56.643",
  ratingOverall: 4,
  jobTitle: "Senior Software Engineer",
  summary: "Good team, slow releases",
  pros: "Kind colleagues and real ownership.",
  cons: "Releases take weeks.",
  advice: "Automate the release train.",
  response: {
    text: "Thanks for the feedback, we are working on faster releases.",
    dateTime: "2026-10-04T08:00:00.000",
    userJobTitle: "Head of People",
  },
  subRatings: { ratingWorkLifeBalance: 4, ratingCultureAndValues: 5.0, ratingCareerOpportunities: 3 },
};

export const TRANSLATED: FixtureGlassdoorReview = {
  reviewId: 98000002,
  reviewDateTime: "2026-10-01T09:00:00.001",
  ratingOverall: 5,
  jobTitle: "Werkstudent",
  summary: "Great place to learn",
  pros: "Flexible hours",
  cons: "Little parking",
  original: {
    languageId: "deu",
    summary: "Toller Ort zum Lernen",
    pros: "Flexible Arbeitszeiten",
    cons: "Wenig Parkplätze",
  },
};

export const ANONYMOUS: FixtureGlassdoorReview = {
  reviewId: 98000003,
  reviewDateTime: "2026-09-30T12:00:00.000",
  ratingOverall: 2,
  summary: "Not for me",
  pros: "Pay is fine",
  cons: "Long meetings",
};

function filler(count: number): FixtureGlassdoorReview[] {
  return Array.from({ length: count }, (_, i) => ({
    reviewId: 97000100 + i,
    reviewDateTime: new Date(Date.UTC(2026, 8, 20 - i, 10, 0, 0, i)).toISOString().replace("Z", ""),
    ratingOverall: (i % 5) + 1,
    jobTitle: `Analyst ${i + 1}`,
    summary: `Review ${i + 1}`,
    pros: `Pro number ${i + 1}`,
    cons: `Con number ${i + 1}`,
  }));
}

/** 23 reviews: pages of 10, 10 and 3. */
export const ACME: FixtureEmployer = {
  id: 4242,
  name: "Acme Widgets",
  reviews: [WITH_RESPONSE, TRANSLATED, ANONYMOUS, ...filler(20)],
};
export const EMPTY_EMPLOYER: FixtureEmployer = { id: 4246, name: "Quiet Co", reviews: [] };
export const LOGIN_REDIRECT: FixtureEmployer = {
  id: 4243,
  name: "Walled Co",
  reviews: filler(2),
  behaviour: "login-redirect",
};
export const BOT_CHECK: FixtureEmployer = {
  id: 4244,
  name: "Guarded Co",
  reviews: filler(2),
  behaviour: "bot-check",
};
export const CHANGED: FixtureEmployer = {
  id: 4245,
  name: "Changed Co",
  reviews: filler(2),
  behaviour: "changed",
};
export const HIDDEN: FixtureEmployer = {
  id: 4247,
  name: "Hidden Co",
  reviews: filler(5),
  behaviour: "hidden",
};

export const NO_TOKEN: FixtureEmployer = {
  id: 4248,
  name: "Tokenless Co",
  reviews: filler(12),
  behaviour: "no-token",
};
export const STALE_TOKEN: FixtureEmployer = {
  id: 4249,
  name: "Stale Co",
  reviews: filler(12),
  behaviour: "stale-token",
};
export const GRAPH_LOGIN: FixtureEmployer = {
  id: 4250,
  name: "Members Co",
  reviews: filler(12),
  behaviour: "graph-login",
};
export const GRAPH_ERROR: FixtureEmployer = {
  id: 4251,
  name: "Faulty Co",
  reviews: filler(12),
  behaviour: "graph-error",
};
export const GRAPH_CHANGED: FixtureEmployer = {
  id: 4252,
  name: "Renamed Co",
  reviews: filler(12),
  behaviour: "graph-changed",
};

export const NO_PAGE_COUNT: FixtureEmployer = {
  id: 4254,
  name: "Uncounted Co",
  reviews: filler(25),
  behaviour: "no-page-count",
};
/** 60 reviews: the JSON call's page 1 of 50 is served; asked for its page 2, it answers page 1 again. */
export const GRAPH_PAGE_ONE: FixtureEmployer = {
  id: 4253,
  name: "Looping Co",
  reviews: filler(60),
  behaviour: "graph-page-one",
};

/** 123 reviews: page 1 shows 10; the JSON call serves them in pages of 50, 50 and 23. */
export const BIG_CO: FixtureEmployer = {
  id: 4258,
  name: "Big Co",
  reviews: [WITH_RESPONSE, TRANSLATED, ANONYMOUS, ...filler(120)],
};

/** Hostile pages (invented, issue 23): an Apollo cache of a depth-30 shared-reference fan; 2 MB of unclosed tags. */
export const HOSTILE_FAN: FixtureEmployer = {
  id: 4255,
  name: "Fan Co",
  reviews: [],
  behaviour: "hostile-fan",
};
export const HOSTILE_TAGS: FixtureEmployer = {
  id: 4256,
  name: "Tags Co",
  reviews: [],
  behaviour: "hostile-tags",
};

/** 23 reviews like ACME's (pages of 10, 10 and 3), page 1 served as an RSC payload. */
export const RSC_CO: FixtureEmployer = {
  id: 4257,
  name: "Flight Co",
  reviews: ACME.reviews,
  behaviour: "rsc",
};

export const EMPLOYERS = [
  ACME,
  RSC_CO,
  EMPTY_EMPLOYER,
  LOGIN_REDIRECT,
  BOT_CHECK,
  CHANGED,
  HIDDEN,
  NO_TOKEN,
  STALE_TOKEN,
  GRAPH_LOGIN,
  GRAPH_ERROR,
  GRAPH_CHANGED,
  GRAPH_PAGE_ONE,
  NO_PAGE_COUNT,
  HOSTILE_FAN,
  HOSTILE_TAGS,
  BIG_CO,
];

/** The employer's `profileId` in the page's inline employer object (invented). */
export const profileIdOf = (e: FixtureEmployer) => e.id * 1000 + 7;
/** The gd-csrf-token the fixture hands out with an employer's page 1 and accepts on the JSON call. */
export const tokenOf = (e: FixtureEmployer) => `Wq4I${e.id}kb3rDWO0:EF2AITEIXWTdlvXJ${e.id}:JVJdlO9md9os`;
/** Reviews on one of Glassdoor's pages. */
export const PAGE_SIZE = 10;
/** The most the JSON call serves a page (`pageSize` up to 50: a 2026 glassdoor-collect skill, 2026-09-28). */
export const JSON_MAX_PAGE_SIZE = 50;

export const newestFirst = (e: FixtureEmployer) =>
  [...e.reviews].sort((a, b) => b.reviewDateTime.localeCompare(a.reviewDateTime));
