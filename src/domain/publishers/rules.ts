/**
 * What the submit endpoint needs to know about a publisher before any scraping: whether its adapter
 * can find the business without a profile_key, whether it needs login cookies, and how to turn a
 * bare id into a profile URL. Unknown domains get the generic structured-data adapter's rules.
 */
export interface PublisherRules {
  /** The adapter can look the business up from name and address. */
  lookup: boolean;
  /** persona.additional_cookies.login is required. */
  loginRequired: boolean;
  /** Builds the profile URL from an id; absent where only URLs are accepted. */
  profileUrlFromId?: (id: string) => string;
}

const GENERIC: PublisherRules = { lookup: false, loginRequired: false };

const KNOWN: Record<string, PublisherRules> = {
  "facebook.com": {
    lookup: false,
    loginRequired: true,
    profileUrlFromId: (id) => `https://www.facebook.com/${encodeURIComponent(id)}/reviews`,
  },
  "yelp.com": {
    lookup: false,
    loginRequired: true,
    profileUrlFromId: (id) => `https://www.yelp.com/biz/${encodeURIComponent(id)}`,
  },
  "trustpilot.com": {
    lookup: false,
    loginRequired: false,
    profileUrlFromId: (id) => `https://www.trustpilot.com/review/${encodeURIComponent(id)}`,
  },
};

export function publisherRules(publisherKey: string): PublisherRules {
  return KNOWN[publisherKey] ?? GENERIC;
}
