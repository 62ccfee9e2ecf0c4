/**
 * Reviews of the airbnb.com fixture listing, in the shape of `StaysPdpReviewsQuery`'s
 * `data.presentation.stayProductDetailPage.reviews.reviews[]`: `id`, `comments` (with `<br/>` line
 * breaks), `language`, `createdAt`, `localizedDate`, `rating`, `reviewer.{id, firstName}`,
 * `response`, `localizedRespondedDate`, `localizedReview` (the translation). Field names as public
 * scrapers read them (e.g. code that maps `reviews[].reviewer.firstName`, `comments`, `language`,
 * `createdAt`, `localizedReview`, `response`). Not verified: whether `createdAt` always carries a
 * time and zone, and the format of `localizedRespondedDate` (modelled as "October 2026").
 */
export interface AirbnbFixtureReview {
  id: string;
  comments: string;
  language: string;
  createdAt: string;
  rating: number;
  reviewer: { id: string; firstName: string };
  response?: string;
  localizedRespondedDate?: string;
  /** Airbnb's machine translation, shown only with the translation button. */
  translated?: string;
}

const NAMES = ["Claire", "Marco", "Yuki", "Ben", "Sofia", "Omar"];
const TEXTS = [
  "Lovely flat, spotless and bright.",
  "Great location near the station.",
  "Host was quick to answer our questions.",
  "Comfortable beds, quiet street.",
];

/** 50 reviews, newest first: pages of 24, 24 and 2. */
export const AIRBNB_REVIEWS: AirbnbFixtureReview[] = Array.from({ length: 50 }, (_, i) => ({
  id: String(1_200_000_000_000_000_000n - BigInt(i) * 7919n),
  comments: `${TEXTS[i % TEXTS.length]} Stay ${50 - i}.`,
  language: "en",
  createdAt: new Date(Date.UTC(2026, 10, 1, 12, 0, 0) - i * 3 * 86_400_000)
    .toISOString()
    .replace(".000Z", "Z"),
  rating: [5, 5, 4, 3, 5, 2][i % 6],
  reviewer: { id: String(40_000 + (i % NAMES.length)), firstName: NAMES[i % NAMES.length] },
}));

AIRBNB_REVIEWS[0].response = "Thanks Claire,<br/>you are welcome back any time!";
AIRBNB_REVIEWS[0].localizedRespondedDate = "November 2026";
AIRBNB_REVIEWS[1].comments = "Appartement très propre,<br/>hôte très réactif.";
AIRBNB_REVIEWS[1].language = "fr";
AIRBNB_REVIEWS[1].translated = "Very clean apartment, very responsive host.";
AIRBNB_REVIEWS[30].response = "Sorry about the noise, the windows have been replaced.";
AIRBNB_REVIEWS[30].localizedRespondedDate = "August 2026";
