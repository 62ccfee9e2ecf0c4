/**
 * Fixture data of the Tripadvisor fixture site: locations and their reviews in the shape the site's
 * review list query answers with.
 *
 * Sources of the structure (copied, not the code):
 * - Review list request and answer: algo7/TripAdvisor-Review-Scraper, scraper/pkg/tripadvisor/models.go
 *   (`data.ReviewsProxy_getReviewListPageForLocation[0]` with `totalCount` and `reviews`, the older
 *   `data.locations[0].reviewListPage`, review fields id, status, createdDate, publishedDate, rating,
 *   title, language, text, userProfile {id, displayName, username, route.url}, tripInfo), and the
 *   response.json sample in a public Apify actor write-up (tripadvisor-reviews-scraper-python-crawlee-camoufox)
 *   adding originalLanguage, reviewDetailPageWrapper.reviewDetailPageRoute.url and mgmtResponse
 *   {id, text, language, publishedDate, connectionToSubject, userProfile.displayName}; the variables
 *   (locationId, offset, limit, filters, sortBy, language, locale, doMachineTranslation,
 *   photosPerReviewLimit) and the `preRegisteredQueryId` from the same sources and
 *   scrapfly/scrapfly-scrapers tripadvisor-scraper (older versions).
 * - Not verified against the live site: what `text`/`language` hold for a review written in another
 *   language when doMachineTranslation is false (modelled here as the original text and language,
 *   while `true` swaps in the translation as the live sample shows), and whether the current
 *   operation honours `offset` (one write-up says it returns the newest 20 whatever the offset).
 */

export interface FixtureTaReview {
  id: number;
  status: "PUBLISHED";
  reviewDetailPageWrapper: { reviewDetailPageRoute: { url: string } };
  createdDate: string;
  publishedDate: string;
  userProfile: {
    id: string;
    displayName: string;
    username: string;
    route: { url: string };
    contributionCounts: { sumAllUgc: number };
  };
  rating: number;
  title: string;
  language: string;
  originalLanguage: string;
  text: string;
  /** Only in the fixture: what the site shows with doMachineTranslation on, for a review in another language. */
  machineTranslation?: { text: string; title: string; language: string };
  helpfulVotes: number;
  tripInfo: { stayDate: string; tripType: string } | null;
  mgmtResponse: {
    id: number;
    text: string;
    language: string;
    publishedDate: string;
    connectionToSubject: "Owner";
    userProfile: { displayName: string };
  } | null;
}

export interface FixtureLocation {
  locationId: number;
  geoId: number;
  kind: "Hotel" | "Restaurant" | "Attraction";
  slug: string;
  name: string;
  /** How the location's page or review list misbehaves, if it does. */
  behaviour?:
    | "captcha-page"
    | "graphql-403"
    | "changed-structure"
    | "distrusted"
    | "review-without-rating"
    | "lists-none"
    | "or-pages-repeat";
  reviews: FixtureTaReview[];
}

export function locationPath(
  location: Pick<FixtureLocation, "kind" | "geoId" | "locationId" | "slug">,
): string {
  return `/${location.kind}_Review-g${location.geoId}-d${location.locationId}-Reviews-${location.slug}.html`;
}

function review(
  location: Pick<FixtureLocation, "geoId" | "locationId" | "slug">,
  fields: {
    id: number;
    date: string;
    rating: number;
    author: string;
    username: string;
    title: string;
    text: string;
    language?: string;
  } & Partial<FixtureTaReview>,
): FixtureTaReview {
  const { id, date, rating, author, username, title, text, language = "en", ...rest } = fields;
  return {
    id,
    status: "PUBLISHED",
    reviewDetailPageWrapper: {
      reviewDetailPageRoute: {
        url: `/ShowUserReviews-g${location.geoId}-d${location.locationId}-r${id}-${location.slug}.html`,
      },
    },
    createdDate: date,
    publishedDate: date,
    userProfile: {
      id: `UID${id}`,
      displayName: author,
      username,
      route: { url: `/Profile/${username}` },
      contributionCounts: { sumAllUgc: 3 },
    },
    rating,
    title,
    language,
    originalLanguage: language,
    text,
    helpfulVotes: 0,
    tripInfo: { stayDate: date.slice(0, 7) + "-01", tripType: "COUPLES" },
    mgmtResponse: null,
    ...rest,
  };
}

const reply = (id: number, text: string, publishedDate: string): FixtureTaReview["mgmtResponse"] => ({
  id,
  text,
  language: "en",
  publishedDate,
  connectionToSubject: "Owner",
  userProfile: { displayName: "Front Office Manager" },
});

/** "2026-11-20" minus `days` days. */
function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

const HOTEL = {
  locationId: 1001,
  geoId: 60713,
  kind: "Hotel",
  slug: "Blue_Door_Hotel-San_Francisco_California",
  name: "Blue Door Hotel",
} as const;

