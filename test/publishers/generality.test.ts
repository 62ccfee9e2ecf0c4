/**
 * How general the generic reader is: it runs, with no knowledge of the site, on every real capture
 * the dedicated modules hold (test/publishers/<name>/captures/ and capture-*.json) and on invented
 * pages in other shapes, and each result is compared with the reviews known to be there: for a
 * capture, what its dedicated module reads from it (checked by hand in that module's capture test);
 * for an invented page, the data it was built from. A known review is recovered when the generic
 * reader gave a review with the same text, the same rating on 1–5 and the same day, both read
 * through the pipeline's own normalisation. A JSON capture is handed over as the answer a rendered
 * page loaded (RenderedPage.answers); an HTML capture as the page. The README states the totals.
 */
import { describe, expect, it } from "vitest";
import readme from "../../README.md?raw";
import type { RawReview } from "../../src/core/reviews";
import { normalizeReview, isUsableReview } from "../../src/core/reviews/normalize";
import { readGenericPage } from "../../src/publishers/generic/adapter";
import { parseReviews as parseAirbnb } from "../../src/publishers/airbnb/feed";
import { parseFeedPage } from "../../src/publishers/app-store/feed";
import {
  parseReviewListResponse as parseBooking,
  toRawReview as bookingRaw,
} from "../../src/publishers/booking/reviews";
import { feefo as feefoModule } from "../../src/publishers/feefo";
import { rawReview as glassdoorRaw, type JsonObject } from "../../src/publishers/glassdoor/apollo";
import { reviewFromEntry } from "../../src/publishers/google-maps/reviews-rpc";
import { parseReviewsAnswer, RPC_ID } from "../../src/publishers/google-play/rpc";
import {
  parseReviewListResponse as parseTripadvisor,
  toRawReview as tripadvisorRaw,
} from "../../src/publishers/tripadvisor/reviews";
import { parseReviewPage as parseTrustpilot } from "../../src/publishers/trustpilot/reviews";
import { parseFeed as parseYelp } from "../../src/publishers/yelp/feed";
import { parseZillowPage } from "../../src/publishers/zillow/reviews";
import { EMBEDDED_SITES, type EmbeddedReview } from "../fixtures/embedded-sites";
import * as sites from "../fixtures/embedded-sites";
import airbnb from "./airbnb/captures/StaysPdpReviewsQuery.response.json?raw";
import appStore from "./app-store/captures/itunes_rss_reviews.json?raw";
import booking from "./booking/capture-hotel_review.json?raw";
import feefo from "./feefo/captures/documented-example.json?raw";
import glassdoor from "./glassdoor/capture-reviews.json?raw";
import mapsNoText from "./google-maps/captures/listugcposts-review_native_no_text.json?raw";
import mapsNoTranslation from "./google-maps/captures/listugcposts-review_native_no_translation.json?raw";
import mapsWithReply from "./google-maps/captures/listugcposts-review_native_with_reply.json?raw";
import googlePlay from "./google-play/captures/review_relevant.html?raw";
import tripadvisor from "./tripadvisor/captures/hotels.json?raw";
import trustedShops from "./trusted-shops/captures/demoshop-quality-reviews.json?raw";
import trustpilot from "./trustpilot/captures/companies.json?raw";
import yelp from "./yelp/capture-reviews.json?raw";
import zillow from "./zillow/captures/capture-agent-profile.json?raw";
import { parseContext } from "./walk-support";

const parseFeefoPage = feefoModule.api.parse;

/** What the generic reader is given: a page's HTML, and JSON answers the page loaded. */
interface Input {
  url: string;
  html?: string;
  answers?: unknown[];
}

interface Case {
  name: string;
  input: Input;
  known: RawReview[] | Promise<RawReview[]>;
}

const EMPTY_PAGE = "<!doctype html><html><head><title>x</title></head><body></body></html>";
const ctx = (url: string) => parseContext("key", url, { page: 1, token: null });
const parsed = (raw: string): unknown => JSON.parse(raw);

