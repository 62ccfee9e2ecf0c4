import { jsonWalkAdapter } from "../kit/json-walk";
import { WorkBudget } from "../kit/work-budget";
import { definePublisher } from "../types";
import { thumbtackProfile } from "./profile";
import { jsonLdItems, parseThumbtackPage, WHAT } from "./reviews";

/**
 * thumbtack.com: a pro's reviews from the JSON-LD of its service page (plain requests answer,
 * no bot wall reported as of 2026-08). One request per profile; the page shows a fixed window of
 * reviews, and the rest is reported as a limited view (README.md, "Assumed"). No lookup.
 */
export const thumbtack = definePublisher({
  name: "thumbtack",
  displayName: "Thumbtack",
  kind: "home services",
  domains: ["thumbtack.com"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is",
  profile: thumbtackProfile,
  queue: { note: "thumbtack.com: one pro page per profile (JSON-LD reviews), no bot wall reported." },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: thumbtackProfile.keyOf,
    firstPage: 1,
    request: (_key, _position, pageUrl) => ({ url: pageUrl }),
    async fetch(request, _key, ctx) {
      const page = await ctx.client.request(request.url);
      return jsonLdItems(page.text, new WorkBudget(WHAT));
    },
    parse: parseThumbtackPage,
    maxPages: 1,
  }),
  evidenceDate: "2026-08-10",
  summaryFields: ["review_count"],
});
