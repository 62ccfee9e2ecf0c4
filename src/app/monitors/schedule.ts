import { and, desc, eq, inArray } from "drizzle-orm";
import { accountStub } from "../../account/account-do";
import type { LoginCookie } from "../../core/cookies";
import { decryptText } from "../../core/crypto/aes";
import { isFullWalk } from "../../core/monitors/diff";
import type { Business } from "../../core/tasks/business";
import type { NewTaskInput } from "../../core/tasks/new-request";
import { chunk, D1_MAX_PARAMS } from "../../db/batching";
import { database, type Database } from "../../db/client";
import { accounts, monitorReviews, monitorRuns } from "../../db/schema";
import { errorText, log } from "../../log";
import { planLimits, settings } from "../../settings";
import { submitRequest } from "../tasks/submit";
import type { MonitorPublisher } from "./store";

/**
 * Known hashes handed to an incremental run: the newest reviews the monitor saw. The walk (newest
 * first) stops at the first page holding one of them; an older known review it passes on the way
 * is stored again and found unchanged, so a bound here costs at most a re-read, never a missed change.
 */
export const KNOWN_HASHES_PER_RUN = 1000;

/** A run that could not start (D1 or the queue unavailable) is tried again this much later. */
const RETRY_AFTER_FAILURE_MS = 5 * 60_000;

/** Monitors started side by side (each is a few D1 and queue round trips). */
const PARALLEL_STARTS = 6;

interface ClaimedMonitor {
  id: string;
  account_id: string;
  foreign_key: string;
  business: string;
  publishers: string;
  interval_hours: number;
  full_walk_every: number;
  runs: number;
  base_url: string;
}

/**
 * The cron path (scheduled() in src/index.ts): claims the monitors that are due, at most
 * MONITORS_PER_TICK of them, the longest-waiting first, and starts a run of each. Claiming moves
 * `next_due_at` on by the monitor's interval from now in the same statement, so overlapping ticks
 * never start one monitor twice, and monitors that were due together but started a few ticks
 * apart stay that far apart afterwards: a burst is spread once and stays spread.
 */
export async function startDueMonitors(env: Env, now = Date.now()): Promise<number> {
  const limit = settings(env).monitorsPerTick;
  const { results } = await env.DB.prepare(
    `UPDATE monitors SET runs = runs + 1, last_run_at = ?1, updated_at = ?1, next_due_at = ?1 + interval_hours * 3600000
     WHERE id IN (SELECT id FROM monitors WHERE next_due_at IS NOT NULL AND next_due_at <= ?1 ORDER BY next_due_at LIMIT ?2)
     RETURNING id, account_id, foreign_key, business, publishers, interval_hours, full_walk_every, runs, base_url`,
  )
    .bind(now, limit)
    .all<ClaimedMonitor>();
  if (!results.length) return 0;
  const db = database(env.DB);
  const plans = await accountPlans(db, [...new Set(results.map((m) => m.account_id))]);
  let started = 0;
  for (const group of chunk(results, PARALLEL_STARTS)) {
    const outcomes = await Promise.all(
      group.map((monitor) => startRun(env, db, monitor, plans.get(monitor.account_id), now)),
    );
    started += outcomes.filter(Boolean).length;
  }
  return started;
}

async function accountPlans(db: Database, accountIds: string[]): Promise<Map<string, string>> {
  const plans = new Map<string, string>();
  for (const ids of chunk(accountIds, D1_MAX_PARAMS)) {
    const rows = await db
      .select({ id: accounts.id, plan: accounts.plan })
      .from(accounts)
      .where(inArray(accounts.id, ids))
      .all();
    for (const row of rows) plans.set(row.id, row.plan);
  }
  return plans;
}

/** Gives a claimed run back: the monitor is due again at `dueAt` and the run number is not used. */
async function releaseClaim(env: Env, monitorId: string, run: number, dueAt: number): Promise<void> {
  await env.DB.prepare(
    `UPDATE monitors SET runs = runs - 1, next_due_at = ?3 WHERE id = ?1 AND runs = ?2 AND next_due_at IS NOT NULL`,
  )
    .bind(monitorId, run, dueAt)
    .run();
}

/**
 * One run: one ordinary task per publisher through submit's own path (so it is retrievable, runs
 * under the account's fair share and appears in its webhooks), counted against the plan's
 * tasks_per_minute like a submit. Over the budget, the run waits until the budget's window frees.
 */
async function startRun(
  env: Env,
  db: Database,
  monitor: ClaimedMonitor,
  plan: string | undefined,
  now: number,
): Promise<boolean> {
  const run = monitor.runs;
  const fullWalk = isFullWalk(run, monitor.full_walk_every);
  const publishers = JSON.parse(monitor.publishers) as MonitorPublisher[];
  try {
    const taskLimit = planLimits(env, plan).tasks_per_minute;
    if (taskLimit !== null) {
      const admission = await accountStub(env, monitor.account_id).admitSubmit(
        null,
        taskLimit,
        publishers.length,
      );
      if (admission.tasks && !admission.tasks.allowed) {
        log("info", "monitor run deferred by the plan's task budget", {
          monitor_id: monitor.id,
          retry_in_seconds: admission.tasks.resetSeconds,
        });
        await releaseClaim(env, monitor.id, run, now + Math.max(1, admission.tasks.resetSeconds) * 1000);
        return false;
      }
    }
    const entries: NewTaskInput[] = await Promise.all(
      publishers.map(async (publisher) => ({
        publisherKey: publisher.publisher_key,
        profileUrl: publisher.profile_url,
        profileKey: publisher.profile_key,
        config: {
          last_review_hashes: fullWalk ? [] : await knownHashes(db, monitor.id, publisher.publisher_key),
          first_page_only: false,
          since: publisher.since,
          max_reviews: publisher.max_reviews,
          ...(publisher.cookies_enc
            ? {
                persona: {
                  additional_cookies: {
                    login: JSON.parse(
                      await decryptText(env.ENCRYPTION_KEY, publisher.cookies_enc),
                    ) as LoginCookie[],
                  },
                },
              }
            : {}),
        },
      })),
    );
    await submitRequest(
      env,
      monitor.account_id,
      // A full walk gets the long time budget: it reads every page, not only the newest.
      {
        data: {
          foreign_key: monitor.foreign_key,
          lazy: fullWalk,
          business: JSON.parse(monitor.business) as Business,
          publishers: entries,
        },
      },
      monitor.base_url,
      db,
      (tasks) =>
        tasks.map((task) =>
          db.insert(monitorRuns).values({
            taskId: task.tasks_id,
            monitorId: monitor.id,
            run,
            publisherKey: task.publisher_key,
            fullWalk,
            state: "running",
            createdAt: now,
          }),
        ),
    );
    return true;
  } catch (err) {
    log("error", "monitor run could not start", { monitor_id: monitor.id, run, error: errorText(err) });
    await releaseClaim(env, monitor.id, run, now + RETRY_AFTER_FAILURE_MS).catch(() => {});
    return false;
  }
}

async function knownHashes(db: Database, monitorId: string, publisherKey: string): Promise<string[]> {
  const rows = await db
    .select({ hash: monitorReviews.reviewHash })
    .from(monitorReviews)
    .where(and(eq(monitorReviews.monitorId, monitorId), eq(monitorReviews.publisherKey, publisherKey)))
    .orderBy(desc(monitorReviews.postedAt))
    .limit(KNOWN_HASHES_PER_RUN)
    .all();
  return rows.map((row) => row.hash);
}
