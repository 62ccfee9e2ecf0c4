import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { EXPEDIA_DOMAINS, expediaProfile, openExpediaProperty } from "./profile";
import {
  expediaReviewsRequest,
  LEGACY_TOKEN,
  OPERATIONS,
  parseExpediaPage,
  persistedQueryUnknown,
  WHAT,
  type ExpediaFetched,
} from "./reviews";

/**
 * Expedia Group sits behind Akamai Bot Manager: plain clients get 429 on every page, /graphql
 * included (handled as rate-limited, then blocked), with `x-page-id: wildcard-challenge-handler`;
 * a challenge page with 200, or HTML where /graphql should answer JSON, is `blocked`.
 */
const inspectExpediaPage: PageInspector = (page) => {
  if (
    page.headers.get("x-page-id") === "wildcard-challenge-handler" ||
    page.headers.get("x-app-info") === "captcha-pwa"
  ) {
    return transientError("blocked", "Expedia answered with Akamai's bot challenge");
  }
  if (page.url.pathname === "/graphql" && page.text.slice(0, 2_000).trimStart().startsWith("<")) {
    return transientError("blocked", "Expedia answered its GraphQL with an HTML page");
  }
  return null;
};

/** The page index a request asks for (the walk built it, so it is there). */
function pageIndexOf(body: [{ variables?: unknown }] | undefined): number {
  const counts = (
    body?.[0]?.variables as
      | { productIdentifier?: { travelSearchCriteria?: { property?: { secondary?: { counts?: unknown } } } } }
      | undefined
  )?.productIdentifier?.travelSearchCriteria?.property?.secondary?.counts;
  const index = Array.isArray(counts)
    ? (counts as { id?: unknown; value?: unknown }[]).find((c) => c.id === "pageIndex")?.value
    : undefined;
  return typeof index === "number" ? index : 0;
}

/** The property page a request names as its Referer. */
function refererOf(request: { options?: { headers?: Record<string, string> } }): string {
  return request.options?.headers?.Referer ?? "";
}

/**
 * expedia.com and hotels.com: a property's guest reviews from Expedia Group's GraphQL reviews
 * query, 50 a page by page index, with the query's context taken once from the property page.
 * No lookup.
 */
export const expedia = definePublisher({
  name: "expedia",
  displayName: "Expedia and Hotels.com",
  kind: "travel",
  domains: EXPEDIA_DOMAINS,
  loginRequired: false,
  ratingScale: "10-point guest score mapped linearly from 1–10 onto 1–5 (round(1 + (score − 1) × 4 / 9))",
  profile: expediaProfile,
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 180,
    note: "expedia.com, hotels.com: Expedia Group's GraphQL reviews behind Akamai Bot Manager, so one at a time.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: expediaProfile.keyOf,
    open: openExpediaProperty,
    firstPage: 0,
    request: expediaReviewsRequest,
    // The Revamp operation first; where Expedia does not know its hash, the older one for this page
    // (the page's next position then carries LEGACY_TOKEN, so later pages ask it directly).
    async fetch(request, key, ctx): Promise<ExpediaFetched> {
      const first = (await ctx.client.json(request.url, request.options)).data;
      const body = request.options?.json as [{ operationName?: string; variables?: unknown }] | undefined;
      const asked = body?.[0]?.operationName === OPERATIONS.legacy.name ? "legacy" : "revamp";
      if (asked === "legacy" || !persistedQueryUnknown(first))
        return { kind: "expedia-answer", operation: asked, answer: first };
      const page = pageIndexOf(body);
      const fallback = expediaReviewsRequest(key, { page, token: LEGACY_TOKEN }, refererOf(request));
      const answer = (await ctx.client.json(fallback.url, fallback.options)).data;
      return { kind: "expedia-answer", operation: "legacy", answer };
    },
    parse: parseExpediaPage,
    // 50 a page: 1,000 pages is 50,000 reviews.
    maxPages: 1_000,
    inspect: inspectExpediaPage,
  }),
  // A fewo-direkt.de (Expedia Group) client tested 2026-10-05: the Revamp operation, pagination, ids (README).
  evidenceDate: "2026-10-05",
});
