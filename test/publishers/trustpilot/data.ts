/**
 * Trustpilot page data for the fixture site and the parser tests.
 *
 * Structure copied from public sources (values are made up):
 * - scrapfly/scrapfly-scrapers, trustpilot-scraper/trustpilot.py and results/reviews.json: the
 *   profile page's `<script id="__NEXT_DATA__">` → props.pageProps.reviews[] with id, text, title,
 *   rating, language, dates {experiencedDate, publishedDate, updatedDate}, consumer {id,
 *   displayName, countryCode, ...}, labels.verification, reply; filters.pagination.totalPages;
 *   results/search.json: businesses with businessUnitId, identifyingName, displayName, location
 *   {address, city, zipCode, country}, contact {website}.
 * - A public TypeScript typing of the page data ("TrustpilotResponse": businessUnit, reviews,
 *   relevantReviews, filters {pagination {currentPage, perPage, totalCount, totalPages}, selected
 *   {languages, sort}}, seoData), and a public scraper's fixture showing
 *   reply {message, publishedDate} and the sign-in redirect of deep pages
 *   (pageProps.__N_REDIRECT "/users/connect?redirect=…", status 307).
 * - Public scrapers reading the search page (`/search?query=`) as props.pageProps.businessUnits[].
 * Not verified: whether the search page wraps its list ({businesses: [...]}) as category pages do
 * (the module reads both), and whether review data ever carries a translation (none seen: the
 * text is the reviewer's own; the fixture's Danish review shows it is kept as written).
 */

export interface FixtureTrustpilotReview {
  id: string;
  filtered: boolean;
  pending: boolean;
  text: string;
  rating: number;
  labels: {
    merged: null;
    verification: {
      isVerified: boolean;
      createdDateTime: string;
      reviewSourceName: string;
      verificationSource: string;
      verificationLevel: string;
      hasDachExclusion: boolean;
    };
  };
  title: string;
  likes: number;
  dates: { experiencedDate: string; publishedDate: string; updatedDate: string | null };
  report: null;
  hasUnhandledReports: boolean;
  consumer: {
    id: string;
    displayName: string;
    imageUrl: string;
    numberOfReviews: number;
    countryCode: string;
    hasImage: boolean;
    isVerified: boolean;
  };
  reply: { message: string; publishedDate: string; updatedDate: string | null } | null;
  consumersReviewCountOnSameDomain: number;
  consumersReviewCountOnSameLocation: null;
  productReviews: never[];
  language: string;
  location: null;
}

function review(
  id: string,
  published: string,
  author: string,
  rating: number,
  title: string,
  text: string,
  extra: { language?: string; reply?: { message: string; publishedDate: string } } = {},
): FixtureTrustpilotReview {
  return {
    id,
    filtered: false,
    pending: false,
    text,
    rating,
    labels: {
      merged: null,
      verification: {
        isVerified: true,
        createdDateTime: published,
        reviewSourceName: "InvitationLinkApi",
        verificationSource: "invitation",
        verificationLevel: "invited",
        hasDachExclusion: false,
      },
    },
    title,
    likes: 0,
    dates: {
      experiencedDate: `${published.slice(0, 10)}T00:00:00.000Z`,
      publishedDate: published,
      updatedDate: null,
    },
    report: null,
    hasUnhandledReports: false,
    consumer: {
      id: `c0${id.slice(2)}`,
      displayName: author,
      imageUrl: "",
      numberOfReviews: 2,
      countryCode: "US",
      hasImage: false,
      isVerified: false,
    },
    reply: extra.reply ? { ...extra.reply, updatedDate: null } : null,
    consumersReviewCountOnSameDomain: 1,
    consumersReviewCountOnSameLocation: null,
    productReviews: [],
    language: extra.language ?? "en",
    location: null,
  };
}

/** Ten reviews, newest first (the order `sort=recency` gives). */
export const REVIEWS: FixtureTrustpilotReview[] = [
  review(
    "6650a1f2000000000000000a",
    "2026-10-30T18:04:11.000Z",
    "Dana K.",
    5,
    "Best flat white in town",
    "Best flat white in town. The oat milk one is even better.",
  ),
  review(
    "6650a1f2000000000000000b",
    "2026-10-28T09:15:00.000Z",
    "Mikkel Sørensen",
    4,
    "Hyggelig café",
    "Hyggelig café med god kaffe og venligt personale. Vi kommer igen næste gang vi er i byen.",
    { language: "da" },
  ),
  review(
    "6650a1f2000000000000000c",
    "2026-10-20T12:00:00.000Z",
    "Ron P.",
    2,
    "Cold food",
    "Waited forty minutes and the eggs came cold.\n\nNot what I expected.",
    {
      reply: {
        message: "Sorry, Ron. We had two cooks out that morning; please ask for Sam next time.",
        publishedDate: "2026-10-21T08:30:00.000Z",
      },
    },
  ),
  review(
    "6650a1f2000000000000000d",
    "2026-10-11T07:45:30.000Z",
    "Amelia",
    5,
    "Lovely staff",
    "Lovely staff and a cosy corner to read in.",
  ),
  review("6650a1f2000000000000000e", "2026-09-30T16:20:00.000Z", "J. Osei", 3, "Rated 3 stars", ""),
  review(
    "6650a1f2000000000000000f",
    "2026-09-14T10:00:00.000Z",
    "Lena Hoffmann",
    5,
    "Sehr gut",
    "Sehr guter Kaffee und freundliche Bedienung. Gerne wieder, wenn ich in San Francisco bin.",
    { language: "de" },
  ),
  review(
    "6650a1f20000000000000010",
    "2026-08-02T13:13:13.000Z",
    "Tom W",
    1,
    "Overpriced",
    "Six dollars for a small drip coffee.",
  ),
  review(
    "6650a1f20000000000000011",
    "2026-07-19T08:00:00.000Z",
    "Priya",
    4,
    "Good pastries",
    "Good pastries, the croissants sell out early.",
  ),
  review(
    "6650a1f20000000000000012",
    "2026-06-01T09:30:00.000Z",
    "Marco",
    5,
    "Great espresso",
    "Great espresso, friendly baristas.",
  ),
  review(
    "6650a1f20000000000000013",
    "2026-05-05T17:00:00.000Z",
    "Old Timer",
    4,
    "Still good",
    "Still my favourite place after all these years.",
  ),
];

