import { jsonWalkAdapter } from "../kit/json-walk";
import { WorkBudget } from "../kit/work-budget";
import { definePublisher } from "../types";
import { tabelogProfile } from "./profile";
import { asTabelogPage, parseTabelogPage, readTabelogPage, tabelogReviewsUrl, WHAT } from "./reviews";

/**
 * tabelog.com (restaurants, Japan): a restaurant's reviews from its server-rendered review list
 * (plain requests, no script needed), full texts, newest visit first, paged with `PG=N` while the
 * page links a next one. The restaurant's score and review count come from the page header. No lookup.
 */
export const tabelog = definePublisher({
  name: "tabelog",
  displayName: "Tabelog",
  kind: "hospitality",
  domains: ["tabelog.com"],
  loginRequired: false,
  ratingScale: "1.0–5.0 points with decimals (rating_scale 1-5), rounded half up to whole stars",
  profile: tabelogProfile,
  summaryFields: ["rating", "review_count"],
  queue: {
    note: "tabelog.com: server-rendered review list pages (PG=N), plain requests, no bot wall reported.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: tabelogProfile.keyOf,
    firstPage: 1,
    request: (key, position) => ({ url: tabelogReviewsUrl(key, position) }),
    async fetch(request, _key, ctx) {
      const page = await ctx.client.request(request.url, request.options);
      return readTabelogPage(page.text, new WorkBudget(WHAT));
    },
    parse: (data, ctx) => parseTabelogPage(asTabelogPage(data), ctx),
    // 20 a page: 1,000 pages is 20,000 reviews, beyond the most reviewed restaurant.
    maxPages: 1_000,
  }),
  evidenceDate: "2025-07-01",
});
