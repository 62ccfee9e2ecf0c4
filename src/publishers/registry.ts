/**
 * The publishers the service knows. Dedicated modules serve their own domains; every other domain
 * is served by the generic structured-data module. Submit validation, queue dispatch, the queue
 * handler, GET /publishers and the docs' publisher table all read this file.
 *
 * Publishers without a dedicated module are listed as data in ./listed.ts (served by the generic
 * module); a module's own data replaces the listed entry for any domain it claims.
 *
 * Adding a publisher: create its folder `src/publishers/<name>/` and run `npm run generate`, which
 * lists it in ./modules.gen.ts and declares its queue (docs/publishers.md, "Adding a publisher").
 */
import { generic } from "./generic";
import { LISTED, type ListedPublisher } from "./listed";
import { GENERATED_MODULES } from "./modules.gen";
import { moduleQueue } from "./queues";
import type { QueueRef } from "../queue/queue-gate";
import { resolveProfile } from "./kit/profile";
import type { ProfileResolution, PublisherKind, PublisherModule } from "./types";
import { REVIEW_SORTS, type ReviewSort } from "../core/tasks/collection";
import type { SummaryField } from "../core/tasks/publisher-summary";
import { OPTIONAL_REVIEW_FIELDS, type OptionalReviewField } from "../core/reviews";

/** Dedicated modules, each on its own queue: every module folder but generic/, by folder name. */
export const MODULES: readonly PublisherModule[] = GENERATED_MODULES;

/** The module of every domain without a dedicated one. */
export const GENERIC_MODULE: PublisherModule = generic;

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
  /** The orders submit accepts for it: newest first always, then the module's own (`PublisherModule.sorts`). */
  sorts: readonly ReviewSort[];
  resolveProfileKey(profileKey: string): ProfileResolution;
}

/** Newest first, then the orders the module declares, in the API's order. */
export function moduleSorts(module: PublisherModule): readonly ReviewSort[] {
  return REVIEW_SORTS.filter((sort) => sort === "newest" || module.sorts?.[sort] !== undefined);
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
    sorts: moduleSorts(module),
    resolveProfileKey: (profileKey) => module.profile.resolve(profileKey, key),
  };
}

function fromListing(key: string, listed: ListedPublisher): Publisher {
  const fromId = listed.profileUrlFromId;
  return {
    ...fromModule(key, GENERIC_MODULE),
    displayName: listed.displayName,
    kind: listed.kind,
    loginRequired: listed.loginRequired ?? false,
    resolveProfileKey: (profileKey) =>
      resolveProfile(profileKey, key, { fromId: fromId && ((id) => fromId(id, key)) }),
  };
}

/**
 * The listed publishers no module claims. A module that takes over a domain replaces the whole
 * entry, aliases included, so no key keeps generic rules for a publisher that has its own module.
 */
const CLAIMED = new Set(MODULES.flatMap((module) => module.domains));
const UNCLAIMED: readonly ListedPublisher[] = LISTED.filter(
  (listed) => ![listed.domain, ...(listed.aliases ?? [])].some((domain) => CLAIMED.has(domain)),
);

const BY_DOMAIN = new Map<string, (key: string) => Publisher>();
for (const listed of UNCLAIMED)
  for (const domain of [listed.domain, ...(listed.aliases ?? [])])
    BY_DOMAIN.set(domain, (key) => fromListing(key, listed));
for (const module of MODULES)
  for (const domain of module.domains) BY_DOMAIN.set(domain, (key) => fromModule(key, module));

/** The publisher behind a canonical key; unknown domains get the generic module's rules. */
export function publisherFor(publisherKey: string): Publisher {
  return (BY_DOMAIN.get(publisherKey) ?? ((key: string) => fromModule(key, GENERIC_MODULE)))(publisherKey);
}

/** Every module, generic last: one queue each. */
export const ALL_MODULES: readonly PublisherModule[] = [...MODULES, GENERIC_MODULE];

const QUEUES_BY_NAME: ReadonlyMap<string, QueueRef> = new Map(
  ALL_MODULES.map((module) => [moduleQueue(module.name).name, moduleQueue(module.name)]),
);