/** The answers the dedicated modules' capture tests wrap their captures in (see each capture test). */
function yelpAnswer(nodes: { createdAt: unknown }[]) {
  const edges = nodes.map(({ createdAt, ...node }) => ({
    node: { ...node, createdAt: { utcDateTime: createdAt } },
  }));
  return [{ data: { business: { encid: "x", alias: "y", reviewCount: nodes.length, reviews: { edges } } } }];
}
function tripadvisorAnswer(capture: {
  info: { id: number; rating_count: number };
  reviews: Record<string, unknown>[];
}) {
  const nodes = capture.reviews.map((r) => ({
    id: r.id,
    publishedDate: r.date,
    rating: r.rating,
    title: r.title,
    text: r.text,
    helpfulVotes: r.votes,
    route: { url: r.url },
    language: r.language,
    publishPlatform: r.platform,
    userProfile: { id: r.author_id, displayName: r.author_name, username: r.author_username },
  }));
  return [
    {
      data: {
        locations: [
          {
            locationId: capture.info.id,
            reviewListPage: { totalCount: capture.info.rating_count, reviews: nodes },
          },
        ],
      },
    },
  ];
}
function trustpilotPage(company: {
  pageUrl: string;
  companyDetails: { numberOfReviews: number };
  reviews: unknown[];
}) {
  const pageProps = {
    pageUrl: company.pageUrl,
    businessUnit: company.companyDetails,
    reviews: company.reviews,
    filters: {
      pagination: { currentPage: 1, totalPages: Math.ceil(company.companyDetails.numberOfReviews / 20) },
    },
  };
  const data = JSON.stringify({ props: { pageProps }, page: "/review/[businessUnit]" }).replace(
    /</g,
    "\\u003c",
  );
  return `<!DOCTYPE html><html lang="en-US"><head><title>Trustpilot</title></head><body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${data}</script></body></html>`;
}

function captures(): Case[] {
  const booked = parsed(booking) as unknown[];
  const bookingAnswer = { data: { reviewListFrontend: { reviewsCount: booked.length, reviewCard: booked } } };
  const trip = parsed(tripadvisor) as Parameters<typeof tripadvisorAnswer>[0];
  const yelped = parsed(yelp) as { createdAt: unknown }[];
  const zillowed = parsed(zillow) as { reviewsData: unknown };
  const companies = parsed(trustpilot) as Parameters<typeof trustpilotPage>[0][];
  const play = JSON.parse(googlePlay.slice(4)) as unknown[][];
  const playEnvelope = play.map((entry, i) => (i === 0 ? ["wrb.fr", RPC_ID, ...entry.slice(2)] : entry));
  const maps = (name: string, raw: string): Case => ({
    name: `google-maps ${name}`,
    input: { url: "https://www.google.com/maps/place/x", answers: [parsed(raw)] },
    known: [reviewFromEntry((parsed(raw) as unknown[])[0], 0)].filter((r): r is RawReview => r !== null),
  });
  return [
    {
      name: "airbnb StaysPdpReviewsQuery",
      input: { url: "https://www.airbnb.com/rooms/38817969", answers: [parsed(airbnb)] },
      known: parseAirbnb(parsed(airbnb), 0).reviews,
    },
    {
      name: "app-store customer reviews feed",
      input: { url: "https://apps.apple.com/us/app/id284815942", answers: [parsed(appStore)] },
      known: parseFeedPage(parsed(appStore), ctx("https://apps.apple.com/us/app/id284815942")).reviews,
    },
    {
      name: "booking review list",
      input: { url: "https://www.booking.com/hotel/x.html", answers: [bookingAnswer] },
      known: parseBooking(bookingAnswer).cards.map(bookingRaw),
    },
    {
      name: "feefo documented sample",
      input: { url: "https://www.feefo.com/en-GB/reviews/x", answers: [parsed(feefo)] },
      known: parseFeefoPage(parsed(feefo), ctx("https://www.feefo.com/en-GB/reviews/x")).reviews,
    },
    {
      name: "glassdoor employer reviews",
      input: { url: "https://www.glassdoor.com/Reviews/x.htm", answers: [parsed(glassdoor)] },
      known: (parsed(glassdoor) as JsonObject[]).map((r, i) => glassdoorRaw(r, i, "capture")),
    },
    maps("review with reply", mapsWithReply),
    maps("review without text", mapsNoText),
    maps("review without translation", mapsNoTranslation),
    {
      name: "google-play batchexecute",
      input: { url: "https://play.google.com/store/apps/details?id=x", answers: [playEnvelope] },
      known: parseReviewsAnswer(playEnvelope, ctx("https://play.google.com/store/apps/details?id=x")).reviews,
    },
    {
      name: "tripadvisor review list",
      input: { url: "https://www.tripadvisor.com/Hotel_Review-x.html", answers: tripadvisorAnswer(trip) },
      known: parseTripadvisor(tripadvisorAnswer(trip)).reviews.map((r) =>
        tripadvisorRaw(r, "https://www.tripadvisor.com"),
      ),
    },
    {
      name: "trusted-shops quality indicator (no reviews)",
      input: { url: "https://www.trustedshops.com/x", answers: [parsed(trustedShops)] },
      // The review indicator holds counts and marks, no review: its module has none to read either.
      known: [],
    },
    ...companies.map((company) => ({
      name: `trustpilot ${new URL(company.pageUrl).pathname}`,
      input: { url: company.pageUrl, html: trustpilotPage(company) },
      known: parseTrustpilot(trustpilotPage(company)).then((page) => page.reviews),
    })),
    {
      name: "yelp review feed",
      input: { url: "https://www.yelp.com/biz/x", answers: yelpAnswer(yelped) },
      known: parseYelp(yelpAnswer(yelped), "https://www.yelp.com/biz/x", 0).reviews,
    },
    {
      name: "zillow agent profile",
      input: { url: "https://www.zillow.com/profile/x/", answers: [zillowed] },
      known: parseZillowPage(zillowed.reviewsData, ctx("https://www.zillow.com/profile/x/")).reviews,
    },
  ];
}

