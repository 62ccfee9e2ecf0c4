import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  plan: text("plan").notNull(),
  createdAt: integer("created_at").notNull(),
});

/** Keys are stored only as a SHA-256 hash; `prefix` lets an operator recognise a key in listings. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_key_hash_idx").on(t.keyHash), index("api_keys_account_idx").on(t.accountId)],
);

export const requests = sqliteTable(
  "requests",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    foreignKey: text("foreign_key").notNull(),
    lazy: integer("lazy", { mode: "boolean" }).notNull(),
    /** The business exactly as submitted (JSON), echoed by retrieve. */
    business: text("business", { mode: "json" }).notNull(),
    /** Origin the request came in on; signed file URLs sent by webhook point there. */
    baseUrl: text("base_url").notNull(),
    createdAt: integer("created_at").notNull(),
    /** The batch this request came in (POST /submit/batch/); null for a single submit. */
    batchId: text("batch_id"),
    /** The request's index in its batch's `requests`. */
    batchIndex: integer("batch_index"),
  },
  (t) => [
    index("requests_account_foreign_key_idx").on(t.accountId, t.foreignKey),
    index("requests_batch_idx")
      .on(t.batchId, t.batchIndex)
      .where(sql`batch_id IS NOT NULL`),
  ],
);

/** One accepted batch submit (docs/batch.md): its requests carry its id. */
export const batches = sqliteTable("batches", {
  id: text("id").primaryKey(),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id),
  /** Requests (accepted items) and tasks the batch created. */
  requests: integer("requests").notNull(),
  tasks: integer("tasks").notNull(),
  createdAt: integer("created_at").notNull(),
});

