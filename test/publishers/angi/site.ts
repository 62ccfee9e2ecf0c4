/**
 * Fixture angi.com and homeadvisor.com.
 *
 * Angi: company profile pages (`/companylist/us/<st>/<city>/<slug>-reviews-<id>.htm`) served as the
 * Next.js App Router serves them, the React Server Components stream in `self.__next_f.push([1,"…"])`
 * scripts, with the three components nick-fenech7204/bbb_webscrapper `bbb_scraper/angi/parsing.py`
 * @ec5dc48f (notes of 2026-09-15) reads from real pages, in the rows its reassembled fixture shows
 * (`["$","$L<id>",null,{props}]`): the header (`data-testid: businessProfileHero`, `overallRating`,
 * `reviewCount`), the rating breakdown (`averageRating`, `reviewCount`, `distribution[{star, count,
 * percentage}]`) and the review list (`businessId, currentPage, totalPages, totalCount, pageSize: 25,
 * pageLinkQuery: "$undefined", reviews[{reviewId, reviewerName, rating, ratingLabel, dateLabel,
 * text, isVerified, recommends, costLabel, jobLabel, photoThumbnailUrls, photoFullUrls,
 * photoOverflowCount, responseText, proResponseName}]`). A long review text is a `T` row referenced
 * as `"$<id>"`, as React does with long strings.
 *
 * HomeAdvisor: pro pages (`/rated.<Name>.<spId>.html`) with JSON-LD `@graph` whose business node has
 * `aggregateRating`, and `GET /sm/reviews/<spId>?page=N&sort=newest&pageSize=10` answering
 * `{ratings: [{ratingID, consumerID, consumerName, consumerOverallScore, comment, createDate (epoch
 * ms), consumerCity, consumerState, consumerZip}]}`: sociodevz/topratedbyphilly-review-scraper
 * `reviews/main/sites/homeadvisor.py` @a5b5aa17 and `reviews_formatter.py` @dbf34b1f (2021).
 * Without `sort=newest` the ratings come oldest first here, so a module that forgets it gets the
 * wrong order.
 *
 * Profiles (all reviews invented):
 * - Angi 6480784 (all-affordable-plumbing-inc): 166 counted, the newest 25 on the page.
 * - Angi 7000001 (small-fix-llc): 3 reviews, all on the page.
 * - Angi 7000002 (flip-variant-co): the variant without profile props on the first request, the
 *   full page on the next.
 * - Angi 7000003 (new-co): no reviews yet (`"$undefined"` rating and count, no list).
 * - Angi 7000004 (busy-roofing): 429 every time.
 * - HomeAdvisor 158720676 (AllAffordablePlumbing): 23 ratings, 10 a page; 158720677 (QuietPro): none.
 * Anything else: 404.
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import { ENGLISH_MONTHS as MONTHS } from "../../fixtures/english-dates";

export interface AngiFixtureReview {
  reviewId: string;
  reviewerName: string;
  rating: number;
  dateLabel: string;
  text: string;
  isVerified: boolean;
  photoFullUrls: string[];
  responseText: string;
  proResponseName: string;
}

/** "April 2026" for review i (newest first: one month older every two reviews). */
const monthLabel = (i: number) => {
  const months = 2026 * 12 + 3 - Math.floor(i / 2);
  return `${MONTHS[months % 12]} ${Math.floor(months / 12)}`;
};

export const LONG_TEXT =
  `Cornell and Ricardo were excellent. ${"They explained every step of the repair. ".repeat(30)}`.trim();

function angiReview(i: number, prefix: string): AngiFixtureReview {
  return {
    reviewId: `${prefix}${String(i).padStart(4, "0")}-ab9f-45fc-9296-a4f9aaa51d8d`,
    reviewerName: i === 0 ? "Carl S." : `Reviewer ${i}.`,
    rating: i === 1 ? 4 : 5,
    dateLabel: monthLabel(i),
    text:
      i === 0
        ? "Called to let me know he was on his way.  Was very polite."
        : i === 2
          ? "So much so, I&#39;ve retained their services for another project."
          : i === 3
            ? LONG_TEXT
            : `Review ${i} text.`,
    isVerified: i !== 4,
    photoFullUrls:
      i === 2 ? ["https://media-content-angieslist.s3.amazonaws.com/tampa/1/photo/bcf5f3a6-1.jpg"] : [],
    responseText: i === 2 ? "Thanks for posting this wonderful review!" : "",
    proResponseName: i === 2 ? "All Affordable Plumbing Inc" : "",
  };
}

export const PLUMBING_REVIEWS = Array.from({ length: 25 }, (_, i) => angiReview(i, "d42e"));
export const SMALL_REVIEWS = Array.from({ length: 3 }, (_, i) => angiReview(i, "5a11"));