/** 45 reviews, newest first: a reply, a review in German, one without text, a reply to a bad one, then ordinary ones. */
const HOTEL_REVIEWS: FixtureTaReview[] = [
  review(HOTEL, {
    id: 945000045,
    date: "2026-11-20",
    rating: 5,
    author: "Dana K",
    username: "danak",
    title: "Quiet gem",
    text: "Lovely rooms and a quiet courtyard.\nWe will be back.",
    mgmtResponse: reply(5001, "Thank you Dana, see you again soon.", "2026-11-21"),
  }),
  review(HOTEL, {
    id: 945000044,
    date: "2026-11-18",
    rating: 4,
    author: "Jonas M",
    username: "jonasm",
    title: "Gutes Frühstück",
    text: "Sehr freundliches Personal und ein gutes Frühstück.",
    language: "de",
    machineTranslation: {
      text: "Very friendly staff and a good breakfast.",
      title: "Good breakfast",
      language: "en",
    },
  }),
  // No date of stay given.
  review(HOTEL, {
    id: 945000043,
    date: "2026-11-16",
    rating: 3,
    author: "Sam P",
    username: "samp",
    title: "OK stay",
    text: "",
    tripInfo: null,
  }),
  review(HOTEL, {
    id: 945000042,
    date: "2026-11-14",
    rating: 1,
    author: "Lee R",
    username: "leer",
    title: "Noisy",
    text: "Noisy street side room, thin walls.",
    mgmtResponse: reply(
      5002,
      "We are sorry, Lee. Quiet rooms face the courtyard; please ask for one.",
      "2026-11-15",
    ),
  }),
  ...Array.from({ length: 41 }, (_, i) => {
    const n = 41 - i;
    return review(HOTEL, {
      id: 945000000 + n,
      date: daysBefore("2026-11-12", i * 2),
      rating: (n % 5) + 1,
      author: `Guest ${n}`,
      username: `guest${n}`,
      title: `Stay ${n}`,
      text: `Review number ${n}: clean room, friendly desk.`,
    });
  }),
];

const MUSEUM = {
  locationId: 1003,
  geoId: 187323,
  kind: "Attraction",
  slug: "Museum_Island-Berlin",
  name: "Museum Island",
} as const;
const CAFE = {
  locationId: 1010,
  geoId: 60713,
  kind: "Restaurant",
  slug: "Blue_Door_Cafe-San_Francisco_California",
  name: "Blue Door Cafe",
} as const;

/**
 * The location of the collection-option tests (test/e2e/collection-options.test.ts): 45 reviews, one
 * a day back from 2026-11-12 (the review list's 20, then -or20-, -or30-, -or40- pages). Its own
 * location id, so its request counts are those tests' own.
 */
export const OPTIONS_INN = {
  locationId: 1099,
  geoId: 60713,
  kind: "Hotel",
  slug: "Options_Test_Inn-San_Francisco_California",
  name: "Options Test Inn",
} as const;

const OPTIONS_INN_REVIEWS: FixtureTaReview[] = Array.from({ length: 45 }, (_, i) => {
  const n = 45 - i;
  return review(OPTIONS_INN, {
    id: 946000000 + n,
    date: daysBefore("2026-11-12", i),
    rating: (n % 5) + 1,
    author: `Visitor ${n}`,
    username: `visitor${n}`,
    title: `Night ${n}`,
    text: `Options review ${n}: quiet room, good breakfast.`,
  });
});