export const tasks = sqliteTable(
  "tasks",
  {
    id: text("id").primaryKey(),
    requestId: text("request_id")
      .notNull()
      .references(() => requests.id),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    foreignKey: text("foreign_key").notNull(),
    publisherKey: text("publisher_key").notNull(),
    /** Order of the publisher within its request. */
    position: integer("position").notNull(),
    /** profile_key as submitted (may be empty where the adapter looks the business up). */
    profileKey: text("profile_key").notNull(),
    /** The profile URL the scraper resolved and used. */
    profileUrl: text("profile_url"),
    status: integer("status").notNull(),
    reason: text("reason"),
    /** Scrape options: last_review_hashes, first_page_only, lazy. */
    options: text("options", { mode: "json" }).notNull(),
    /** Login cookies, AES-GCM encrypted; cleared when the task ends. */
    cookiesEnc: text("cookies_enc"),
    /** Where a resumable run continues (adapter-defined JSON). */
    cursor: text("cursor", { mode: "json" }),
    pagesScraped: integer("pages_scraped").notNull().default(0),
    /** The review count the publisher states for the profile (the latest page that stated one). */
    publisherTotal: integer("publisher_total"),
    /** The adapter's reason when it knows reviews remain that it cannot reach (AdapterPage.limitedView). */
    limitedView: text("limited_view"),
    /**
     * Set with the last page: 1 when the walk went to the publisher's last page (so what it collected
     * is compared with publisher_total), 0 when it stopped early by design (first_page_only, a known
     * review reached, the plan's page budget). See src/core/tasks/coverage.ts.
     */
    fullWalk: integer("full_walk", { mode: "boolean" }),
    /** Why the walk stopped short of the end: the page budget, or a failure after page 1 ("blocked: ..."). */
    stopReason: text("stop_reason"),
    /** The publisher's rating, scale and histogram as a page showed them (StoredSummary, JSON); null without. */
    publisherSummary: text("publisher_summary", { mode: "json" }),
    reviewsFound: integer("reviews_found").notNull().default(0),
    /** Requests made to the publisher by route kind (src/scraping/routes): what a task cost. */
    requestsDirect: integer("requests_direct").notNull().default(0),
    requestsBrowser: integer("requests_browser").notNull().default(0),
    requestsProvider: integer("requests_provider").notNull().default(0),
    /** Keys of the raw JSON Lines page files in R2, in scrape order. */
    files: text("files", { mode: "json" })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    /**
     * Where the completed task's reviews are in R2: the key prefix of its newest-first JSON Lines
     * object and index (src/storage/task-reviews.ts), written once at completion; null before.
     */
    reviewsKey: text("reviews_key"),
    runs: integer("runs").notNull().default(0),
    /** The run currently holding the task (random token) and until when; see src/app/scrape/lease.ts. */
    leaseToken: text("lease_token"),
    leaseUntil: integer("lease_until"),
    deadlineAt: integer("deadline_at"),
    createdAt: integer("created_at").notNull(),
    startedAt: integer("started_at"),
    finishedAt: integer("finished_at"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("tasks_account_foreign_key_idx").on(t.accountId, t.foreignKey, t.publisherKey),
    index("tasks_request_idx").on(t.requestId),
    index("tasks_status_updated_idx").on(t.status, t.updatedAt),
    // Canary history: the system account's last runs per publisher (src/app/health/).
    index("tasks_account_publisher_finished_idx").on(t.accountId, t.publisherKey, t.finishedAt),
    // Retention (src/app/scrape/retention.ts): finished tasks oldest first.
    index("tasks_finished_idx")
      .on(t.finishedAt)
      .where(sql`${t.finishedAt} IS NOT NULL`),
  ],
);

export const webhooks = sqliteTable("webhooks", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id),
  url: text("url").notNull(),
  /** Signing secret, AES-GCM encrypted. */
  secretEnc: text("secret_enc").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export type Account = typeof accounts.$inferSelect;
export type TaskRow = typeof tasks.$inferSelect;

/**
 * Outcomes of finished tasks per publisher and hour (hour = ms since the epoch, floored), written in
 * the batch that completes or fails each task and kept 30 days. Publisher health reads these.
 */
export const publisherHours = sqliteTable(
  "publisher_hours",
  {
    publisherKey: text("publisher_key").notNull(),
    hour: integer("hour").notNull(),
    tasks: integer("tasks").notNull().default(0),
    succeeded: integer("succeeded").notNull().default(0),
    /** Failures that point at the publisher: blocked, publisher_error, profile_not_found. */
    failedPublisher: integer("failed_publisher").notNull().default(0),
    failedOther: integer("failed_other").notNull().default(0),
    canaryTasks: integer("canary_tasks").notNull().default(0),
    pages: integer("pages").notNull().default(0),
    reviews: integer("reviews").notNull().default(0),
    durationMs: integer("duration_ms").notNull().default(0),
    /** Requests the hour's finished tasks made on each fetch route (the route each used). */
    requestsDirect: integer("requests_direct").notNull().default(0),
    requestsBrowser: integer("requests_browser").notNull().default(0),
    requestsProvider: integer("requests_provider").notNull().default(0),
    lastSuccessAt: integer("last_success_at"),
    lastFailureAt: integer("last_failure_at"),
    lastFailureReason: text("last_failure_reason"),
    /** Up to three accounts (JSON array of ids) whose tasks failed for a publisher reason in the hour. */
    failedAccounts: text("failed_accounts").notNull().default("[]"),
  },
  (t) => [primaryKey({ columns: [t.publisherKey, t.hour] }), index("publisher_hours_hour_idx").on(t.hour)],
);

/** The health status each publisher was last seen in; an operator alert goes out when it changes. */
export const publisherHealth = sqliteTable("publisher_health", {
  publisherKey: text("publisher_key").primaryKey(),
  status: text("status").notNull(),
  changedAt: integer("changed_at").notNull(),
});

/**
 * Review monitors (issue 21): a business registered once and collected on a schedule. The row is
 * small (the schedule); what each run submits is in monitor_details. `next_due_at` is null while
 * paused or suspended. `change_seq` numbers the monitor's changes in detection order (monitor_changes.seq).
 */
export const monitors = sqliteTable(
  "monitors",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id),
    foreignKey: text("foreign_key").notNull(),
    intervalHours: integer("interval_hours").notNull(),
    fullWalkEvery: integer("full_walk_every").notNull(),
    paused: integer("paused", { mode: "boolean" }).notNull().default(false),
    /** Runs started so far; run n is a full walk when (n - 1) % full_walk_every = 0. */
    runs: integer("runs").notNull().default(0),
    nextDueAt: integer("next_due_at"),
    changeSeq: integer("change_seq").notNull().default(0),
    /** Runs settled so far: numbers each settled run (monitor_runs.settle_order) in commit order. */
    settledRuns: integer("settled_runs").notNull().default(0),
    /** Origin the monitor was created on; signed file URLs in its tasks' events point there. */
    baseUrl: text("base_url").notNull(),
    lastRunAt: integer("last_run_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** Bytes of the monitor's business and publishers as stored: list-monitors pages by them. */
    detailsBytes: integer("details_bytes").notNull().default(0),
    /** Set while the account has no active API key (no runs); cleared when one exists again. */
    suspendedAt: integer("suspended_at"),
  },
  (t) => [
    // Covers the cron claim (due monitors ranked per account) without reading a row.
    index("monitors_due_idx").on(t.nextDueAt, t.accountId, t.id),
    index("monitors_account_idx").on(t.accountId, t.createdAt),
    index("monitors_suspended_idx")
      .on(t.accountId)
      .where(sql`${t.suspendedAt} IS NOT NULL`),
  ],
);

