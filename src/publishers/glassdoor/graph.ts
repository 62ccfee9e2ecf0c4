/**
 * The JSON call behind Glassdoor's reviews pages: its own client loads further pages with a GraphQL
 * POST to `https://www.glassdoor.com/graph` running `GetEmployerReviews`
 * (`employerReviews: employerReviewsRG(employerReviewsInput: {employer: {id}, page: {num, size},
 * sort, …})`) with the page's `gd-csrf-token` header, and answers
 * `{"data": {"employerReviews": {currentPage, numberOfPages, allReviewsCount, reviews: […]}}}`. The
 * reviews are the same `EmployerReviewRG` objects the page's Apollo cache holds, not normalized
 * (nested objects instead of `__ref` links). Shapes as public scrapers record them (see
 * test/publishers/glassdoor/site.ts).
 */
import { permanentError } from "../../scraping/errors";
import { isObject, readResult, type ReviewsResult } from "./apollo";

/** Reviews per page, as Glassdoor's pages show them. */
export const PAGE_SIZE = 10;

/** Only the fields the service maps (see ./apollo.ts rawReview), no ratings breakdown or logos. */
export const EMPLOYER_REVIEWS_QUERY = `query GetEmployerReviews($employerId: Int!, $page: Int!, $pageSize: Int!, $sort: ReviewsSortOrderEnum, $language: String, $applyDefaultCriteria: Boolean) {
  employerReviews: employerReviewsRG(
    employerReviewsInput: {applyDefaultCriteria: $applyDefaultCriteria, employer: {id: $employerId}, language: $language, page: {num: $page, size: $pageSize}, sort: $sort}
  ) {
    allReviewsCount
    currentPage
    numberOfPages
    reviews {
      reviewId
      reviewDateTime
      ratingOverall
      summary
      summaryOriginal
      pros
      prosOriginal
      cons
      consOriginal
      advice
      adviceOriginal
      languageId
      originalLanguageId
      translationMethod
      jobTitle { id text __typename }
      employer { id shortName __typename }
      employerResponses { id response responseOriginal responseDateTime(format: ISO) languageId __typename }
      __typename
    }
    __typename
  }
}`;

export interface GraphPageRequest {
  employerId: number;
  page: number;
}

/** The request body of one page, newest first (sort `DATE`). */
export function employerReviewsRequest({ employerId, page }: GraphPageRequest) {
  return {
    operationName: "GetEmployerReviews",
    variables: { employerId, page, pageSize: PAGE_SIZE, sort: "DATE", language: "eng", applyDefaultCriteria: false },
    query: EMPLOYER_REVIEWS_QUERY,
  };
}

const WHERE = "Glassdoor JSON call";

/**
 * The reviews result of a `/graph` answer. A GraphQL error envelope (`{"errors": [...]}` without the
 * result) is `login_required` when Glassdoor says the caller is not signed in, else `publisher_error`
 * with its message; an answer without `data.employerReviews` is `publisher_error` naming it.
 */
export function parseEmployerReviewsAnswer(body: unknown): ReviewsResult {
  // Glassdoor's client batches operations; a batched answer is a list with one entry per operation.
  const answer: unknown = Array.isArray(body)
    ? (body.find((entry) => isObject(entry) && isObject(entry.data) && "employerReviews" in entry.data) ?? body[0])
    : body;
  if (!isObject(answer)) throw permanentError("publisher_error", `${WHERE}: expected a GraphQL answer object`);
  const data = isObject(answer.data) ? answer.data : null;
  const result = data?.employerReviews;
  if (!isObject(result)) {
    const error = Array.isArray(answer.errors) ? answer.errors.find(isObject) : undefined;
    if (error) {
      const message = typeof error.message === "string" ? error.message.slice(0, 200) : "no message";
      const code = isObject(error.extensions) && typeof error.extensions.code === "string" ? error.extensions.code : null;
      if (code === "UNAUTHENTICATED" || code === "FORBIDDEN")
        throw permanentError("login_required", `${WHERE}: Glassdoor wants a signed-in user (${code}: ${message})`);
      throw permanentError("publisher_error", `${WHERE}: GraphQL error (${message})`);
    }
    throw permanentError("publisher_error", `${WHERE}: the answer has no data.employerReviews`);
  }
  return readResult(result, WHERE, "employerReviews");
}