interface AngiCompany {
  name: string;
  average: number | null;
  count: number | null;
  histogram: number[];
  reviews: AngiFixtureReview[] | null;
}

const COMPANIES: Record<string, AngiCompany> = {
  "6480784": {
    name: "All Affordable Plumbing Inc",
    average: 4.933734939759036,
    count: 166,
    histogram: [0, 0, 1, 9, 156],
    reviews: PLUMBING_REVIEWS,
  },
  "7000001": {
    name: "Small Fix LLC",
    average: 4.67,
    count: 3,
    histogram: [0, 0, 0, 1, 2],
    reviews: SMALL_REVIEWS,
  },
  "7000002": {
    name: "Flip Variant Co",
    average: 4.67,
    count: 3,
    histogram: [0, 0, 0, 1, 2],
    reviews: SMALL_REVIEWS,
  },
  "7000003": { name: "New Co", average: null, count: null, histogram: [], reviews: null },
};

const html = (body: string, status = 200, headers: Record<string, string> = {}): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8", ...headers },
  body,
});
const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});

/** One `self.__next_f.push([1,"…"])` script per chunk: the stream cut at arbitrary points, as Next.js does. */
function flightScripts(stream: string): string {
  const chunks: string[] = [];
  for (let at = 0; at < stream.length; at += 700) chunks.push(stream.slice(at, at + 700));
  return chunks.map((c) => `<script>self.__next_f.push(${JSON.stringify([1, c])})</script>`).join("");
}

const row = (id: string, value: unknown) => `${id}:${JSON.stringify(value)}\n`;
const textRow = (id: string, text: string) =>
  `${id}:T${new TextEncoder().encode(text).length.toString(16)},${text}`;

/** The company's RSC stream: module rows, the hero, the breakdown and the review list, and a root. */
export function angiStream(id: string, company: AngiCompany): string {
  const long = company.reviews?.find((r) => r.text === LONG_TEXT);
  const reviews = company.reviews?.map((r) => ({
    reviewId: r.reviewId,
    reviewerName: r.reviewerName,
    rating: r.rating,
    ratingLabel: String(r.rating),
    dateLabel: r.dateLabel,
    text: r === long ? "$4a" : r.text,
    isVerified: r.isVerified,
    recommends: false,
    costLabel: "$$450",
    jobLabel: "Faucets, Fixtures and Pipes - Repair or Replace",
    photoThumbnailUrls: r.photoFullUrls,
    photoFullUrls: r.photoFullUrls,
    photoOverflowCount: 0,
    responseText: r.responseText,
    proResponseName: r.proResponseName,
  }));
  const chunk = [
    "https://slab-static-assets.angi.com/static/landing-pages-pros/_next/static/chunks/2j6iq17z2idtq.js",
  ];
  return [
    '1:"$Sreact.fragment"\n',
    `3d:I[387168,${JSON.stringify(chunk)},"default"]\n`,
    `3f:I[4694,${JSON.stringify(chunk)},"default"]\n`,
    `40:I[40808,${JSON.stringify(chunk)},"default"]\n`,
    row("0", {
      P: null,
      b: "CXj6QG8Q577kXJugPL4nO",
      c: ["", "companylist", "us"],
      f: [["$L26", "$L2c", "$L2d"]],
    }),
    long ? textRow("4a", LONG_TEXT) : "",
    row("26", [
      "$",
      "$L3d",
      null,
      {
        name: company.name,
        logoUrl: "$undefined",
        overallRating: company.average ?? "$undefined",
        reviewCount: company.count ?? "$undefined",
        isPaidPro: true,
        phoneNumber: "8473210338",
        categories: [{ id: "40356", name: "Gas Piping" }],
        serviceProviderUuid: "cd29af26-1c40-11ee-b010-12f6eb045c11",
        "data-testid": "businessProfileHero",
        "data-snowplow-component-type": "$undefined",
      },
    ]),
    company.count
      ? row("2c", [
          "$",
          "$L3f",
          null,
          {
            averageRating: company.average,
            reviewCount: company.count,
            distribution: company.histogram.map((count, i) => ({
              star: i + 1,
              count,
              percentage: (count / company.count!) * 100,
            })),
            writeAReviewHref: `https://match.angi.com/review/${id}`,
            "data-testid": "reviewBreakdown",
          },
        ])
      : "",
    reviews
      ? row("2d", [
          "$",
          "$L40",
          null,
          {
            businessId: "cd29af26-1c40-11ee-b010-12f6eb045c11",
            currentPage: 1,
            totalPages: Math.ceil((company.count ?? 0) / 25),
            totalCount: company.count,
            pageSize: 25,
            pageLinkQuery: "$undefined",
            isShowImages: true,
            isShowVerifiedReview: true,
            isShowRatings: true,
            reviews,
          },
        ])
      : "",
  ].join("");
}