/** An invented site's page and the reviews it was built from, as RawReviews. */
function invented(domain: string, path: string, reviews: EmbeddedReview[]): Case {
  const url = new URL(`https://${domain}${path}`);
  const answer = EMBEDDED_SITES[domain]({
    url,
    cookie: "",
    count: 1,
    method: "GET",
    host: domain,
    headers: {},
    body: "",
  });
  return {
    name: `invented ${domain}${path.split("/").slice(0, 2).join("/")}`,
    input: { url: url.toString(), html: answer.body },
    known: reviews.map((r) => ({
      author_name: r.author,
      rating: { value: r.rating, best: 5, worst: 1 },
      text: r.text,
      date: r.date,
    })),
  };
}

/** Invented shapes not served by any fixture site: a Relay store with `__refs`, a JSON.parse string. */
function moreShapes(): Case[] {
  const reviews = Array.from({ length: 3 }, (_, i) => ({
    id: `r${i}`,
    author: `Relay reader ${i}`,
    rating: 5 - i,
    text: `Relay review ${i}: friendly service and a quiet room.`,
    date: `2025-0${i + 1}-1${i}T12:00:00.000Z`,
  }));
  const store: Record<string, unknown> = {
    "client:root": { __id: "client:root", __typename: "__Root", "place(id:1)": { __ref: "Place:1" } },
    "Place:1": {
      __id: "Place:1",
      __typename: "Place",
      name: "Hotel",
      reviews: { __refs: reviews.map((r) => r.id) },
    },
  };
  for (const r of reviews)
    store[r.id] = {
      __id: r.id,
      __typename: "Rating",
      legacyId: r.id,
      qualityRating: r.rating,
      comment: r.text,
      date: r.date,
      author: { __ref: `U${r.id}` },
    };
  for (const r of reviews) store[`U${r.id}`] = { __id: `U${r.id}`, __typename: "User", firstName: r.author };
  const relayHtml = `<html><body><script>window.__RELAY_STORE__ = ${JSON.stringify(store)};</script></body></html>`;
  const parseState = JSON.stringify({
    reviews: {
      list: reviews.map((r) => ({
        ...r,
        stars: r.rating,
        body: r.text,
        created: r.date,
        user: { name: r.author },
      })),
    },
  });
  const parseHtml = `<html><body><script>window.__PRELOADED_STATE__ = JSON.parse(${JSON.stringify(parseState)});</script></body></html>`;
  const known = reviews.map((r) => ({
    author_name: r.author,
    rating: { value: r.rating },
    text: r.text,
    date: r.date,
  }));
  // A product page in walmart.com's shape (field names from scrapfly/scrapfly-scrapers
  // walmart-scraper, values invented; the site now has its dedicated module): __NEXT_DATA__ with the product,
  // its aspect scores and its customerReviews, dates as M/D/YYYY.
  const walmartData = {
    props: {
      pageProps: {
        initialData: {
          data: {
            product: {
              id: "P1",
              name: "Kettle",
              averageRating: 4.6,
              priceInfo: { currentPrice: { price: 29.99 } },
            },
            reviews: {
              averageOverallRating: 4.5618,
              aspects: [{ id: "12", name: "Ease Of Use", score: 90, snippetCount: 65 }],
              customerReviews: reviews.map((r) => ({
                reviewId: r.id,
                rating: r.rating,
                reviewSubmissionTime: `${Number(r.date.slice(5, 7))}/${Number(r.date.slice(8, 10))}/${r.date.slice(0, 4)}`,
                reviewText: r.text,
                reviewTitle: "Title",
                userNickname: r.author,
                clientResponses: [],
              })),
            },
          },
        },
      },
    },
  };
  const walmartHtml = `<html><body><script id="__NEXT_DATA__" type="application/json">${JSON.stringify(walmartData)}</script></body></html>`;
  // Nuxt 3: the state as a devalue payload in __NUXT_DATA__, dates as ["Date", iso] wrappers.
  const nuxtPayload: unknown[] = [["ShallowReactive", 1]];
  const put = (value: unknown): number => {
    const index = nuxtPayload.length;
    nuxtPayload.push(null);
    if (value instanceof Date) nuxtPayload[index] = ["Date", value.toISOString()];
    else if (Array.isArray(value)) nuxtPayload[index] = value.map(put);
    else if (value && typeof value === "object")
      nuxtPayload[index] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, put(v)]));
    else nuxtPayload[index] = value;
    return index;
  };
  put({
    data: {
      "place-1": {
        reviews: reviews.map((r) => ({
          id: r.id,
          rating: r.rating,
          content: r.text,
          publishedAt: new Date(r.date),
          author: { displayName: r.author },
        })),
      },
    },
    state: {},
  });
  const nuxtHtml = `<html><body><div id="__nuxt"></div><script type="application/json" id="__NUXT_DATA__" data-ssr="true">${JSON.stringify(nuxtPayload)}</script></body></html>`;
  return [
    {
      name: "invented Nuxt 3 __NUXT_DATA__ (devalue)",
      input: { url: "https://nuxt.example/p", html: nuxtHtml },
      known,
    },
    {
      name: "invented walmart.com-shaped product page",
      input: { url: "https://shop.example/ip/1", html: walmartHtml },
      known,
    },
    {
      name: "invented relay store (__refs)",
      input: { url: "https://relay.example/p", html: relayHtml },
      known,
    },
    {
      name: 'invented JSON.parse("…") state',
      input: { url: "https://parse.example/p", html: parseHtml },
      known,
    },
  ];
}

