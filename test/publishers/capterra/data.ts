/**
 * Capterra reviews as its server-rendered reviews pages carry them in their React Server Components
 * payload: the product's `reviewSummary` {overallRating "4.4", totalReviews} and `textReviews`, each
 * {reviewId "Capterra___<n>", globalReviewId, title, writtenOn "August 13, 2026", prosText,
 * consText, generalComments, adviceToOthers, overallRating "5.0", the aspects easeOfUseRating,
 * customerSupportRating, functionalityRating, valueForMoneyRating ("0.0" where not rated),
 * recommendationRating "10.0000000000", incentivized, sourceSite, anonymityOn, reviewer{fullName
 * ("Verified Reviewer" when anonymous), jobTitle, industry, companySize, timeUsedProduct, …},
 * vendorResponse {} }. Field names, nesting and value forms follow a real page of 2026-08-30 (see
 * ./README.md); the reviews themselves are invented. What a vendor response holds when it has one
 * is not shown by that page: modelled as {text, writtenOn} (the 2023 GraphQL client's vendorReply).
 */
import { ENGLISH_MONTHS as MONTHS } from "../../fixtures/english-dates";
export interface CapterraFixtureReview {
  reviewId: string;
  globalReviewId: string;
  title: string | null;
  writtenOn: string;
  generalComments: string | null;
  incentivized: string;
  customerSupportRating: string;
  easeOfUseRating: string;
  functionalityRating: string;
  valueForMoneyRating: string;
  overallRating: string;
  recommendationRating: string;
  consText: string | null;
  prosText: string | null;
  sourceSite: "Capterra";
  anonymityOn: boolean;
  adviceToOthers: string | null;
  chosenReasons: string | null;
  switchingReasons: string | null;
  reviewer: {
    companySize: string;
    industry: string;
    timeUsedProduct: string;
    fullName: string;
    jobTitle: string | null;
    verifiedLinkedIn: boolean;
    profilePicUrl: null;
    anonymityOn: boolean;
    isValidated: boolean;
    validationsPassed: string[];
  };
  alternativeProducts: [];
  switchedProducts: [];
  vendorResponse: { text?: string; writtenOn?: string };
  /** Not sent: how "helpful" Capterra ranks the review, which sets its default order. */
  helpfulness: number;
  /** Not sent: when it was written, for the tests (midnight UTC of `writtenOn`). */
  postedAt: number;
}

const NAMES = ["Mike W.", "Sara K.", "Verified Reviewer", "Tom B.", "Ana P.", "Jun L."];
const printed = (at: number) => {
  const d = new Date(at);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
};
const stars = (n: number) => `${n}.0`;

/** `count` reviews, newest first: review i was written i days before 2026-11-20. */
export function capterraReviews(count: number, firstId = 4_100_000): CapterraFixtureReview[] {
  return Array.from({ length: count }, (_, i) => {
    const postedAt = Date.UTC(2026, 10, 20) - i * 86_400_000;
    const fullName = NAMES[i % NAMES.length];
    const id = String(firstId - i * 37);
    return {
      reviewId: `Capterra___${id}`,
      globalReviewId: `Capterra___${id}`,
      title: `Review ${i}: ${i % 2 ? "solid pipeline tracking" : "quick to set up"}`,
      writtenOn: printed(postedAt),
      generalComments: i % 4 === 0 ? `We moved our sales team to it in a week (review ${i}).` : null,
      incentivized: i % 7 === 0 ? "NominalGift" : "NoIncentive",
      // Aspects a reviewer left unrated are "0.0", as on the real page.
      customerSupportRating: i % 3 === 0 ? "0.0" : "5.0",
      easeOfUseRating: stars((i % 5) + 1),
      functionalityRating: "4.0",
      valueForMoneyRating: i % 3 === 0 ? "0.0" : "4.0",
      overallRating: stars((i % 5) + 1),
      recommendationRating: "9.0000000000",
      consText: i % 3 === 0 ? `Reports export slowly (review ${i}).` : "",
      prosText: `Pipeline views are clear (review ${i}).`,
      sourceSite: "Capterra",
      anonymityOn: fullName === "Verified Reviewer",
      adviceToOthers: i % 10 === 5 ? "Try the free trial first." : "",
      chosenReasons: null,
      switchingReasons: null,
      reviewer: {
        companySize: "11-50 employees",
        industry: "Computer Software",
        timeUsedProduct: "1-2 years",
        fullName,
        jobTitle: fullName === "Verified Reviewer" ? null : "Sales Manager",
        verifiedLinkedIn: i % 2 === 0,
        profilePicUrl: null,
        anonymityOn: fullName === "Verified Reviewer",
        isValidated: true,
        validationsPassed: ["ProofOfLink"],
      },
      alternativeProducts: [],
      switchedProducts: [],
      vendorResponse: {},
      helpfulness: (i * 7919) % 101,
      postedAt,
    };
  });
}

/** 60 reviews of product 2001 ("Acme CRM"). */
export const ACME_REVIEWS: CapterraFixtureReview[] = capterraReviews(60);

// Review 1: a vendor response with its date.
Object.assign(ACME_REVIEWS[1], {
  vendorResponse: {
    text: "Thank you, Sara! The new export is coming in December.",
    writtenOn: "November 19, 2026",
  },
});
// Review 7: title only.
Object.assign(ACME_REVIEWS[7], {
  prosText: null,
  consText: null,
  generalComments: null,
  adviceToOthers: null,
});
// Review 30: no text at all, and a vendor response without a date.
Object.assign(ACME_REVIEWS[30], {
  title: null,
  prosText: "",
  consText: "",
  generalComments: "",
  adviceToOthers: "",
  vendorResponse: { text: "Sorry to hear that, please write to support." },
});

/** Capterra's default order, "most helpful" first: what every page request gets. */
export const mostHelpfulFirst = (reviews: readonly CapterraFixtureReview[]) =>
  [...reviews].sort((a, b) => b.helpfulness - a.helpfulness || a.reviewId.localeCompare(b.reviewId));
