/**
 * Capterra review hits as the reviews endpoint (`/spotlight/rest/reviews?apiVersion=2&productId=…`)
 * returns them. Field names, nesting and value forms copied from a public capture of that endpoint
 * (a GitHub repository's JSON-to-table demo quoting the answer of
 * `https://www.capterra.com/spotlight/rest/reviews?apiVersion=2&productId=154024&from=25&size=25`:
 * `hits[]` with `reviewId`, `globalReviewId: "Capterra___<id>"`, `overallRating`, `title`,
 * `prosText`, `consText`, `generalComments`, `adviceToOthers`, `writtenOn: "2019-04-12 17:24:23 -0400"`,
 * `language`, `translation{…}`, `vendorResponse{name, date, text}` (date and text null without a
 * response), `reviewer{fullName: "Verified Reviewer" when anonymous, jobTitle, industry, companySize,
 * …}`, and `totalHits{value, relation}`), and from public scrapers that page it with `from`, `size`
 * and `sort=mostRecent`. The capture is from 2022; the live endpoint could not be reached from here.
 * The reviews themselves are invented.
 */
export interface CapterraFixtureHit {
  globalReviewId: string;
  reviewId: string;
  productId: number;
  slug: string;
  productName: string;
  vendorId: number;
  language: string;
  overallRating: number;
  title: string | null;
  prosText: string | null;
  consText: string | null;
  generalComments: string | null;
  adviceToOthers: string | null;
  writtenOn: string;
  translation: Record<
    | "title"
    | "prosText"
    | "consText"
    | "generalComments"
    | "adviceToOthers"
    | "switchingReasons"
    | "chosenReasons",
    string | null
  >;
  vendorResponse: { name: string; date: string | null; text: string | null };
  reviewer: {
    fullName: string;
    jobTitle: string | null;
    timeUsedProduct: string;
    industry: string | null;
    companySize: string;
    verifiedLinkedIn: boolean;
    frequencyUsedProduct: string;
    companyName: string | null;
    profilePicUrl: null;
  };
  incentivized: string | null;
  anonymityOn: boolean;
  completenessScore: number;
  recommendationRating: number;
  easeOfUseRating: number | null;
  customerSupportRating: number | null;
  valueForMoneyRating: number | null;
  functionalityRating: number | null;
  isPublished: true;
  statusName: "Published";
  sourceSite: "Capterra";
  "@timestamp": string;
}

const NO_TRANSLATION = {
  title: null,
  prosText: null,
  consText: null,
  generalComments: null,
  adviceToOthers: null,
  switchingReasons: null,
  chosenReasons: null,
};
const ZONES = ["-0400", "-0500", "+0200", "+0530"];
const NAMES = ["Mike W.", "Sara K.", "Verified Reviewer", "Tom B.", "Ana P.", "Jun L."];

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** 60 reviews of product 2001 ("Acme CRM"), newest first: review i was written i days and i hours before the first. */
function acmeHits(): CapterraFixtureHit[] {
  return Array.from({ length: 60 }, (_, i) => {
    const day = new Date(Date.UTC(2026, 10, 20) - i * 86_400_000 - i * 3_600_000);
    const writtenOn = `${day.getUTCFullYear()}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())} ${pad(day.getUTCHours())}:17:${pad(i % 60)} ${ZONES[i % ZONES.length]}`;
    const fullName = NAMES[i % NAMES.length];
    const id = String(4_100_000 - i * 37);
    return {
      globalReviewId: `Capterra___${id}`,
      reviewId: id,
      productId: 2001,
      slug: "Acme-CRM",
      productName: "Acme CRM",
      vendorId: 9_001,
      language: "en",
      overallRating: (i % 5) + 1,
      title: `Review ${i}: ${i % 2 ? "solid pipeline tracking" : "quick to set up"}`,
      prosText: `Pipeline views are clear (review ${i}).`,
      consText: i % 3 === 0 ? `Reports export slowly (review ${i}).` : "",
      generalComments: i % 4 === 0 ? `We moved our sales team to it in a week (review ${i}).` : null,
      adviceToOthers: i % 10 === 5 ? "Try the free trial first." : "",
      writtenOn,
      translation: NO_TRANSLATION,
      vendorResponse: { name: "Acme CRM", date: null, text: null },
      reviewer: {
        fullName,
        jobTitle: fullName === "Verified Reviewer" ? null : "Sales Manager",
        timeUsedProduct: "1-2 years",
        industry: "Computer Software",
        companySize: "11-50 employees",
        verifiedLinkedIn: i % 2 === 0,
        frequencyUsedProduct: "Daily",
        companyName: null,
        profilePicUrl: null,
      },
      incentivized: i % 7 === 0 ? "NominalGift" : null,
      anonymityOn: fullName === "Verified Reviewer",
      completenessScore: ((i * 7919) % 100) / 100,
      recommendationRating: 9,
      easeOfUseRating: 4,
      customerSupportRating: 5,
      valueForMoneyRating: 4,
      functionalityRating: 4,
      isPublished: true,
      statusName: "Published",
      sourceSite: "Capterra",
      "@timestamp": "2026-11-21T08:00:00.000Z",
    };
  });
}

export const ACME_HITS: CapterraFixtureHit[] = acmeHits();

// Review 1: a vendor response with its date.
Object.assign(ACME_HITS[1], {
  vendorResponse: {
    name: "Acme CRM",
    date: "2026-11-19T10:30:00.000Z",
    text: "Thank you, Sara! The new export is coming in December.",
  },
});
// Review 2: written in German; Capterra's machine translation sits in `translation`, the original is kept.
Object.assign(ACME_HITS[2], {
  language: "de",
  title: "Sehr gutes Werkzeug für kleine Teams",
  prosText: "Die Pipeline ist übersichtlich und schnell eingerichtet.",
  consText: "Berichte sind etwas langsam.",
  generalComments: null,
  adviceToOthers: "",
  translation: {
    ...NO_TRANSLATION,
    title: "Very good tool for small teams",
    prosText: "The pipeline is clear and quickly set up.",
    consText: "Reports are a bit slow.",
  },
});
// Review 7: title only.
Object.assign(ACME_HITS[7], { prosText: null, consText: null, generalComments: null, adviceToOthers: null });
// Review 30 (second page): no text at all, and a vendor response without a date.
Object.assign(ACME_HITS[30], {
  title: null,
  prosText: "",
  consText: "",
  generalComments: "",
  adviceToOthers: "",
  vendorResponse: { name: "Acme CRM", date: null, text: "Sorry to hear that, please write to support." },
});