export const LOCATIONS: FixtureLocation[] = [
  { ...HOTEL, reviews: HOTEL_REVIEWS },
  { ...OPTIONS_INN, reviews: OPTIONS_INN_REVIEWS },
  {
    locationId: 1002,
    geoId: 60713,
    kind: "Restaurant",
    slug: "Quiet_Corner_Deli-San_Francisco_California",
    name: "Quiet Corner Deli",
    reviews: [],
  },
  {
    ...MUSEUM,
    reviews: [
      review(MUSEUM, {
        id: 310000003,
        date: "2026-10-02",
        rating: 5,
        author: "Ana B",
        username: "anab",
        title: "Superb",
        text: "Five museums, one island, a whole day.",
        language: "en",
      }),
      review(MUSEUM, {
        id: 310000002,
        date: "2026-09-12",
        rating: 4,
        author: "Pierre L",
        username: "pierrel",
        title: "Très beau",
        text: "Très beau musée, un peu de monde.",
        language: "fr",
      }),
      review(MUSEUM, {
        id: 310000001,
        date: "2026-08-30",
        rating: 2,
        author: "Mia S",
        username: "mias",
        title: "Voll",
        text: "Viel zu voll am Wochenende.",
        language: "de",
      }),
    ],
  },
  {
    locationId: 1004,
    geoId: 60713,
    kind: "Hotel",
    slug: "Captcha_Hotel-San_Francisco_California",
    name: "Captcha Hotel",
    behaviour: "captcha-page",
    reviews: [],
  },
  {
    locationId: 1005,
    geoId: 60713,
    kind: "Hotel",
    slug: "Shielded_Hotel-San_Francisco_California",
    name: "Shielded Hotel",
    behaviour: "graphql-403",
    reviews: [],
  },
  {
    locationId: 1006,
    geoId: 60713,
    kind: "Hotel",
    slug: "Changed_Hotel-San_Francisco_California",
    name: "Changed Hotel",
    behaviour: "changed-structure",
    reviews: HOTEL_REVIEWS.slice(0, 3),
  },
  {
    locationId: 1007,
    geoId: 60713,
    kind: "Hotel",
    slug: "Rotated_Hotel-San_Francisco_California",
    name: "Rotated Hotel",
    behaviour: "distrusted",
    reviews: HOTEL_REVIEWS.slice(0, 3),
  },
  {
    locationId: 1008,
    geoId: 60713,
    kind: "Hotel",
    slug: "Odd_Hotel-San_Francisco_California",
    name: "Odd Hotel",
    behaviour: "review-without-rating",
    reviews: HOTEL_REVIEWS.slice(0, 3),
  },
  {
    locationId: 1011,
    geoId: 60713,
    kind: "Hotel",
    slug: "Echo_Hotel-San_Francisco_California",
    name: "Echo Hotel",
    behaviour: "or-pages-repeat",
    reviews: HOTEL_REVIEWS.slice(0, 35),
  },
  {
    locationId: 1009,
    geoId: 60713,
    kind: "Hotel",
    slug: "Hollow_Hotel-San_Francisco_California",
    name: "Hollow Hotel",
    behaviour: "lists-none",
    reviews: HOTEL_REVIEWS.slice(0, 3),
  },
  {
    ...CAFE,
    reviews: [
      review(CAFE, {
        id: 720000002,
        date: "2026-11-01",
        rating: 5,
        author: "Kim T",
        username: "kimt",
        title: "Best brunch",
        text: "Best brunch on Market Street.",
      }),
      review(CAFE, {
        id: 720000001,
        date: "2026-10-20",
        rating: 4,
        author: "Ravi N",
        username: "ravin",
        title: "Good coffee",
        text: "Good coffee, small tables.",
      }),
    ],
  },
];

/**
 * Type-ahead search listings (GET /TypeAheadJson?action=API&details=true): the shape scrapers of
 * the search box record (`results[]` with url, name, type, value, details); details.name and
 * details.address are modelled on the hotel search answers and were not verified live.
 */
export interface FixtureListing {
  url: string;
  name: string;
  type: "HOTEL" | "EATERY" | "ATTRACTION" | "GEO";
  value: number;
  details: { name: string; address: string; parent_name: string } | null;
}

const listing = (
  location: Pick<FixtureLocation, "kind" | "geoId" | "locationId" | "slug">,
  type: FixtureListing["type"],
  name: string,
  address: string,
  city: string,
): FixtureListing => ({
  url: locationPath(location),
  name: `${name}, ${city}`,
  type,
  value: location.locationId,
  details: { name, address, parent_name: city },
});

/** Search results in the site's order: the decoys come first. */
export const LISTINGS: FixtureListing[] = [
  {
    url: "/Tourism-g60713-San_Francisco_California-Vacations.html",
    name: "San Francisco, California",
    type: "GEO",
    value: 60713,
    details: null,
  },
  listing(
    { kind: "Restaurant", geoId: 32999, locationId: 2001, slug: "Blue_Door_Cafe_Bar-Santa_Cruz_California" },
    "EATERY",
    "Blue Door Café & Bar",
    "77 Pier Rd, Santa Cruz, CA 95060",
    "Santa Cruz",
  ),
  listing(
    { kind: "Restaurant", geoId: 32810, locationId: 2002, slug: "Blue_Door_Cafe-Oakland_California" },
    "EATERY",
    "Blue Door Cafe",
    "500 Other St, Oakland, CA 94607",
    "Oakland",
  ),
  listing(
    { kind: "Restaurant", geoId: 60713, locationId: 2003, slug: "Red_Door_Cafe-San_Francisco_California" },
    "EATERY",
    "Red Door Cafe",
    "1 Market St, San Francisco, CA 94105",
    "San Francisco",
  ),
  listing(
    { kind: "Hotel", geoId: 60713, locationId: 1001, slug: HOTEL.slug },
    "HOTEL",
    "Blue Door Hotel",
    "20 Mission Street, San Francisco, CA 94105",
    "San Francisco",
  ),
  listing(
    CAFE,
    "EATERY",
    "The Blue Door Cafe",
    "1 Market Street, San Francisco, CA 94105-1420",
    "San Francisco",
  ),
  listing(
    { kind: "Restaurant", geoId: 60745, locationId: 2004, slug: "Green_Lantern_Bistro-Boston_Massachusetts" },
    "EATERY",
    "Green Lantern Bistro",
    "12 High St, Boston, MA 02110",
    "Boston",
  ),
  listing(
    {
      kind: "Restaurant",
      geoId: 60713,
      locationId: 2005,
      slug: "Green_Lantern_Pub-San_Francisco_California",
    },
    "EATERY",
    "Green Lantern Pub",
    "9 Hayes St, San Francisco, CA 94102",
    "San Francisco",
  ),
];
