import { jsonLdAggregate, pageJsonLdItems } from "../kit/json-ld-items";
import { jsonWalkAdapter, type ParseContext, type WalkPage } from "../kit/json-walk";
import { WorkBudget } from "../kit/work-budget";
import { permanentError } from "../../scraping/errors";
import { definePublisher } from "../types";
import { ANGI_WHAT, angiPageRoots, parseAngiPage } from "./angi-page";
import {
  HOMEADVISOR_WHAT,
  homeAdvisorReviewsUrl,
  parseHomeAdvisorPage,
  type HomeAdvisorProfile,
} from "./homeadvisor";
import { angiProfile } from "./profile";

/** What one page's fetch hands the parser: which site's answer it is. */
type Fetched =
  | { site: "angi"; roots: unknown[] }
  | { site: "homeadvisor"; answer: unknown; profile: HomeAdvisorProfile | null };

const spIdOf = (key: string) => key.slice("homeadvisor:".length);

function parseAngiOrHomeAdvisor(data: unknown, ctx: ParseContext): WalkPage {
  const fetched = data as Fetched;
  if (fetched.site === "angi") return parseAngiPage(fetched.roots, ctx);
  return parseHomeAdvisorPage(fetched.answer, fetched.profile, ctx);
}

/**
 * angi.com (and angieslist.com, its former name) and homeadvisor.com, one owner's two sites, in one
 * module. Angi: the company's profile page, whose RSC payload carries its newest 25 reviews, the
 * count and the histogram (the rest is a limited view). HomeAdvisor: the ratings JSON its pro page
 * loads, 10 a page newest first, the count and average from the pro page's JSON-LD. Both answer a
 * run of requests from one address with 429 (README), so the queue reads one profile at a time and
 * a 429 is `blocked`, retried after a long pause. No lookup.
 */
export const angi = definePublisher({
  name: "angi",
  displayName: "Angi and HomeAdvisor",
  kind: "home services",
  domains: ["angi.com", "angieslist.com", "homeadvisor.com"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is",
  summaryFields: ["rating", "review_count", "histogram"],
  profile: angiProfile,
  queue: {
    concurrency: 1,
    retries: 5,
    retryDelay: 180,
    note: "angi.com, homeadvisor.com: one profile at a time, a long retry delay (both answer bursts from one address with 429).",
  },
  adapter: jsonWalkAdapter({
    what: "Angi/HomeAdvisor reviews",
    keyOf: angiProfile.keyOf,
    firstPage: 1,
    request: (key, position, pageUrl) =>
      key.startsWith("homeadvisor:")
        ? {
            url: homeAdvisorReviewsUrl(spIdOf(key), position.page),
            options: { headers: { Referer: pageUrl } },
          }
        : { url: pageUrl },
    async fetch(request, key, ctx, position): Promise<Fetched> {
      if (key.startsWith("angi:")) {
        const page = await ctx.client.request(request.url);
        return { site: "angi", roots: await angiPageRoots(page.text, new WorkBudget(ANGI_WHAT)) };
      }
      const pageUrl = request.options?.headers?.Referer;
      if (!pageUrl)
        throw permanentError("publisher_error", `${HOMEADVISOR_WHAT}: no profile page to start from`);
      // Page 1 reads the pro page once for the count and average the ratings JSON does not state.
      let profile: HomeAdvisorProfile | null = null;
      if (position.page === 1) {
        const page = await ctx.client.request(pageUrl);
        const budget = new WorkBudget("HomeAdvisor pro page");
        profile = jsonLdAggregate(await pageJsonLdItems(page.text, budget, "HomeAdvisor pro page"), budget);
      }
      const answer = (await ctx.client.json(request.url, request.options)).data;
      return { site: "homeadvisor", answer, profile };
    },
    parse: parseAngiOrHomeAdvisor,
    // HomeAdvisor: 10 a page, so 1,000 pages is 10,000 ratings, beyond any one pro; Angi reads one page.
    maxPages: 1_000,
  }),
  evidenceDate: "2026-09-15",
});
