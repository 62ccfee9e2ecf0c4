import type { PageInspector } from "../../scraping/client";
import { transientError } from "../../scraping/errors";
import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { detailsUrl, googlePlayProfile, playKeyOf } from "./profile";
import { batchexecuteUrl, parsePlayKey, parseReviewsAnswer, reviewsRequestBody, WHAT } from "./rpc";

/**
 * Google answers an automated burst with its "unusual traffic" page (`/sorry/`), sometimes with 200;
 * that is a rate limit, retried later as `blocked`.
 */
const inspectPlayPage: PageInspector = (page) => {
  if (
    page.url.pathname.startsWith("/sorry/") ||
    /unusual traffic from your computer/i.test(page.text.slice(0, 5_000))
  ) {
    return transientError("blocked", "Google Play answered with its unusual-traffic page");
  }
  return null;
};

/**
 * play.google.com: an app's reviews from the batchexecute `oCPfdb` RPC the store's pages use,
 * newest first, 200 a call by continuation token, with the developer's reply. profile_key is the
 * app's details page or its package name. Apps have no street address, so there is no lookup.
 */
export const googlePlay = definePublisher({
  name: "google-play",
  displayName: "Google Play",
  kind: "software",
  domains: ["play.google.com"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is",
  profile: googlePlayProfile,
  queue: {
    note: "play.google.com: batchexecute review pages by continuation token; Google rate-limits bursts.",
  },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: playKeyOf,
    // The details page once: an unknown app is a 404 there (profile_not_found), which the RPC
    // would only answer with an empty list.
    async open(key, _profileUrl, ctx) {
      const pageUrl = detailsUrl(parsePlayKey(key));
      await ctx.client.request(pageUrl);
      return { key, pageUrl };
    },
    firstPage: 0,
    request: (key, position) => {
      const playKey = parsePlayKey(key);
      return {
        url: batchexecuteUrl(playKey),
        options: { method: "POST", form: { "f.req": reviewsRequestBody(playKey, position) } },
      };
    },
    parse: parseReviewsAnswer,
    // 200 a call: 5,000 calls is a million reviews, past which the walk is taken as not ending.
    maxPages: 5_000,
    inspect: inspectPlayPage,
  }),
  evidenceDate: "2026-08-19",
});
