import { resolveProfile } from "../kit/profile";
import type { ProfileResolution } from "../types";
import { bbbKey } from "./reviews";

/**
 * Business profiles: `/<country>/<state>/<city>/profile/<category>/<slug>-<bbbId>-<businessId>`,
 * then optionally `/addressId/<n>`, `/customer-reviews` or another tab.
 */
const PROFILE_PATH =
  /^(\/[a-z]{2}\/[^/]{1,100}\/[^/]{1,100}\/profile\/[^/]{1,200}\/[^/]{0,200}-(\d{3,6})-(\d{1,12}))(?:\/|$)/;

/** The `<bbbId>-<businessId>` of a profile URL, or null. */
export function bbbKeyOf(url: URL): string | null {
  const match = PROFILE_PATH.exec(url.pathname);
  return match ? bbbKey(match[2], match[3]) : null;
}

/** The profile's customer-reviews page, the canonical profile URL. */
export function customerReviewsPage(url: URL): string | null {
  const match = PROFILE_PATH.exec(url.pathname);
  return match ? `https://www.bbb.org${match[1]}/customer-reviews` : null;
}

/** profile_key: a business profile URL on bbb.org (any tab of it). BBB's ids alone name no page. */
export function resolveBbbProfile(profileKey: string, publisherKey: string): ProfileResolution {
  return resolveProfile(profileKey, publisherKey, { fromUrl: customerReviewsPage });
}
