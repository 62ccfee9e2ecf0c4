/**
 * What a publisher module is. Everything the service knows about one review site lives in its
 * folder (`src/publishers/<name>/`): domains, submit rules, rating scale, adapter, lookup and pure
 * parsers. The registry (./registry.ts) lists the modules; submit validation, queue dispatch, the
 * queue handler and the README's publisher table all derive from it.
 */
import type { z } from "zod";
import type { OptionalReviewField, RawReview } from "../core/reviews";
import type { Business } from "../core/tasks/business";
import type { ReviewSort } from "../core/tasks/collection";
import type { PageSummary, SummaryField } from "../core/tasks/publisher-summary";
import type { PageInspector, PublisherClient } from "../scraping/client";

/** Kinds of review publisher, as GET /publishers and the README list them. */
export const PUBLISHER_KINDS = [
  "maps",
  "listing",
  "travel",
  "hospitality",
  "social",
  "consumer",
  "employer",
  "software",
  "health",
  "home services",
  "automotive",
  "real estate",
  "retail",
  "legal",
  "business services",
  "education",
] as const;

/** A publisher's kind; "generic" is only the generic module's, which serves every other domain. */
export type PublisherKind = "generic" | (typeof PUBLISHER_KINDS)[number];

/** How a submitted profile_key turned out: the profile URL, or the message of a 400. */
export type ProfileResolution = { url: string } | { error: string };

/**
 * One declared case of a module's profile_key rules: the input as a client sends it and the profile
 * URL it becomes, or the exact message it is refused with. `publisher` is the key it is submitted
 * under (default: the module's first domain).
 */
export type ProfileExample = { input: string; publisher?: string } & ({ url: string } | { error: string });

/** A module's profile_key rules (usually `declareProfile` of ./kit/profile.ts) and their examples. */
export interface ModuleProfile {
  /**
   * Turns a non-empty profile_key (trimmed) into the profile URL the adapter starts from, or a
   * message for the 400. `publisherKey` is the canonical key the client used.
   */
  resolve: (profileKey: string, publisherKey: string) => ProfileResolution;
  /** Every form the rules accept and typical refusals; the contract test submits each one. */
  examples: readonly ProfileExample[];
  /** The declared URL and id forms that no accepted example goes through (the contract test wants none). */
  untested?: () => string[];
}

/**
 * The module's scraping queue consumer, which `npm run generate` writes into wrangler.toml (and
 * src/queue/concurrency.gen.ts). Defaults: 2 at once, 5 retries, 60 s apart.
 */
export interface QueueSettings {
  /** Runs of the queue at once: the consumer's max_concurrency and max_batch_size. */
  concurrency?: number;
  /** max_retries: deliveries of a message before it goes to the dead-letter queue. */
  retries?: number;
  /** retry_delay: seconds before a retried message comes back. */
  retryDelay?: number;
  /** The comment above the consumer: what the queue reads and why these settings. */
  note?: string;
}

export interface PublisherModule<C = unknown> {
  /** Folder name, e.g. "google-maps". */
  name: string;
  displayName: string;
  kind: PublisherKind;
  /**
   * Canonical publisher keys this module serves (lower-case, no `www.`). The generic module has none:
   * it serves every domain no other module claims.
   */
  domains: readonly string[];
  /** persona.additional_cookies.login is required at submit. */
  loginRequired: boolean;
  /** How the publisher's own rating scale maps onto 1..5 (README and GET /publishers). */
  ratingScale: string;
  /** profile_key rules and their examples. */
  profile: ModuleProfile;
  /** Its scraping queue's consumer settings (defaults where absent). */
  queue?: QueueSettings;
  /** Finds the profile from the business data when profile_key is empty; absent = profile_key required. */
  lookup?: Lookup;
  adapter: Adapter<C>;
  /**
   * The orders besides newest first that the module can ask the publisher for, each with the
   * publisher's own name for it (the value its request carries); the adapter reads the task's
   * choice from `ScrapeContext.sort`. Absent: newest first only (submit refuses any other sort).
   */
  sorts?: Partial<Record<Exclude<ReviewSort, "newest">, string>>;
  /**
   * False when the publisher serves no newest-first order the module can ask for, so its pages come
   * in the publisher's own order even when the task asks for newest (Capterra's review pages: "most
   * helpful" first). The walk then never ends at a review the client already has or at `since`
   * (a newer review may follow): it reads to the last page, known reviews are dropped as they come,
   * and `max_reviews` keeps the first reviews it meets. Absent: the pages are newest first.
   */
  walksNewestFirst?: boolean;
  /**
   * The parts of `publisher_summary` the module reads from the publisher's pages (`AdapterPage.summary`
   * and `publisherTotal`); GET /publishers lists them, a fixture test asserts each, and where the
   * module's fixture declares a `coverageSample` the contract test checks them on it like `reviewFields`.
   */
  summaryFields?: readonly SummaryField[];
  /**
   * The optional review fields (issue 36: `title`, `likes`, `author_badges`, `photos`, …) the module
   * fills where the publisher gives them. GET /publishers, the module's README and docs/publishers.md
   * list them. The claim is checked: the module's fixture declares a sample (`coverageSample` in
   * test/publishers/<name>/site.ts) and the contract test reads it with this module's adapter, failing
   * for a claimed field no review of the sample shows (and for a shown one left unclaimed). Absent:
   * none claimed, and nothing to check. docs/publishers.md, "Adding a publisher", shows how.
   */
  reviewFields?: readonly OptionalReviewField[];
  /**
   * The date (`YYYY-MM-DD` or `YYYY-MM`) of the newest real evidence the module was checked against:
   * a real capture in its tests, or a current public client whose requests and parsing it follows.
   * GET /publishers shows it as `evidence_date`; the module's README says what that evidence is.
   */
  evidenceDate?: string;
}