/**
 * What a monitor's runs submit, apart from its schedule row: the business, the publishers
 * (`[{publisher_key, profile_key, profile_url}]`) and their login cookies, AES-GCM sealed, by
 * publisher key (`cookies` is read only when a run starts, never by list-monitors).
 */
export const monitorDetails = sqliteTable("monitor_details", {
  monitorId: text("monitor_id").primaryKey(),
  business: text("business", { mode: "json" }).notNull(),
  publishers: text("publishers", { mode: "json" }).notNull(),
  cookies: text("cookies", { mode: "json" }).notNull(),
});

/** One row per task a monitor run created: whether its diff was applied yet, and what it found. */
export const monitorRuns = sqliteTable(
  "monitor_runs",
  {
    taskId: text("task_id").primaryKey(),
    monitorId: text("monitor_id").notNull(),
    run: integer("run").notNull(),
    publisherKey: text("publisher_key").notNull(),
    fullWalk: integer("full_walk", { mode: "boolean" }).notNull(),
    /** running → settling (changes numbered, being written) → settled, or failed (the task failed; nothing applied). */
    state: text("state").notNull(),
    created: integer("created").notNull().default(0),
    updated: integer("updated").notNull().default(0),
    deleted: integer("deleted").notNull().default(0),
    reviewsSeen: integer("reviews_seen").notNull().default(0),
    /** A full walk that reached the publisher's last page (deletions are only inferred from those). */
    complete: integer("complete", { mode: "boolean" }),
    baseline: integer("baseline", { mode: "boolean" }).notNull().default(false),
    /** Position among the monitor's settled runs: their events go to the outbox in this order. */
    settleOrder: integer("settle_order"),
    /** The run's changes are numbered settle_base + 1, … (reserved when it started settling). */
    settleBase: integer("settle_base"),
    /** The run's events are in the account's outbox (or there was no webhook to send them to). */
    eventsQueued: integer("events_queued", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
    settledAt: integer("settled_at"),
  },
  // Unique: a second start of one run (a claim retried while the first start still ran) fails whole.
  (t) => [
    uniqueIndex("monitor_runs_run_idx").on(t.monitorId, t.run, t.publisherKey),
    index("monitor_runs_unsettled_idx")
      .on(t.taskId)
      .where(sql`${t.state} IN ('running', 'settling')`),
  ],
);

/** What a monitor last saw of each review: its hash, the run that last saw it, and the review itself. */
export const monitorReviews = sqliteTable(
  "monitor_reviews",
  {
    monitorId: text("monitor_id").notNull(),
    publisherKey: text("publisher_key").notNull(),
    reviewId: text("review_id").notNull(),
    reviewHash: text("review_hash").notNull(),
    postedAt: integer("posted_at").notNull(),
    lastSeenRun: integer("last_seen_run").notNull(),
    /** The review as last seen (JSON): the `before` of an update and the body of a deletion. */
    data: text("data", { mode: "json" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.monitorId, t.publisherKey, t.reviewId] }),
    index("monitor_reviews_newest_idx").on(t.monitorId, t.publisherKey, t.postedAt),
  ],
);

/** Every change a monitor detected, numbered per monitor in detection order (the changes endpoint's cursor). */
export const monitorChanges = sqliteTable(
  "monitor_changes",
  {
    monitorId: text("monitor_id").notNull(),
    seq: integer("seq").notNull(),
    type: text("type").notNull(),
    publisherKey: text("publisher_key").notNull(),
    reviewId: text("review_id").notNull(),
    taskId: text("task_id").notNull(),
    run: integer("run").notNull(),
    before: text("before", { mode: "json" }),
    after: text("after", { mode: "json" }),
    detectedAt: integer("detected_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.monitorId, t.seq] }), index("monitor_changes_task_idx").on(t.taskId)],
);

export type MonitorRow = typeof monitors.$inferSelect;
