import { jsonWalkAdapter } from "../kit/json-walk";
import { definePublisher } from "../types";
import { feedUrl, FEED_PAGES, parseFeedPage, WHAT } from "./feed";
import { appStoreProfile } from "./profile";

/**
 * apps.apple.com (and itunes.apple.com): an app's reviews in one storefront from the public
 * customer-reviews feed, newest first, 10 pages at most. profile_key is the app's page (its
 * storefront picks the country) or the numeric app id (US storefront). Apps have no street
 * address, so there is no lookup.
 */
export const appStore = definePublisher({
  name: "app-store",
  displayName: "App Store",
  kind: "software",
  domains: ["apps.apple.com", "itunes.apple.com"],
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is",
  profile: appStoreProfile,
  queue: { note: "apps.apple.com: the customer-reviews RSS feed per storefront, 10 pages at most." },
  adapter: jsonWalkAdapter({
    what: WHAT,
    keyOf: appStoreProfile.keyOf,
    firstPage: 1,
    request: (key, position) => ({ url: feedUrl(key, position) }),
    parse: parseFeedPage,
    maxPages: FEED_PAGES,
  }),
  evidenceDate: "2026-08-19",
  reviewFields: ["title"],
});
