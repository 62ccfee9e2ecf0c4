/**
 * Fixture agoda.com: the review comments API its hotel pages load,
 * `POST /api/cronos/property/review/ReviewComments` with a JSON body `{hotelId, providerId,
 * demographicId, page, pageSize, sorting, providerIds, isReviewPage, isCrawlablePage, filters,
 * searchKeyword, searchFilters}` (RomySaputraSihananda/craw-data paramsBuilder.py @5648f5c7,
 * ~2024), answering `{comments: [...]}` (craw-data agoda.py @1142a087 reads `comments`). Comment
 * fields as public consumers of that answer read them: `hotelReviewId`, `providerId`, `rating`
 * (10-point), `reviewTitle`, `reviewComments`, `reviewPositives`, `reviewNegatives`,
 * `originalTitle`, `originalComment`, `translateSource`, `reviewDate` (ISO with offset),
 * `checkInDateMonthAndYear`, `reviewerInfo.{displayMemberName, countryName, flagName,
 * reviewGroupName, roomTypeName, lengthOfStay, reviewerReviewedCount}` (exact-string index ids
 * 39362445505, 41177827271, 14998514591; a 2025-04 sample record among them). The reviews are
 * invented.
 *
 * 2026 (a public Agoda crawler's `SORT_MAP` and `parse_comment`/`fetch_summary`, and a 2026-10
 * client's `fetch_comments`; README.md names them): `sorting` 1 is "most recent" (here newest first;
 * 7, "most helpful", gives another order), a comment may carry the property's answer
 * (`responseText`, `responderName`, `responseDate`, `responseDateText`), and
 * `POST /api/cronos/property/review/HotelReviews` (the same body) states each provider's comment
 * count in `commentList.providerList[].{id, totalIndex}`.
 *
 * Properties: 26210260 (60 comments over two pages of 50, one from another provider, one
 * without an id, one machine-translated), 1000 (none), 4040 (an answer without `comments`).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export interface AgodaFixtureComment {
  hotelReviewId?: number;
  providerId: number;
  rating: number;
  formattedRating: string;
  ratingText: string;
  reviewTitle: string;
  reviewComments: string;
  reviewPositives: string;
  reviewNegatives: string;
  originalTitle?: string;
  originalComment?: string;
  translateSource: string;
  reviewDate: string;
  checkInDateMonthAndYear: string;
  helpfulVotes: number;
  responseText?: string;
  responderName?: string;
  responseDate?: string;
  responseDateText?: string;
  reviewerInfo: {
    displayMemberName: string;
    countryName: string;
    flagName: string;
    reviewGroupName: string;
    roomTypeName: string;
    lengthOfStay: number;
    reviewerReviewedCount: number;
  };
}

const NEWEST = Date.UTC(2026, 10, 18, 3, 37);

function comment(i: number): AgodaFixtureComment {
  const at = new Date(NEWEST - i * 86_400_000 + 7 * 3_600_000).toISOString().slice(0, 16);
  return {
    ...(i === 20 ? {} : { hotelReviewId: 948_353_800 - i }),
    providerId: i === 9 ? 3038 : 332,
    rating: i === 0 ? 9.6 : 6 + (i % 5),
    formattedRating: "9.6",
    ratingText: "Exceptional",
    reviewTitle: i === 1 ? "Great for families" : `Stay ${i}`,
    reviewComments: i === 1 ? "Pool was big and had water slides for the children." : `Room ${i} was clean.`,
    reviewPositives: i === 0 ? "Breakfast" : "",
    reviewNegatives: i === 0 ? "Parking" : "",
    ...(i === 1
      ? {
          originalTitle: "Cocok untuk keluarga",
          originalComment: "Kolamnya besar dan ada perosotan air untuk anak-anak.",
        }
      : {}),
    translateSource: i === 1 ? "id" : "en",
    reviewDate: `${at}:00+07:00`,
    checkInDateMonthAndYear: "November 2026",
    helpfulVotes: (i * 7) % 11,
    ...(i === 0
      ? {
          responseText: "Thank you for staying with us, we hope to welcome you back soon.",
          responderName: "Hotel manager",
          responseDate: "2026-11-19T09:12:00+07:00",
          responseDateText: "Responded November 19, 2026",
        }
      : {}),
    reviewerInfo: {
      displayMemberName: i === 1 ? "Rizal" : `Guest ${i}`,
      countryName: i === 1 ? "Indonesia" : "Malaysia",
      flagName: i === 1 ? "id" : "my",
      reviewGroupName: "Family with young children",
      roomTypeName: "Deluxe Room",
      lengthOfStay: 2,
      reviewerReviewedCount: i,
    },
  };
}

export const GRAND_COMMENTS: AgodaFixtureComment[] = Array.from({ length: 60 }, (_, i) => comment(i));

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});

function reviewComments(body: string): FixtureResponse {
  let request: {
    hotelId?: unknown;
    page?: unknown;
    pageSize?: unknown;
    sorting?: unknown;
    providerId?: unknown;
  };
  try {
    request = JSON.parse(body) as typeof request;
  } catch {
    return json({ error: "bad request" }, 400);
  }
  const { hotelId, page, pageSize } = request;
  if (
    typeof page !== "number" ||
    page < 1 ||
    typeof pageSize !== "number" ||
    pageSize < 1 ||
    pageSize > 50 ||
    request.providerId !== 332
  ) {
    return json({ error: "bad request" }, 400);
  }
  const all = hotelId === 26210260 || hotelId === 4040 ? GRAND_COMMENTS : [];
  // Newest first only for 1; "most helpful" (7) and anything else in another order.
  const ordered = request.sorting === 1 ? all : [...all].sort((a, b) => b.helpfulVotes - a.helpfulVotes);
  const comments = ordered.slice((page - 1) * pageSize, page * pageSize);
  if (hotelId === 4040) return json({ commentList: comments });
  return json({ comments });
}

/** The summary: each provider's comment count (Agoda's own, 332, counts one more than it lists). */
function hotelReviews(body: string): FixtureResponse {
  const hotelId = (JSON.parse(body) as { hotelId?: unknown }).hotelId;
  if (hotelId !== 26210260) return json({ error: "not found" }, 404);
  return json({
    hotelName: "Grand Mercure Malang",
    combinedReview: {
      score: { score: 9.1, scoreText: "Exceptional", reviewCount: 74, reviewCommentsCount: 71 },
    },
    commentList: {
      providerList: [
        { id: 332, totalIndex: 59, isDefaultProvider: true },
        { id: 3038, totalIndex: 12, isDefaultProvider: false },
      ],
    },
  });
}

const fixture: PublisherFixture = {
  domains: ["agoda.com"],
  site: ({ url, method, body }) => {
    if (method !== "POST") return json({ error: "Method Not Allowed" }, 405);
    if (url.pathname === "/api/cronos/property/review/ReviewComments") return reviewComments(body);
    if (url.pathname === "/api/cronos/property/review/HotelReviews") return hotelReviews(body);
    return json({ error: "not found" }, 404);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: "https://www.agoda.com/partners/partnersearch.aspx?hid=26210260" },
};

export default fixture;