export interface LookupContext {
  client: PublisherClient;
  publisherKey: string;
}

/**
 * Finds a business's profile URL from its name and address with the site's own search. Throws
 * `profile_not_found` (a ScrapeError) when nothing matches well enough.
 */
export type Lookup = (business: Business, ctx: LookupContext) => Promise<string>;

/** What an adapter may use while it scrapes a task. */
export interface ScrapeContext {
  publisherKey: string;
  /**
   * Every request an adapter makes goes through this client: PUBLISHER_ORIGINS, the private-network
   * check, the task's login cookies, the body cap, the time budget and the adapter's own block check.
   */
  client: PublisherClient;
  /**
   * The order the client asked for; absent means newest first. Only ever one the module lists in
   * `sorts` (submit refuses the others).
   */
  sort?: ReviewSort;
}

/** One page of reviews, newest first, as an adapter read it. */
export interface AdapterPage<C> {
  /** The URL a review without its own URL links to (the page the reviews are shown on). */
  pageUrl: string;
  reviews: RawReview[];
  /** Where the walk continues (older reviews), or null on the last page. */
  next: C | null;
  /** The page's interface language (`<html lang>`), only to break an unreliable detection. */
  pageLanguage?: string | null;
  /** The profile's URL as this page finally reached it (after redirects); kept from the first page. */
  profileUrl?: string;
  /**
   * How many reviews the publisher says the profile has, where the page states it (usually the first
   * page). The pipeline compares it with what a full walk collected (`coverage` in the retrieve).
   */
  publisherTotal?: number | null;
  /**
   * The publisher's own average rating (on its scale) and star histogram for the profile, where the
   * page shows them (usually the first page); the count is `publisherTotal`. Retrieve and the
   * task.completed webhook show them as `publisher_summary`.
   */
  summary?: PageSummary | null;
  /**
   * Set when the module knows reviews remain that it cannot reach (a signed-out view capped at five
   * reviews, a feed that stops at 500, an operation that ignores its offset): a short reason naming
   * the limit. The task then completes with `coverage.complete: false` and this reason; never a
   * silent success with fewer reviews than the publisher shows.
   */
  limitedView?: string | null;
}

/**
 * Scrapes one publisher. Adapters are stateless between pages: everything a run resumes from is in
 * the cursor, which the adapter defines and the pipeline stores (validated with `cursor` on read).
 */
export interface Adapter<C> {
  /** Validates a stored cursor; a cursor that does not parse fails the task as `internal`. */
  cursor: z.ZodType<C>;
  /**
   * Opens the profile: resolves the URL the client gave (short links, redirects) to the canonical
   * profile URL stored on the task, and the cursor of the first (newest) page.
   */
  start(profileUrl: string, ctx: ScrapeContext): Promise<{ profileUrl: string; cursor: C }>;
  /** Reads one page. A page whose structure is not what the adapter expects throws `publisher_error`. */
  page(cursor: C, ctx: ScrapeContext): Promise<AdapterPage<C>>;
  /**
   * Runs on every 2xx answer the adapter gets (plain or rendered): block, captcha, consent and login
   * pages come with status 200, and only the adapter knows what its real pages look like.
   */
  inspect?: PageInspector;
}

/**
 * Checks a module against the interface with its own cursor type, then erases that type for the
 * registry: the pipeline only ever hands an adapter a cursor its own `cursor` schema has parsed, so
 * the one cast lives here instead of at every use.
 */
export function definePublisher<C>(module: PublisherModule<C>): PublisherModule {
  return module;
}
