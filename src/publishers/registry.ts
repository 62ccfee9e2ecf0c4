/**
 * The publishers the service knows. Dedicated modules serve their own domains; every other domain
 * is served by the generic structured-data module. Submit validation, queue dispatch, the queue
 * handler, GET /publishers and the README's publisher table all read this file.
 *
 * Adding a publisher: create `src/publishers/<name>/` (see README "Adding a publisher") and list its
 * module here; give it a queue in wrangler.toml.
 */
import { generic } from "./generic";
import { resolveProfile } from "./profile";
import type { ProfileResolution, PublisherKind, PublisherModule } from "./types";

/** Dedicated modules, each on its own queue. */
export const MODULES: readonly PublisherModule[] = [];

/** The module of every domain without a dedicated one. */
export const GENERIC_MODULE: PublisherModule = generic as PublisherModule;

/**
 * A publisher served by the generic module, listed so that clients see its name and kind and so
 * that submit applies its rules (login cookies, ids). It claims no adapter of its own.
 */
export interface ListedPublisher {
  domain: string;
  aliases?: readonly string[];
  displayName: string;
  kind: PublisherKind;
  loginRequired?: boolean;
  /** Builds a profile URL from a bare id or slug. */
  profileUrlFromId?: (id: string) => string;
}

export const LISTED: readonly ListedPublisher[] = [
  {
    domain: "facebook.com",
    displayName: "Facebook",
    kind: "social",
    loginRequired: true,
    profileUrlFromId: (id) => `https://www.facebook.com/${encodeURIComponent(id)}/reviews`,
  },
  {
    domain: "yelp.com",
    displayName: "Yelp",
    kind: "listing",
    loginRequired: true,
    profileUrlFromId: (id) => `https://www.yelp.com/biz/${encodeURIComponent(id)}`,
  },
  {
    domain: "trustpilot.com",
    displayName: "Trustpilot",
    kind: "consumer",
    profileUrlFromId: (id) => `https://www.trustpilot.com/review/${encodeURIComponent(id)}`,
  },
];

/** What submit and the pipeline need to know about one publisher key. */
export interface Publisher {
  /** The canonical key as the client used it (an alias stays as written). */
  key: string;
  displayName: string;
  kind: PublisherKind;
  module: PublisherModule;
  dedicated: boolean;
  loginRequired: boolean;
  lookup: boolean;
  ratingScale: string;
  resolveProfileKey(profileKey: string): ProfileResolution;
}

function fromModule(key: string, module: PublisherModule): Publisher {
  return {
    key,
    displayName: module.displayName,
    kind: module.kind,
    module,
    dedicated: module !== GENERIC_MODULE,
    loginRequired: module.loginRequired,
    lookup: Boolean(module.lookup),
    ratingScale: module.ratingScale,
    resolveProfileKey: (profileKey) => module.resolveProfileKey(profileKey, key),
  };
}

function fromListing(key: string, listed: ListedPublisher): Publisher {
  return {
    ...fromModule(key, GENERIC_MODULE),
    displayName: listed.displayName,
    kind: listed.kind,
    loginRequired: listed.loginRequired ?? false,
    resolveProfileKey: (profileKey) => resolveProfile(profileKey, key, { fromId: listed.profileUrlFromId }),
  };
}

const BY_DOMAIN = new Map<string, (key: string) => Publisher>();
for (const listed of LISTED) for (const domain of [listed.domain, ...(listed.aliases ?? [])]) BY_DOMAIN.set(domain, (key) => fromListing(key, listed));
for (const module of MODULES) for (const domain of module.domains) BY_DOMAIN.set(domain, (key) => fromModule(key, module));

/** The publisher behind a canonical key; unknown domains get the generic module's rules. */
export function publisherFor(publisherKey: string): Publisher {
  return (BY_DOMAIN.get(publisherKey) ?? ((key: string) => fromModule(key, GENERIC_MODULE)))(publisherKey);
}

/** Every module, generic last: one queue each. */
export const ALL_MODULES: readonly PublisherModule[] = [...MODULES, GENERIC_MODULE];
