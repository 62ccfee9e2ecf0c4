import { and, asc, count, eq, gt, or } from "drizzle-orm";
import type { Database } from "../../db/client";
import { monitorChanges, monitorReviews, monitorRuns, monitors, type MonitorRow } from "../../db/schema";
import { encryptText } from "../../core/crypto/aes";
import type { Business } from "../../core/tasks/business";
import type { NewTaskInput } from "../../core/tasks/new-request";
import type { Review } from "../../core/reviews/review";
import { watchedFields, type ChangeType, type WatchedFields } from "../../core/monitors/diff";

/** One publisher of a monitor as stored: what each run submits, its login cookies sealed. */
export interface MonitorPublisher {
  publisher_key: string;
  profile_key: string;
  /** The resolved profile URL, or "" where the publisher's module looks the business up. */
  profile_url: string;
  /** Login cookies (JSON), AES-GCM encrypted; null without. */
  cookies_enc: string | null;
  /** The client's collection options, each run's task gets them (monitors walk newest first: no sort). */
  since?: number;
  max_reviews?: number;
}

export interface NewMonitor {
  foreignKey: string;
  business: Business;
  publishers: (Omit<NewTaskInput, "config"> & {
    config: Pick<NewTaskInput["config"], "persona" | "since" | "max_reviews">;
  })[];
  intervalHours: number;
  fullWalkEvery: number;
}

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

export function monitorView(row: MonitorRow): MonitorView {
  return {
    monitor_id: row.id,
    foreign_key: row.foreignKey,
    business: row.business as Business,
    publishers: (row.publishers as MonitorPublisher[]).map((p) => ({
      publisher_key: p.publisher_key,
      profile_key: p.profile_key,
    })),
    interval_hours: row.intervalHours,
    full_walk_every: row.fullWalkEvery,
    status: row.paused ? "paused" : "active",
    runs: row.runs,
    next_run_at: iso(row.nextDueAt),
    last_run_at: iso(row.lastRunAt),
    created_at: new Date(row.createdAt).toISOString(),
  };
}

/** Stores a monitor, due at once: the next cron tick starts its first (baseline) run. */
export async function createMonitor(
  env: Env,
  db: Database,
  accountId: string,
  input: NewMonitor,
  baseUrl: string,
): Promise<MonitorRow> {
  const now = Date.now();
  const publishers: MonitorPublisher[] = await Promise.all(
    input.publishers.map(async (entry) => {
      const login = entry.config.persona?.additional_cookies?.login;
      return {
        publisher_key: entry.publisherKey,
        profile_key: entry.profileKey,
        profile_url: entry.profileUrl,
        cookies_enc: login?.length ? await encryptText(env.ENCRYPTION_KEY, JSON.stringify(login)) : null,
        ...(entry.config.since !== undefined ? { since: entry.config.since } : {}),
        ...(entry.config.max_reviews !== undefined ? { max_reviews: entry.config.max_reviews } : {}),
      };
    }),
  );
  const row: MonitorRow = {
    id: `mon_${crypto.randomUUID()}`,
    accountId,
    foreignKey: input.foreignKey,
    business: input.business,
    publishers,
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
  };
  await db.insert(monitors).values(row);
  return row;
}

/** How many monitors the account has (paused ones included). */
export async function monitorCount(db: Database, accountId: string): Promise<number> {
  const row = await db.select({ n: count() }).from(monitors).where(eq(monitors.accountId, accountId)).get();
  return row?.n ?? 0;
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

/** A page of the account's monitors, oldest first; the cursor is where the previous page ended. */
export async function listMonitors(
  db: Database,
  accountId: string,
  options: { limit: number; after?: { createdAt: number; id: string }; foreignKey?: string },
): Promise<{ rows: MonitorRow[]; hasMore: boolean }> {
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
  return { rows: rows.slice(0, options.limit), hasMore: rows.length > options.limit };
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
    db.delete(monitorReviews).where(eq(monitorReviews.monitorId, monitorId)),
    db.delete(monitorRuns).where(eq(monitorRuns.monitorId, monitorId)),
    db.delete(monitorChanges).where(eq(monitorChanges.monitorId, monitorId)),
  ]);
  return true;
}

/** Pauses (no further runs; a run under way finishes) or resumes a monitor (due at the next tick). */
export async function setPaused(
  db: Database,
  accountId: string,
  monitorId: string,
  paused: boolean,
): Promise<MonitorRow | undefined> {
  const now = Date.now();
  const current = await findMonitor(db, accountId, monitorId);
  if (!current) return undefined;
  if (current.paused === paused) return current;
  return db
    .update(monitors)
    .set({ paused, nextDueAt: paused ? null : now, updatedAt: now })
    .where(and(eq(monitors.id, monitorId), eq(monitors.accountId, accountId)))
    .returning()
    .get();
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
