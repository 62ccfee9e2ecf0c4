/**
 * Fixture data of the Booking.com fixture site: hotels and their review cards in the shape the
 * `ReviewList` GraphQL operation answers with.
 *
 * Sources of the structure (copied, not the code): the ReviewList query text and request
 * (`operationName: "ReviewList"`, `variables.input` {hotelId, ufi, hotelCountryCode, sorter
 * ("MOST_RELEVANT" / "NEWEST_FIRST"), filters {text}, skip, limit, upsortReviewUrl}, POST
 * /dml/graphql) and the answer `data.reviewListFrontend` (`ReviewListFrontendResult` with
 * reviewsCount and reviewCard[] {reviewUrl, guestDetails {username, countryCode, countryName,
 * anonymous}, bookingDetails {checkinDate, checkoutDate, numNights, roomType}, reviewedDate,
 * reviewScore, textDetails {title, positiveText, negativeText, lang}, partnerReply {reply}}, or
 * `ReviewsFrontendError` {statusCode, message}) as recorded by public Booking review scrapers (a
 * Python `APIFetcher` with the full REVIEW_LIST_QUERY, a data-minimised `collector` client, and a
 * TypeScript MCP tool formatting `reviewedDate * 1000`); hotel ids from the hotel page's hidden
 * `hotel_id` and `dest_id` inputs (CaptainGouzMoew/Booking.com-Crawler, crawl_element.py).
 * `helpfulVotesCount` and `photos` [{id, kind, urls: [{size, url}]}] (the guest's own photos, three
 * sizes each) as the real capture of ./capture-hotel_review.json carries them (see ./SOURCE.md).
 * Not verified live: the exact form of reviewUrl (modelled as Booking's 16-hex review key) and of
 * textDetails.lang (modelled as "en", "de", "fr").
 */

export interface FixtureCard {
  reviewUrl: string;
  guestDetails: {
    username: string;
    countryCode: string;
    countryName: string;
    anonymous: boolean;
    avatarUrl: string | null;
  };
  bookingDetails: {
    customerType: string;
    roomType: { id: number; name: string };
    checkinDate: string | null;
    checkoutDate: string | null;
    numNights: number;
    stayStatus: string;
  };
  reviewedDate: number;
  isTranslatable: boolean;
  helpfulVotesCount: number;
  reviewScore: number;
  textDetails: {
    title: string;
    positiveText: string | null;
    negativeText: string | null;
    textTrivialFlag: number;
    lang: string;
  };
  isApproved: boolean;
  partnerReply: { reply: string } | null;
  photos: FixturePhoto[] | null;
}

/** A guest's photo on a review card: Booking's `ReviewPhoto`, one URL per size. */
export interface FixturePhoto {
  id: number;
  kind: "PROPERTY";
  urls: { size: "max1280x900" | "square80" | "square160"; url: string }[];
}

/** A review photo in the three sizes the real capture lists, on Booking's image host. */
export function photo(id: number): FixturePhoto {
  const url = (size: string) =>
    `https://cf.bstatic.com/xdata/images/xphoto/${size}/${id}.jpg?k=${id.toString(16)}&o=`;
  return {
    id,
    kind: "PROPERTY",
    urls: [
      { size: "max1280x900", url: url("max1280x900") },
      { size: "square80", url: url("square80") },
      { size: "square160", url: url("square144") },
    ],
  };
}

export interface FixtureHotel {
  hotelId: number;
  ufi: number;
  countryCode: string;
  slug: string;
  name: string;
  behaviour?: "challenge" | "no-ids" | "inline-ids" | "frontend-error" | "changed-structure" | "lists-none";
  cards: FixtureCard[];
}

export const hotelPath = (hotel: Pick<FixtureHotel, "countryCode" | "slug">) =>
  `/hotel/${hotel.countryCode}/${hotel.slug}.html`;

const epoch = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

function card(
  n: number,
  date: string,
  fields: Partial<FixtureCard> & {
    text?: Partial<FixtureCard["textDetails"]>;
    guest?: Partial<FixtureCard["guestDetails"]>;
  } = {},
): FixtureCard {
  const { text, guest, ...rest } = fields;
  return {
    reviewUrl: `b0c0ffee${n.toString(16).padStart(8, "0")}`,
    guestDetails: {
      username: `Guest ${n}`,
      countryCode: "gb",
      countryName: "United Kingdom",
      anonymous: false,
      avatarUrl: null,
      ...guest,
    },
    bookingDetails: {
      customerType: "COUPLE",
      roomType: { id: 1, name: "Double Room" },
      // A two-night stay that ended two days before the review.
      checkinDate: daysBefore(date, 4),
      checkoutDate: daysBefore(date, 2),
      numNights: 2,
      stayStatus: "stayed",
    },
    reviewedDate: epoch(date) + 3600 * 9 + n,
    isTranslatable: true,
    helpfulVotesCount: 0,
    reviewScore: 8,
    textDetails: {
      title: `Stay ${n}`,
      positiveText: `Breakfast number ${n} was fresh.`,
      negativeText: null,
      textTrivialFlag: 0,
      lang: "en",
      ...text,
    },
    isApproved: true,
    partnerReply: null,
    photos: null,
    ...rest,
  };
}

