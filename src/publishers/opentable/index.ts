import type { PageInspector, PublisherClient } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher, type ScrapeContext } from "../types";
import { OPENTABLE_DOMAINS, opentableProfile } from "./profile";
import { csrfTokenOf, opentableRequest, parseOpentablePage, WHAT, type OpentableFetched } from "./reviews";

/**
 * OpenTable sits behind Akamai, which refuses datacenter addresses with its "Access Denied" page
 * ("You don't have permission to access …", a `Reference #`), with 403 or 200. An HTML page where
 * the review search should answer JSON is that wall too.
 */
const inspectOpentablePage: PageInspector = (page) => {
  const head = page.text.slice(0, 20_000);
  if (head.includes("<title>Access Denied</title>") && head.includes("Reference #")) {
    return transientError("blocked", "OpenTable answered with Akamai's Access Denied page");
  }
  if (page.url.pathname.startsWith("/dapi/") && head.trimStart().startsWith("<")) {
    return transientError("blocked", "OpenTable answered its review search with an HTML page");
  }
  return null;
};

/**
 * The restaurant page's CSRF token, per run (a run's client): every 2026 client sends it, with the
 * page session's cookies, on each review search call. The cookies are the client's jar (carried
 * between runs encrypted); the token is kept only in memory, so a run that starts past page 1 opens
 * the restaurant page once more to read it (and refresh the session). Sent empty where the page states
 * none, as the client does.
 */
const SESSION_TOKENS = new WeakMap<PublisherClient, string>();

async function sessionToken(
  request: { options?: { headers?: Record<string, string> } },
  ctx: ScrapeContext,
): Promise<string> {
  const known = SESSION_TOKENS.get(ctx.client);
  if (known !== undefined) return known;
  const page = request.options?.headers?.Referer;
  const token = page ? (csrfTokenOf((await ctx.client.request(page)).text) ?? "") : "";
  SESSION_TOKENS.set(ctx.client, token);
  return token;
}

/**
 * opentable.com (and its .co.uk, .ca, .com.au sites): a restaurant's diner reviews, newest first,
 * the first ten from the restaurant page's embedded state, the rest from the GraphQL review search,
 * 10 a page. Sub-ratings are kept in the text. No lookup.
 */
export const opentable = definePublisher({
  name: "opentable",
  displayName: "OpenTable",
  kind: "hospitality",
  domains: OPENTABLE_DOMAINS,
  loginRequired: false,
  ratingScale:
    "1–5 stars (overall rating), kept as is; food, service, ambience and value also as sub_ratings",
  summaryFields: ["review_count"],
  reviewFields: ["sub_ratings"],
  profile: opentableProfile,
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 120,
    note: "opentable.com: the restaurant page's state, then the GraphQL review search, behind Akamai.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: opentableProfile.keyOf,
    firstPage: 1,
    request: (_slug, position, pageUrl) => opentableRequest(position, pageUrl),
    async fetch(request, _slug, ctx): Promise<OpentableFetched> {
      if (request.options?.method !== "POST") {
        const html = (await ctx.client.request(request.url)).text;
        SESSION_TOKENS.set(ctx.client, csrfTokenOf(html) ?? "");
        return { kind: "state", html };
      }
      const json = request.options.json as { variables: { restaurantId: number } };
      const headers = { ...request.options.headers, "x-csrf-token": await sessionToken(request, ctx) };
      return {
        kind: "gql",
        answer: (await ctx.client.json(request.url, { ...request.options, headers })).data,
        restaurantId: String(json.variables.restaurantId),
      };
    },
    parse: parseOpentablePage,
    // 10 a page: 5,000 pages is 50,000 reviews, beyond any restaurant.
    maxPages: 5_000,
    inspect: inspectOpentablePage,
  }),
  // shahidirfan100/OpenTable-Reviews-Scraper @ce628537 (2026-01-18) and a 2026-06 client:
  // session cookies and x-csrf-token on every review search (README).
  evidenceDate: "2026-06",
});
