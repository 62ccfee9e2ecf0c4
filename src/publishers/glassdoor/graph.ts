/**
 * The JSON call behind Glassdoor's reviews pages, as 2026 clients make it:
 * `POST https://www.glassdoor.com/bff/employer-profile-mono/employer-reviews` with a JSON body of
 * the employer id, the page's `dynamicProfileId`, `page`, `pageSize`, `sort` and filters, answered
 * `{"data": {"employerReviews": {reviews: […], numberOfPages?, filteredReviewsCount?, allReviewsCount?,
 * currentPage?}}}`. The reviews are the same `EmployerReviewRG` objects the page's Apollo cache holds,
 * not normalized (nested objects instead of `__ref` links). Request body and answer as
 * scrapfly/scrapfly-scrapers glassdoor-scraper/glassdoor.py sends and reads them (2026-05, and
 * results/reviews.json, a real list of these reviews; see test/publishers/glassdoor/SOURCE.md).
 * It replaces the `/graph` `GetEmployerReviews` operation the module used before.
 */
import { permanentError } from "../../scraping/errors";
import { isObject, readResult, type ReviewsResult } from "./apollo";

export const EMPLOYER_REVIEWS_PATH = "/bff/employer-profile-mono/employer-reviews";

/** Reviews per page, as Glassdoor's pages show them (and the JSON call's size in cursors stored before). */
export const PAGE_SIZE = 10;

/**
 * Reviews per JSON call: the most it serves. A 2026 glassdoor-collect skill (sources of 2026-09-28)
 * sends `pageSize` up to 50 to this call; the page numbers then count pages of 50 (page N holds
 * reviews 50(N-1)+1 to 50N), as the answer's `numberOfPages` for that size says.
 */
export const JSON_PAGE_SIZE = 50;

export interface JsonPageRequest {
  employerId: number;
  page: number;
  /** Reviews per page; PAGE_SIZE when absent (cursors stored before the call asked for 50). */
  pageSize?: number;
  /** The page's `profileId` of the employer, when page 1 carried it. */
  profileId?: number | null;
}

/**
 * The request body of one page, newest first (sort `DATE`), with the values public clients send
 * (`applyDefaultCriteria: true`, regular and part-time employees, no filter): what the reviews page
 * itself shows, which is also what page 1 showed.
 */
export function employerReviewsRequest({ employerId, page, pageSize, profileId }: JsonPageRequest) {
  return {
    applyDefaultCriteria: true,
    employerId,
    employmentStatuses: ["REGULAR", "PART_TIME"],
    jobTitle: null,
    goc: null,
    location: {},
    defaultLanguage: "eng",
    language: "eng",
    mlHighlightSearch: null,
    onlyCurrentEmployees: false,
    overallRating: null,
    pageSize: pageSize ?? PAGE_SIZE,
    page,
    preferredTldId: 0,
    reviewCategories: [],
    sort: "DATE",
    textSearch: "",
    worldwideFilter: false,
    ...(profileId ? { dynamicProfileId: profileId } : {}),
    useRowProfileTldForRatings: true,
    enableKeywordSearch: true,
  };
}

const WHERE = "Glassdoor JSON call";

/**
 * The reviews result of an answer of the JSON call (`page` is what was asked, for answers without
 * `currentPage`). A GraphQL error envelope (`{"errors": [...]}` without the
 * result) is `login_required` when Glassdoor says the caller is not signed in, else `publisher_error`
 * with its message; an answer without `data.employerReviews` is `publisher_error` naming it.
 */
export function parseEmployerReviewsAnswer(
  body: unknown,
  page?: number,
  pageSize = PAGE_SIZE,
): ReviewsResult {
  // Glassdoor's GraphQL layer batches operations; a batched answer is a list with one entry per operation.
  const answer: unknown = Array.isArray(body)
    ? (body.find((entry) => isObject(entry) && isObject(entry.data) && "employerReviews" in entry.data) ??
      body[0])
    : body;
  if (!isObject(answer))
    throw permanentError("publisher_error", `${WHERE}: expected a GraphQL answer object`);
  const data = isObject(answer.data) ? answer.data : null;
  const result = data?.employerReviews;
  if (!isObject(result)) {
    const error = Array.isArray(answer.errors) ? answer.errors.find(isObject) : undefined;
    if (error) {
      const message = typeof error.message === "string" ? error.message.slice(0, 200) : "no message";
      const code =
        isObject(error.extensions) && typeof error.extensions.code === "string"
          ? error.extensions.code
          : null;
      if (code === "UNAUTHENTICATED" || code === "FORBIDDEN")
        throw permanentError(
          "login_required",
          `${WHERE}: Glassdoor wants a signed-in user (${code}: ${message})`,
        );
      throw permanentError("publisher_error", `${WHERE}: GraphQL error (${message})`);
    }
    throw permanentError("publisher_error", `${WHERE}: the answer has no data.employerReviews`);
  }
  return readResult(result, WHERE, "employerReviews", page === undefined ? undefined : { page, pageSize });
}