function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** 23 cards, newest first: both texts with a reply, German, title only, negative only, then ordinary ones. */
const HARBOUR_CARDS: FixtureCard[] = [
  card(23, "2026-11-19", {
    reviewScore: 9.2,
    text: {
      title: "Superb",
      positiveText: "Harbour view and a quiet room.",
      negativeText: "Parking is expensive.",
    },
    guest: { username: "Olivia", countryCode: "ie", countryName: "Ireland" },
    partnerReply: { reply: "Dear Olivia, thank you! Ask us for the parking discount next time." },
    helpfulVotesCount: 3,
    photos: [photo(634208906), photo(634208907)],
  }),
  card(22, "2026-11-17", {
    reviewScore: 7.5,
    text: {
      title: "Gut",
      positiveText: "Sehr sauber und ruhig.",
      negativeText: "Das Frühstück war teuer.",
      lang: "de",
    },
    guest: { username: "Klaus", countryCode: "de", countryName: "Germany" },
  }),
  // No check-in date, and a country Booking codes outside ISO 3166-1 ("xk", Kosovo).
  card(21, "2026-11-15", {
    reviewScore: 10,
    text: { title: "Exceptional", positiveText: null, negativeText: null },
    guest: { username: "Arben", countryCode: "xk", countryName: "Kosovo" },
    bookingDetails: {
      customerType: "SOLO_TRAVELLER",
      roomType: { id: 1, name: "Double Room" },
      checkinDate: null,
      checkoutDate: null,
      numNights: 1,
      stayStatus: "stayed",
    },
  }),
  card(20, "2026-11-13", {
    reviewScore: 4,
    text: { title: "Disappointing", positiveText: null, negativeText: "Noisy air conditioning all night." },
    guest: { username: "Anonymous", anonymous: true, countryCode: "", countryName: "" },
  }),
  ...Array.from({ length: 19 }, (_, i) =>
    card(19 - i, daysBefore("2026-11-11", i * 2), { reviewScore: [6, 8, 9, 1, 2.5][i % 5] }),
  ),
];

export const HOTELS: FixtureHotel[] = [
  {
    hotelId: 501,
    ufi: -2601889,
    countryCode: "gb",
    slug: "harbour-view",
    name: "Harbour View Hotel",
    cards: HARBOUR_CARDS,
  },
  { hotelId: 502, ufi: -2601889, countryCode: "gb", slug: "brand-new-inn", name: "Brand New Inn", cards: [] },
  {
    hotelId: 503,
    ufi: -2601889,
    countryCode: "gb",
    slug: "waf-hotel",
    name: "WAF Hotel",
    behaviour: "challenge",
    cards: [],
  },
  {
    hotelId: 504,
    ufi: -2601889,
    countryCode: "gb",
    slug: "bare-hotel",
    name: "Bare Hotel",
    behaviour: "no-ids",
    cards: [],
  },
  {
    hotelId: 505,
    ufi: -2601889,
    countryCode: "gb",
    slug: "error-hotel",
    name: "Error Hotel",
    behaviour: "frontend-error",
    cards: HARBOUR_CARDS.slice(0, 2),
  },
  {
    hotelId: 506,
    ufi: -2601889,
    countryCode: "gb",
    slug: "changed-hotel",
    name: "Changed Hotel",
    behaviour: "changed-structure",
    cards: HARBOUR_CARDS.slice(0, 2),
  },
  {
    hotelId: 507,
    ufi: -2601889,
    countryCode: "gb",
    slug: "hollow-hotel",
    name: "Hollow Hotel",
    behaviour: "lists-none",
    cards: HARBOUR_CARDS.slice(0, 2),
  },
  // Ids only in the inline page settings (`b_hotel_id`, `b_ufi`), no hidden inputs.
  {
    hotelId: 508,
    ufi: -2601890,
    countryCode: "gb",
    slug: "inline-hotel",
    name: "Inline Hotel",
    behaviour: "inline-ids",
    cards: HARBOUR_CARDS.slice(0, 12),
  },
];

/** The page's `b_csrf_token` (invented value), which the review list wants back as `x-booking-csrf-token`. */
export const csrfOf = (hotel: Pick<FixtureHotel, "hotelId">) =>
  `eyJhbGciOiJIUzUxMiJ9.${hotel.hotelId}.csrf-fixture`;
