/**
 * Review data of the yelp.com fixture site, in the shape of the `GetBusinessReviewFeed` answer's
 * review nodes (`data.business.reviews.edges[].node`). Field names and nesting copy
 * scrapfly/scrapfly-scrapers yelp-scraper (yelp.py `parse_review_data`, results/reviews.json):
 * `encid`, `text.full` / `text.language`, `rating`, `createdAt.utcDateTime`, `author.encid` /
 * `author.displayName`. Not verified against the live site: the owner reply's shape
 * (`businessUserReplies[]` with `text.full` and `createdAt.utcDateTime`, modelled on the review node
 * itself) and a review without text (`text: null`).
 */

export interface FixtureNode {
  encid: string;
  rating: number;
  createdAt: string;
  author: { encid: string; displayName: string };
  /** null: a review without text. */
  text: { full: string; language: string } | null;
  /** What Yelp shows when the reader asks for a translation (`isTranslating: true`). */
  translated?: { full: string; language: string };
  reply?: { full: string; createdAt: string };
  /** Ids of the reviewer's photos of the business (`businessPhotos`). */
  photos?: string[];
}

/** A review photo's URL on Yelp's image host, in the size the real capture shows (348s). */
export const photoUrl = (id: string) => `https://s3-media0.fl.yelpcdn.com/bphoto/${id}/348s.jpg`;

const AUTHORS = ["Dana K.", "Luis M.", "Priya S.", "Tom B.", "Mei L.", "Ana R.", "Sam O.", "Jo W."];
const TEXTS = [
  "Best flat white in town. The baristas remember your order.",
  "Good pastries, slow service on weekends.",
  "Quiet in the mornings, perfect for working.",
  "The cinnamon buns sell out early, come before nine.",
  "Friendly staff and fair prices.",
];

/** 23 reviews, newest first (three feed pages of 10, 10 and 3), one every 41 hours from 2026-10-30. */
export const REVIEWS: FixtureNode[] = Array.from({ length: 23 }, (_, i) => {
  const created = new Date(Date.UTC(2026, 9, 30, 18, 4, 11) - i * 41 * 3600_000)
    .toISOString()
    .replace(".000Z", "Z");
  return {
    encid: `rv${String(i).padStart(2, "0")}_${"AbCdEfGhIjKlMnOpQr".slice(0, 16)}`,
    rating: [5, 4, 3, 5, 2, 1][i % 6],
    createdAt: created,
    author: {
      encid: `us${String(i % AUTHORS.length)}_XyZ1234567890abc`,
      displayName: AUTHORS[i % AUTHORS.length],
    },
    text: { full: `${TEXTS[i % TEXTS.length]} (visit ${23 - i})`, language: "en" },
  };
});

// The newest review has the owner's reply.
REVIEWS[0].reply = {
  full: "Thank you Dana! See you tomorrow.\nThe Blue Door team",
  createdAt: "2026-10-31T09:15:00Z",
};
// A review written in German: the feed gives the original; a translation only when asked for one.
REVIEWS[2].text = {
  full: "Der beste Kaffee in der Stadt, freundliches Personal und leckerer Kuchen.",
  language: "de",
};
REVIEWS[2].translated = { full: "The best coffee in town, friendly staff and tasty cake.", language: "en" };
// The reviewer's photos of the business, as the real capture holds them.
REVIEWS[1].photos = ["kknU8AoLgNtMrFhujjNkVA", "duhKce3Ds7io5Nky9hiTHQ"];
// A rating without text.
REVIEWS[4].text = null;
// A reply on the second page, with its own language-neutral date.
REVIEWS[13].reply = {
  full: "Sorry about the wait, we have added a second barista on Saturdays.",
  createdAt: "2026-10-12T20:00:00Z",
};

/** Businesses the search snippet lists, in Yelp's order (ads and decoys before the real match). */
export interface FixtureSearchResult {
  bizId: string;
  name: string;
  alias: string;
  formattedAddress: string;
  isAd?: boolean;
  /** The postal code on the business's own page (JSON-LD). */
  postalCode: string;
}

export const SEARCH_RESULTS: FixtureSearchResult[] = [
  {
    bizId: "ad1_Rooter",
    name: "Blue Door Cafe",
    alias: "blue-door-cafe-promoted",
    formattedAddress: "1 Market St",
    isAd: true,
    postalCode: "94105",
  },
  {
    bizId: "dc1_Tavern",
    name: "Blue Door Tavern",
    alias: "blue-door-tavern-san-francisco",
    formattedAddress: "1 Market St",
    postalCode: "94105",
  },
  {
    bizId: "dc2_Castro",
    name: "Blue Door Cafe",
    alias: "blue-door-cafe-san-francisco-3",
    formattedAddress: "500 Castro St",
    postalCode: "94114",
  },
  {
    bizId: "dc3_Oaklnd",
    name: "The Blue Door Café",
    alias: "blue-door-cafe-oakland",
    formattedAddress: "1 Market Street, Ste 2",
    postalCode: "94607",
  },
  {
    bizId: "ok1_Market",
    name: "Blue Door Café",
    alias: "blue-door-cafe-san-francisco",
    formattedAddress: "1 Market Street, Ste 200",
    postalCode: "94105",
  },
];
