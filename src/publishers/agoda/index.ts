import type { PageInspector } from "../../scraping/client";
import { ScrapeError, transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { agodaProfile } from "./profile";
import {
  hotelReviewsRequest,
  parseAgodaPage,
  reviewCommentsRequest,
  WHAT,
  type AgodaFirstPage,
} from "./reviews";

/** Failures of the summary call that only cost the total (a bot wall or the time budget still end the run). */
const SUMMARY_OPTIONAL = new Set(["publisher_error", "profile_not_found"]);

/** No bot wall is reported; an HTML page where the API should answer JSON is one all the same. */
const inspectAgodaPage: PageInspector = (page) => {
  if (page.url.pathname.startsWith("/api/") && page.text.slice(0, 2_000).trimStart().startsWith("<")) {
    return transientError("blocked", "Agoda answered its review API with an HTML page");
  }
  return null;
};

/**
 * agoda.com: a property's guest reviews (Agoda's own, provider 332) from the review comments API,
 * 50 a page, newest first, with the property's answers; the total from the review summary. profile_key is the property id or a URL carrying it. No lookup.
 */
export const agoda = definePublisher({
  name: "agoda",
  displayName: "Agoda",
  kind: "travel",
  domains: ["agoda.com"],
  loginRequired: false,
  ratingScale: "10-point guest score mapped linearly from 1–10 onto 1–5 (round(1 + (score − 1) × 4 / 9))",
  profile: agodaProfile,
  queue: { note: "agoda.com: the review comments API, 50 a page." },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: agodaProfile.keyOf,
    firstPage: 1,
    request: (hotelId, position) => reviewCommentsRequest(hotelId, position),
    // Page 1 also asks the summary for the total; a summary that fails costs the total, not the walk.
    async fetch(request, hotelId, ctx) {
      const comments = (await ctx.client.json(request.url, request.options)).data;
      if ((request.options?.json as { page?: unknown } | undefined)?.page !== 1) return comments;
      const summaryRequest = hotelReviewsRequest(hotelId);
      const summary = await ctx.client
        .json(summaryRequest.url, summaryRequest.options)
        .then((answer) => answer.data)
        .catch((err: unknown) => {
          if (err instanceof ScrapeError && SUMMARY_OPTIONAL.has(err.reason)) return null;
          throw err;
        });
      return { kind: "agoda-first-page", comments, summary } satisfies AgodaFirstPage;
    },
    parse: parseAgodaPage,
    // 50 a page: 2,000 pages is 100,000 reviews.
    maxPages: 2_000,
    inspect: inspectAgodaPage,
  }),
  // 2026 Agoda clients (README): sorting 1 = most recent, owner replies, the HotelReviews total.
  evidenceDate: "2026-10",
  summaryFields: ["review_count"],
  reviewFields: ["title", "author_review_count"],
});