const NORMALIZE = {
  publisherKey: "example.com",
  pageUrl: "https://example.com/",
  scrapedAt: Date.UTC(2026, 10, 1),
  pageLanguage: null,
};

function comparable(raws: RawReview[]) {
  return raws.filter(isUsableReview).map((raw) => {
    const review = normalizeReview(raw, NORMALIZE);
    return {
      text: review.text,
      rating: review.rating,
      day: new Date(review.posted_at).toISOString().slice(0, 10),
    };
  });
}

interface Outcome {
  name: string;
  known: number;
  recovered: number;
  /** Reviews the generic reader gave that match no known review. */
  extra: number;
}

/**
 * The right text: the same, or the same body where the module put the review's title before it
 * ("<title>\n\n<body>", as the App Store and Feefo modules do); the generic reader keeps the body.
 */
const sameText = (known: string, generic: string) =>
  known === generic || (generic !== "" && known.endsWith(`\n\n${generic}`));

async function measure(c: Case): Promise<Outcome> {
  const read = await readGenericPage({
    url: new URL(c.input.url),
    text: c.input.html ?? EMPTY_PAGE,
    answers: (c.input.answers ?? []).map((answer) => ({ url: c.input.url, text: JSON.stringify(answer) })),
  });
  const known = comparable(await c.known);
  const found = comparable(read.reviews);
  const same = (a: (typeof known)[number], b: (typeof known)[number]) =>
    sameText(a.text, b.text) && a.rating === b.rating && a.day === b.day;
  const recovered = known.filter((k) => found.some((f) => same(k, f))).length;
  const extra = found.filter((f) => !known.some((k) => same(k, f))).length;
  return { name: c.name, known: known.length, recovered, extra };
}

