import { jsonWalkAdapter } from "../kit/json-walk";
import { WorkBudget } from "../kit/work-budget";
import { definePublisher } from "../types";
import { dealerraterProfile } from "./profile";
import { parseDealerPage, readDealerPage, WHAT, type DealerPage } from "./reviews";

/**
 * dealerrater.com: a car dealer's reviews from its server-rendered review pages, newest first,
 * `/dealer/<Slug>-review-<id>/page<N>/?filter=ALL_REVIEWS`, following each page's link to the next.
 * Title and sub-ratings (customer service, quality of work, friendliness, pricing, overall
 * experience) are kept. No lookup.
 */
export const dealerrater = definePublisher({
  name: "dealerrater",
  displayName: "DealerRater",
  kind: "automotive",
  domains: ["dealerrater.com"],
  loginRequired: false,
  ratingScale: "1–5 stars (overall rating), kept as is; sub-ratings on the same scale",
  summaryFields: ["rating", "review_count"],
  profile: dealerraterProfile,
  queue: {
    note: "dealerrater.com: server-rendered dealer review pages, one after another; no bot wall reported.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: dealerraterProfile.keyOf,
    firstPage: 1,
    request: (_id, position, pageUrl) => ({ url: `${pageUrl}page${position.page}/?filter=ALL_REVIEWS` }),
    async fetch(request, _key, ctx) {
      const page = await ctx.client.request(request.url);
      return readDealerPage(page.text, new WorkBudget(WHAT));
    },
    parse: (data, ctx) => parseDealerPage(data as DealerPage, ctx),
    // A few hundred pages cover the most reviewed dealers (tens of thousands of reviews).
    maxPages: 2_000,
  }),
  evidenceDate: "2021-10-14",
});
