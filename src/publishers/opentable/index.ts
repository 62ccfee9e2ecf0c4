import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { OPENTABLE_DOMAINS, resolveOpentableProfile, slugOf } from "./profile";
import { opentableRequest, parseOpentablePage, WHAT, type OpentableFetched } from "./reviews";

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
  ratingScale: "1–5 stars (overall rating), kept as is; food, service, ambience, value and noise in the text",
  summaryFields: ["review_count"],
  resolveProfileKey: resolveOpentableProfile,
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: slugOf,
    firstPage: 1,
    request: (_slug, position, pageUrl) => opentableRequest(position, pageUrl),
    async fetch(request, _slug, ctx): Promise<OpentableFetched> {
      if (request.options?.method !== "POST")
        return { kind: "state", html: (await ctx.client.request(request.url)).text };
      const json = request.options.json as { variables: { restaurantId: number } };
      return {
        kind: "gql",
        answer: (await ctx.client.json(request.url, request.options)).data,
        restaurantId: String(json.variables.restaurantId),
      };
    },
    parse: parseOpentablePage,
    // 10 a page: 5,000 pages is 50,000 reviews, beyond any restaurant.
    maxPages: 5_000,
    inspect: inspectOpentablePage,
  }),
  evidenceDate: "2026-01-18",
});