/** The scraping queue of that name (a consumer knows only its batch's queue name), or undefined. */
export function scrapeQueueNamed(name: string): QueueRef | undefined {
  return QUEUES_BY_NAME.get(name);
}

/** One row of GET /publishers and of the README's publisher table. */
export interface PublisherListing {
  domain: string;
  aliases: readonly string[];
  displayName: string;
  kind: Exclude<PublisherKind, "generic">;
  /** The module's folder name, or "generic". */
  module: string;
  dedicated: boolean;
  loginRequired: boolean;
  lookup: boolean;
  ratingScale: string;
  /**
   * How far the service vouches for it: `dedicated` (a module written for it), `structured-data`
   * (evidence that its review pages carry schema.org Review markup the generic module reads),
   * `embedded-data` (evidence that its pages carry review records in their own JSON, of a shape the
   * generic module reads) or `unverified` (listed, tried with the generic module, nobody checked that
   * it works).
   */
  support: PublisherSupport;
  /** A dedicated module's `evidenceDate`: the newest real evidence it was checked against. */
  evidenceDate: string | null;
  /** A known obstacle (a sign-in or bot wall), where the listing names one. */
  note: string | null;
  /** The orders submit's `sort` accepts for it (newest first always). */
  sorts: readonly ReviewSort[];
  /** The parts of `publisher_summary` its module reads. */
  summaryFields: readonly SummaryField[];
  /** The optional review fields its module fills where the publisher gives them (`PublisherModule.reviewFields`). */
  reviewFields: readonly OptionalReviewField[];
}

export const PUBLISHER_SUPPORT = ["dedicated", "structured-data", "embedded-data", "unverified"] as const;
export type PublisherSupport = (typeof PUBLISHER_SUPPORT)[number];

/** The module's claimed review fields in the API's order (OPTIONAL_REVIEW_FIELDS), each once. */
function orderedFields(module: PublisherModule): readonly OptionalReviewField[] {
  return OPTIONAL_REVIEW_FIELDS.filter((field) => module.reviewFields?.includes(field));
}

function moduleListing(module: PublisherModule): PublisherListing {
  const [domain, ...aliases] = module.domains;
  // "generic" names the catch-all module only; a dedicated module always serves a kind of site.
  if (module.kind === "generic" || !domain)
    throw new Error(`Module ${module.name} must name its kind and at least one domain`);
  return {
    domain,
    aliases,
    displayName: module.displayName,
    kind: module.kind,
    module: module.name,
    dedicated: true,
    loginRequired: module.loginRequired,
    lookup: Boolean(module.lookup),
    ratingScale: module.ratingScale,
    support: "dedicated",
    evidenceDate: module.evidenceDate ?? null,
    note: null,
    sorts: moduleSorts(module),
    summaryFields: module.summaryFields ?? [],
    reviewFields: orderedFields(module),
  };
}

function listedListing(listed: ListedPublisher): PublisherListing {
  return {
    domain: listed.domain,
    aliases: listed.aliases ?? [],
    displayName: listed.displayName,
    kind: listed.kind,
    module: GENERIC_MODULE.name,
    dedicated: false,
    loginRequired: listed.loginRequired ?? false,
    lookup: Boolean(GENERIC_MODULE.lookup),
    ratingScale: listed.ratingScale,
    support: listed.structuredData ? "structured-data" : listed.embeddedData ? "embedded-data" : "unverified",
    evidenceDate: null,
    note: listed.note ?? null,
    sorts: moduleSorts(GENERIC_MODULE),
    summaryFields: GENERIC_MODULE.summaryFields ?? [],
    reviewFields: orderedFields(GENERIC_MODULE),
  };
}

/**
 * Every known publisher, sorted by domain: the dedicated modules from their own data, then the
 * listed ones no module claims. Built from MODULES, so no entry names a module that is not registered.
 */
export function listPublishers(): PublisherListing[] {
  return [...MODULES.map(moduleListing), ...UNCLAIMED.map(listedListing)].sort((a, b) =>
    a.domain.localeCompare(b.domain),
  );
}