function angiPage(id: string, company: AngiCompany | null): FixtureResponse {
  const stream = company ? angiStream(id, company) : row("0", { P: null, b: "x", c: ["", "companylist"] });
  return html(
    `<!DOCTYPE html><html lang="en-US"><head><title>${company?.name ?? "Angi"} | Angi</title></head>` +
      `<body><div id="__next"></div>${flightScripts(stream)}</body></html>`,
  );
}

/** HomeAdvisor's ratings, newest first: createDate one week apart from 2026-11-01. */
export const HA_RATINGS = Array.from({ length: 23 }, (_, i) => ({
  ratingID: 90_000_000 + 23 - i,
  consumerID: 5_000_000 + i,
  consumerName: i === 0 ? "Linda V." : `Homeowner ${i}`,
  consumerOverallScore: i === 6 ? 9 : [5, 4, 5, 3][i % 4],
  comment: i === 0 ? "  Fixed the water heater the same day.  " : `Rating ${i}.`,
  createDate: Date.UTC(2026, 10, 1, 15, 0) - i * 7 * 86_400_000,
  consumerCity: "Barrington",
  consumerState: "IL",
  consumerZip: "60010",
}));

const HA_PROS: Record<string, { name: string; ratings: typeof HA_RATINGS }> = {
  "158720676": { name: "AllAffordablePlumbing", ratings: HA_RATINGS },
  "158720677": { name: "QuietPro", ratings: [] },
};

function homeAdvisorPage(name: string, spId: string): FixtureResponse {
  const pro = HA_PROS[spId];
  if (!pro || pro.name !== name) return html("<h1>Page not found</h1>", 404);
  const graph = {
    "@context": "https://schema.org",
    "@graph": [
      { "@type": "WebPage", "@id": `https://www.homeadvisor.com/rated.${name}.${spId}.html#webpage` },
      {
        "@type": "LocalBusiness",
        "@id": `https://www.homeadvisor.com/rated.${name}.${spId}.html`,
        name: "All Affordable Plumbing",
        telephone: "8473210338",
        ...(pro.ratings.length
          ? {
              aggregateRating: {
                "@type": "AggregateRating",
                ratingValue: 4.6,
                reviewCount: pro.ratings.length,
              },
            }
          : {}),
      },
    ],
  };
  return html(
    `<!DOCTYPE html><html lang="en"><head><title>${name} | HomeAdvisor</title>` +
      `<script type="application/ld+json">${JSON.stringify(graph)}</script></head><body></body></html>`,
  );
}

function homeAdvisorRatings(spId: string, url: URL): FixtureResponse {
  const pro = HA_PROS[spId];
  if (!pro) return json({ error: "not found" }, 404);
  const page = Number(url.searchParams.get("page") ?? "1");
  const size = Number(url.searchParams.get("pageSize") ?? "10");
  if (!(page >= 1) || !(size >= 1 && size <= 50)) return json({ error: "bad request" }, 400);
  const ordered = url.searchParams.get("sort") === "newest" ? pro.ratings : [...pro.ratings].reverse();
  return json({ ratings: ordered.slice((page - 1) * size, page * size) });
}

const ANGI_PATH = /^\/companylist\/us\/[a-z]{2}\/[^/]+\/[^/]+-reviews-(\d+)\.htm$/;

const fixture: PublisherFixture = {
  domains: ["angi.com", "homeadvisor.com"],
  // Angi's profile: HomeAdvisor's ratings carry none of the optional fields Angi's do.
  coverageSample: {
    profileUrl:
      "https://www.angi.com/companylist/us/il/barrington/all-affordable-plumbing-inc-reviews-6480784.htm",
  },
  site: ({ url, method, count, host }) => {
    if (method !== "GET") return json({ error: "Method Not Allowed" }, 405);
    if (host.endsWith("homeadvisor.com")) {
      const api = /^\/sm\/reviews\/(\d+)$/.exec(url.pathname);
      if (api) return homeAdvisorRatings(api[1], url);
      const page = /^\/rated\.([A-Za-z0-9_-]+)\.(\d+)\.html$/.exec(url.pathname);
      return page ? homeAdvisorPage(page[1], page[2]) : html("<h1>Page not found</h1>", 404);
    }
    const id = ANGI_PATH.exec(url.pathname)?.[1];
    if (id === "7000004") return html("<h1>Too Many Requests</h1>", 429, { "Retry-After": "30" });
    if (id === "7000002" && count === 1) return angiPage(id, null);
    const company = id ? COMPANIES[id] : undefined;
    return company ? angiPage(id!, company) : html("<h1>Page not found</h1>", 404);
  },
};

export default fixture;