/** The "most relevant" block: reviews from elsewhere in the list, plus one the list does not show on this page. */
export const RELEVANT = [
  REVIEWS[6],
  review(
    "6650a1f2000000000000ffff",
    "2026-04-01T10:00:00.000Z",
    "Featured Reviewer",
    5,
    "Featured",
    "This block is not the list.",
  ),
];

export const PER_PAGE = 4;

/** Trustpilot's own page size, used by the long profiles past the signed-out cap. */
export const LONG_PER_PAGE = 20;

/**
 * A long profile's reviews, newest first, one an hour back from 2026-11-20: `ratingOf(i)` gives the
 * i-th review's stars. Ids are 24-hex like Trustpilot's (`prefix` keeps profiles apart).
 */
export function longProfile(
  count: number,
  prefix: string,
  ratingOf: (i: number) => number,
): FixtureTrustpilotReview[] {
  const newest = Date.UTC(2026, 10, 20, 12, 0, 0);
  return Array.from({ length: count }, (_, i) => {
    const id = `${prefix}${i.toString(16).padStart(24 - prefix.length, "0")}`;
    const published = new Date(newest - i * 3_600_000).toISOString();
    return review(id, published, `Guest ${i + 1}`, ratingOf(i), `Visit ${i + 1}`, `Review number ${i + 1}.`);
  });
}

export interface SearchUnit {
  businessUnitId: string;
  stars: number;
  identifyingName: string;
  displayName: string;
  logoUrl: string;
  numberOfReviews: number;
  trustScore: number;
  location: { address: string | null; city: string | null; zipCode: string | null; country: string };
  isRecommendedInCategories: boolean;
  contact: { website: string; email: string | null; phone: string | null };
  categories: { categoryId: string; displayName: string; isPredicted: boolean }[];
}

function unit(
  id: string,
  identifyingName: string,
  displayName: string,
  location: SearchUnit["location"],
): SearchUnit {
  return {
    businessUnitId: id,
    stars: 4.5,
    identifyingName,
    displayName,
    logoUrl: `//s3-eu-west-1.amazonaws.com/tpd/screenshotlogo-domain/${id}/198x149.png`,
    numberOfReviews: 10,
    trustScore: 4.3,
    location,
    isRecommendedInCategories: false,
    contact: { website: `http://${identifyingName}`, email: null, phone: null },
    categories: [{ categoryId: "cafe", displayName: "Cafe", isPredicted: false }],
  };
}

/**
 * Search results for "Blue Door Cafe" (1 Market St, 94105): namesakes elsewhere, a neighbour with
 * another name, one without an address, and the business itself written with an accent, the long
 * street form and a suite.
 */
export const SEARCH_RESULTS: SearchUnit[] = [
  unit("5b0000000000000000000001", "bluedoorcafe-oakland.com", "Blue Door Cafe", {
    address: "500 Broadway",
    city: "Oakland",
    zipCode: "94607",
    country: "United States",
  }),
  unit("5b0000000000000000000002", "bluedoorbakery.com", "Blue Door Bakery", {
    address: "1 Market St",
    city: "San Francisco",
    zipCode: "94105",
    country: "United States",
  }),
  unit("5b0000000000000000000003", "bluedoorcafe.net", "Blue Door Cafe Ltd", {
    address: null,
    city: null,
    zipCode: null,
    country: "United States",
  }),
  unit("5b0000000000000000000004", "www.lookup-bluedoor.com", "Blue Door Café", {
    address: "1 Market Street, Suite 2",
    city: "San Francisco",
    zipCode: "94105 ",
    country: "United States",
  }),
  unit("5b0000000000000000000005", "bluedoorcafe.co.uk", "Blue Door Cafe", {
    address: "1 Market St",
    city: "London",
    zipCode: "EC1A 1BB",
    country: "United Kingdom",
  }),
];