/** Per case: [known reviews, recovered with the right rating, date and text, extra]. */
const EXPECTED: Record<string, [number, number, number]> = {
  "airbnb StaysPdpReviewsQuery": [24, 24, 0],
  "app-store customer reviews feed": [50, 50, 0],
  "booking review list": [30, 0, 0],
  "feefo documented sample": [1, 1, 0],
  "glassdoor employer reviews": [15, 0, 14],
  "google-maps review with reply": [1, 0, 0],
  "google-maps review without text": [1, 0, 0],
  "google-maps review without translation": [1, 0, 0],
  "google-play batchexecute": [40, 0, 0],
  "tripadvisor review list": [20, 20, 0],
  "trusted-shops quality indicator (no reviews)": [0, 0, 0],
  "trustpilot /review/www.bhphotovideo.com": [20, 20, 0],
  "trustpilot /review/iggm.com": [20, 20, 0],
  "trustpilot /review/www.flashbay.com": [20, 20, 0],
  "yelp review feed": [30, 30, 0],
  "zillow agent profile": [1, 1, 0],
  "invented nextdata.test/biz": [3, 3, 0],
  "invented apollostate.test/biz": [4, 4, 0],
  "invented initialstate.test/biz": [3, 3, 0],
  "invented rscpayload.test/biz": [3, 3, 0],
  "invented productlist.test/biz": [0, 0, 0],
  "invented productlist.test/mixed": [2, 2, 0],
  "invented relay store (__refs)": [3, 3, 0],
  'invented JSON.parse("…") state': [3, 3, 0],
  "invented walmart.com-shaped product page": [3, 3, 0],
  "invented Nuxt 3 __NUXT_DATA__ (devalue)": [3, 3, 0],
};

describe("generality of the generic reader", () => {
  it("reports per capture and per invented page how many known reviews it recovered", async () => {
    const cases = [
      ...captures(),
      invented("nextdata.test", "/biz/a", sites.NEXT_DATA_REVIEWS),
      invented("apollostate.test", "/biz/a", sites.APOLLO_REVIEWS),
      invented("initialstate.test", "/biz/a", sites.INITIAL_STATE_REVIEWS),
      invented("rscpayload.test", "/biz/a", sites.RSC_REVIEWS),
      invented("productlist.test", "/biz/a", []),
      invented("productlist.test", "/mixed/a", sites.MIXED_REVIEWS),
      ...moreShapes(),
    ];
    const outcomes: Outcome[] = [];
    for (const c of cases) outcomes.push(await measure(c));
    console.log(
      [
        "case | known | recovered | extra",
        ...outcomes.map((o) => `${o.name} | ${o.known} | ${o.recovered} | ${o.extra}`),
      ].join("\n"),
    );
    expect(Object.fromEntries(outcomes.map((o) => [o.name, [o.known, o.recovered, o.extra]]))).toEqual(
      EXPECTED,
    );
    // The README states the totals: real captures, and invented pages.
    const sum = (list: Outcome[], field: "known" | "recovered") => list.reduce((n, o) => n + o[field], 0);
    const real = outcomes.filter((o) => !o.name.startsWith("invented"));
    const made = outcomes.filter((o) => o.name.startsWith("invented"));
    expect(readme).toContain(
      `recovers ${sum(real, "recovered")} of the ${sum(real, "known")} known reviews in the ${real.length} real captures`,
    );
    expect(readme).toContain(
      `${sum(made, "recovered")} of ${sum(made, "known")} on ${made.length} invented pages`,
    );
  });
});
