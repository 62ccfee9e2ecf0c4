import { and, asc, eq, gt, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import {
  monitorChanges,
  monitorDetails,
  monitorReviews,
  monitorRuns,
  monitors,
  type MonitorRow,
} from "../../db/schema";
import { encryptText } from "../../core/crypto/aes";
import type { Business } from "../../core/tasks/business";
import type { NewTaskInput } from "../../core/tasks/new-request";
import type { Review } from "../../core/reviews/review";
import { watchedFields, type ChangeType, type WatchedFields } from "../../core/monitors/diff";

/** One publisher of a monitor as stored (monitor_details.publishers): what each run submits. */
export interface MonitorPublisher {
  publisher_key: string;
  profile_key: string;
  /** The resolved profile URL, or "" where the publisher's module looks the business up. */
  profile_url: string;
  /** The client's collection options; each run's task gets them (monitors walk newest first: no sort). */
  since?: number;
  max_reviews?: number;
}

/** Login cookies (JSON), AES-GCM sealed, by publisher key (monitor_details.cookies). */
export type SealedCookies = Record<string, string>;

/**
 * How large a monitor may be as stored (docs/monitoring.md, "Limits"): the cron loads one monitor
 * per run start and list-monitors pages by these bytes, so no read grows with what a client stores.
 */
export const MONITOR_LIMITS = {
  /** The business as JSON (UTF-8 bytes). */
  businessBytes: 16_384,
  /** The publishers as stored: profile keys and URLs, plus the sealed login cookies, as JSON. */
  publishersBytes: 65_536,
} as const;

/** list-monitors stops a page once it holds this many bytes of businesses and publishers. */
export const LIST_PAGE_BYTES = 4 * 1024 * 1024;

export interface NewMonitor {
  foreignKey: string;
  business: Business;
  publishers: (Omit<NewTaskInput, "config"> & {
    config: Pick<NewTaskInput["config"], "persona" | "since" | "max_reviews">;
  })[];
  intervalHours: number;
  fullWalkEvery: number;
}

/** A monitor with what the API shows of its details (never its cookies). */
export type MonitorWithDetails = MonitorRow & { business: Business; publishers: MonitorPublisher[] };

/** A monitor as the API shows it. */
export interface MonitorView {
  monitor_id: string;
  foreign_key: string;
  business: Business;
  publishers: { publisher_key: string; profile_key: string }[];
  interval_hours: number;
  full_walk_every: number;
  status: "active" | "paused";
  runs: number;
  next_run_at: string | null;
  last_run_at: string | null;
  created_at: string;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function monitorView(row: MonitorWithDetails): MonitorView {
  return {
    monitor_id: row.id,
    foreign_key: row.foreignKey,
    business: row.business,
    publishers: row.publishers.map((p) => ({ publisher_key: p.publisher_key, profile_key: p.profile_key })),
    interval_hours: row.intervalHours,
    full_walk_every: row.fullWalkEvery,
    status: row.paused ? "paused" : "active",
    runs: row.runs,
    next_run_at: iso(row.nextDueAt),
    last_run_at: iso(row.lastRunAt),
    created_at: new Date(row.createdAt).toISOString(),
  };
}

const utf8Bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

export type CreateOutcome =
  | { ok: true; monitor: MonitorWithDetails }
  | { ok: false; reason: "cap" }
  | { ok: false; reason: "size"; field: "business" | "publishers"; bytes: number; max: number };

/**
 * Stores a monitor, due at once: the next cron tick starts its first (baseline) run. The plan's cap
 * (`cap`, null = none) is checked by the insert itself, so concurrent creates cannot pass it: D1
 * runs one statement at a time, and the count and the insert are one statement.
 */
export async function createMonitor(
  env: Env,
  d1: Pick<D1Database, "prepare" | "batch">,
  accountId: string,
  input: NewMonitor,
  baseUrl: string,
  cap: number | null,
): Promise<CreateOutcome> {
  const now = Date.now();
  const publishers: MonitorPublisher[] = input.publishers.map((entry) => ({
    publisher_key: entry.publisherKey,
    profile_key: entry.profileKey,
    profile_url: entry.profileUrl,
    ...(entry.config.since !== undefined ? { since: entry.config.since } : {}),
    ...(entry.config.max_reviews !== undefined ? { max_reviews: entry.config.max_reviews } : {}),
  }));
  const cookies: SealedCookies = {};
  for (const entry of input.publishers) {
    const login = entry.config.persona?.additional_cookies?.login;
    if (login?.length)
      cookies[entry.publisherKey] = await encryptText(env.ENCRYPTION_KEY, JSON.stringify(login));
  }
  const businessBytes = utf8Bytes(input.business);
  if (businessBytes > MONITOR_LIMITS.businessBytes)
    return {
      ok: false,
      reason: "size",
      field: "business",
      bytes: businessBytes,
      max: MONITOR_LIMITS.businessBytes,
    };
  const publishersBytes = utf8Bytes(publishers) + utf8Bytes(cookies);
  if (publishersBytes > MONITOR_LIMITS.publishersBytes)
    return {
      ok: false,
      reason: "size",
      field: "publishers",
      bytes: publishersBytes,
      max: MONITOR_LIMITS.publishersBytes,
    };
  const row: MonitorRow = {
    id: `mon_${crypto.randomUUID()}`,
    accountId,
    foreignKey: input.foreignKey,
    intervalHours: input.intervalHours,
    fullWalkEvery: input.fullWalkEvery,
    paused: false,
    runs: 0,
    nextDueAt: now,
    changeSeq: 0,
    settledRuns: 0,
    baseUrl,
    lastRunAt: null,
    createdAt: now,
    updatedAt: now,
    detailsBytes: businessBytes + utf8Bytes(publishers),
    suspendedAt: null,
  };
  const [inserted] = await d1.batch([
    d1
      .prepare(
        `INSERT INTO monitors (id, account_id, foreign_key, interval_hours, full_walk_every, next_due_at, base_url,
         created_at, updated_at, details_bytes)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?6, ?6, ?8
       WHERE ?9 IS NULL OR (SELECT count(*) FROM monitors WHERE account_id = ?2) < ?9`,
      )
      .bind(
        row.id,
        accountId,
        row.foreignKey,
        row.intervalHours,
        row.fullWalkEvery,
        now,
        baseUrl,
        row.detailsBytes,
        cap,
      ),
    d1
      .prepare(
        `INSERT INTO monitor_details (monitor_id, business, publishers, cookies)
       SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM monitors WHERE id = ?1)`,
      )
      .bind(row.id, JSON.stringify(input.business), JSON.stringify(publishers), JSON.stringify(cookies)),
  ]);
  if (!inserted.meta.changes) return { ok: false, reason: "cap" };
  return { ok: true, monitor: { ...row, business: input.business, publishers } };
}

export async function findMonitor(
  db: Database,
  accountId: string,
  monitorId: string,
): Promise<MonitorRow | undefined> {
  return db
    .select()
    .from(monitors)
    .where(and(eq(monitors.id, monitorId), eq(monitors.accountId, accountId)))
    .get();
}

/** The rows with their business and publishers (one query; the cookies are not read). */
async function withDetails(db: Database, rows: MonitorRow[]): Promise<MonitorWithDetails[]> {
  if (!rows.length) return [];
  const details = await db
    .select({
      monitorId: monitorDetails.monitorId,
      business: monitorDetails.business,
      publishers: monitorDetails.publishers,
    })
    .from(monitorDetails)
    .where(
      sql`${monitorDetails.monitorId} IN (SELECT value FROM json_each(${JSON.stringify(rows.map((row) => row.id))}))`,
    )
    .all();
  const byId = new Map(details.map((d) => [d.monitorId, d]));
  return rows.map((row) => ({
    ...row,
    business: (byId.get(row.id)?.business ?? {}) as Business,
    publishers: (byId.get(row.id)?.publishers ?? []) as MonitorPublisher[],
  }));
}

/**
 * A page of the account's monitors, oldest first; the cursor is where the previous page ended. A
 * page ends early once it holds LIST_PAGE_BYTES of details (the client follows next_cursor as
 * always), so one answer never reads more than that from D1, whatever the limit.
 */
export async function listMonitors(
  db: Database,
  accountId: string,
  options: { limit: number; after?: { createdAt: number; id: string }; foreignKey?: string },
): Promise<{ rows: MonitorWithDetails[]; hasMore: boolean }> {
  const conditions = [eq(monitors.accountId, accountId)];
  if (options.foreignKey !== undefined) conditions.push(eq(monitors.foreignKey, options.foreignKey));
  if (options.after) {
    const { createdAt, id } = options.after;
    conditions.push(
      or(gt(monitors.createdAt, createdAt), and(eq(monitors.createdAt, createdAt), gt(monitors.id, id)))!,
    );
  }
  const rows = await db
    .select()
    .from(monitors)
    .where(and(...conditions))
    .orderBy(asc(monitors.createdAt), asc(monitors.id))
    .limit(options.limit + 1)
    .all();
  let bytes = 0;
  let kept = 0;
  while (kept < Math.min(rows.length, options.limit)) {
    if (kept > 0 && bytes + rows[kept].detailsBytes > LIST_PAGE_BYTES) break;
    bytes += rows[kept].detailsBytes;
    kept += 1;
  }
  return { rows: await withDetails(db, rows.slice(0, kept)), hasMore: rows.length > kept };
}

/**
 * Deletes a monitor with everything it kept (review state, runs, changes). The tasks its runs made
 * stay: they are ordinary tasks of the account, retrievable until they expire like any other.
 */
export async function deleteMonitor(db: Database, accountId: string, monitorId: string): Promise<boolean> {
  const [gone] = await db.batch([
    db
      .delete(monitors)
      .where(and(eq(monitors.id, monitorId), eq(monitors.accountId, accountId)))
      .returning({ id: monitors.id }),
  ]);
  if (!gone.length) return false;
  await db.batch([
    db.delete(monitorDetails).where(eq(monitorDetails.monitorId, monitorId)),
    db.delete(monitorReviews).where(eq(monitorReviews.monitorId, monitorId)),
    db.delete(monitorRuns).where(eq(monitorRuns.monitorId, monitorId)),
    db.delete(monitorChanges).where(eq(monitorChanges.monitorId, monitorId)),
  ]);
  return true;
}

/**
 * The earliest a monitor may run again: its interval after its last run, or now if that has passed
 * (or it never ran). A resume, and the end of a suspension, keep the schedule this way: never due
 * sooner than the interval after the last run, so pausing and resuming cannot run a monitor more
 * often than its plan allows.
 */
export const KEEP_SCHEDULE_SQL = (now: number) =>
  sql`max(${now}, coalesce(${monitors.lastRunAt} + ${monitors.intervalHours} * 3600000, ${now}))`;

/**
 * Pauses (no further runs; a run under way finishes) or resumes a monitor (due again at its
 * interval after its last run). A resume also ends a suspension: whoever asks holds a live key.
 */
export async function setPaused(
  db: Database,
  accountId: string,
  monitorId: string,
  paused: boolean,
): Promise<MonitorWithDetails | undefined> {
  const now = Date.now();
  const current = await findMonitor(db, accountId, monitorId);
  if (!current) return undefined;
  if (current.paused === paused) return (await withDetails(db, [current]))[0];
  const row = await db
    .update(monitors)
    .set(
      paused
        ? { paused, nextDueAt: null, updatedAt: now }
        : { paused, nextDueAt: KEEP_SCHEDULE_SQL(now), suspendedAt: null, updatedAt: now },
    )
    .where(and(eq(monitors.id, monitorId), eq(monitors.accountId, accountId)))
    .returning()
    .get();
  return row && (await withDetails(db, [row]))[0];
}

/** One detected change as the changes endpoint and the review.* events show it. */
export interface ChangeView {
  seq: number;
  event: ChangeType;
  monitor_id: string;
  publisher_key: string;
  review_id: string;
  task_id: string;
  run: number;
  detected_at: string;
  /** The review now (created, updated) or as last seen (deleted). */
  review: Review;
  /** Only on review.updated: the watched fields as last seen and as seen now. */
  before?: WatchedFields;
  after?: WatchedFields;
}

export type ChangeRow = typeof monitorChanges.$inferSelect;

export function changeView(row: ChangeRow): ChangeView {
  const before = row.before as Review | null;
  const after = row.after as Review | null;
  const view: ChangeView = {
    seq: row.seq,
    event: row.type as ChangeType,
    monitor_id: row.monitorId,
    publisher_key: row.publisherKey,
    review_id: row.reviewId,
    task_id: row.taskId,
    run: row.run,
    detected_at: new Date(row.detectedAt).toISOString(),
    review: (after ?? before)!,
  };
  if (row.type === "review.updated" && before && after) {
    view.before = watchedFields(before);
    view.after = watchedFields(after);
  }
  return view;
}

/** The monitor's changes after `afterSeq`, in detection order. */
export async function listChanges(
  db: Database,
  monitorId: string,
  afterSeq: number,
  limit: number,
): Promise<{ rows: ChangeRow[]; hasMore: boolean }> {
  const rows = await db
    .select()
    .from(monitorChanges)
    .where(and(eq(monitorChanges.monitorId, monitorId), gt(monitorChanges.seq, afterSeq)))
    .orderBy(asc(monitorChanges.seq))
    .limit(limit + 1)
    .all();
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}
