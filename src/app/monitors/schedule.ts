import { and, eq, inArray, sql } from "drizzle-orm";
import { accountStub } from "../../account/account-do";
import type { LoginCookie } from "../../core/cookies";
import { decryptText } from "../../core/crypto/aes";
import { isFullWalk } from "../../core/monitors/diff";
import type { Business } from "../../core/tasks/business";
import type { NewTaskInput } from "../../core/tasks/new-request";
import { chunk } from "../../db/batching";
import { database, type Database } from "../../db/client";
import { monitorRuns, monitors } from "../../db/schema";
import { errorText, log } from "../../log";
import { moduleQueue } from "../../publishers/queues";
import { publisherFor } from "../../publishers/registry";
import { planLimits, settings } from "../../settings";
import { submitRequest } from "../tasks/submit";
import type { MonitorPublisher, SealedCookies } from "./store";

/**
 * Known hashes handed to an incremental run: the newest reviews the monitor saw. The walk (newest
 * first) stops at the first page holding one of them; an older known review it passes on the way
 * is stored again and found unchanged, so a bound here costs at most a re-read, never a missed change.
 */
export const KNOWN_HASHES_PER_RUN = 1000;

/**
 * How long a claim holds a monitor: the claim moves `next_due_at` this far ahead, and only a start
 * that committed moves it on by the interval. A start that fails in any way (D1 or the queue
 * unavailable, the invocation killed or out of its limits) therefore needs no further call to be
 * retried: the monitor is due again when the claim runs out. Longer than any tick's starts take, so
 * a live start is never claimed twice (and if it were, the unique run index refuses the second).
 */
export const CLAIM_LEASE_MS = 15 * 60_000;

/** A run whose dispatch failed after its tasks were written is due again this much later. */
const RETRY_AFTER_FAILURE_MS = 5 * 60_000;

/** Monitors loaded and started side by side (each start is a few D1, object and queue round trips). */
const PARALLEL_STARTS = 6;

/**
 * The monitor step's share of one cron invocation's platform limits (Workers Paid: 1,000 D1 queries
 * and 10,000 subrequests per invocation, D1 limits page, 2026-04-21). The rest is left to the tick's
 * other steps (queue gates, sweep, health). A D1 batch is one query: one call to D1.
 */
export const MONITOR_TICK_BUDGET = { d1: 600, subrequests: 5000 } as const;

/** D1 calls a tick makes besides the groups: resume/suspend/claim (one batch) and a final release. */
const FIXED_D1 = 2;
/** D1 calls one group of starts costs besides the starts themselves: details, hashes, releases. */
const GROUP_D1 = 3;
/** D1 calls of one start at most: its write batch and, when its dispatch fails, the undo batch. */
const START_D1 = 2;

/** The claim returns only this: ids and small schedule fields, never a monitor's details. */
interface Claimed {
  id: string;
  account_id: string;
  runs: number;
  full_walk_every: number;
}

/** A claimed monitor with what its run submits, loaded when its group starts. */
interface Loaded extends Claimed {
  plan: string | undefined;
  foreign_key: string;
  base_url: string;
  business: Business;
  publishers: MonitorPublisher[];
  cookies: SealedCookies;
}

interface Budget {
  d1: number;
  subrequests: number;
}

interface Release {
  id: string;
  runs: number;
  dueAt: number;
}

/** An account has an active key: not revoked, not expired. */
const ACTIVE_KEY = `EXISTS (SELECT 1 FROM api_keys k WHERE k.account_id = monitors.account_id
  AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ?1))`;

/**
 * The cron path (scheduled() in src/index.ts). In one D1 batch: monitors suspended for want of an
 * active key are resumed where a key exists again (their schedule kept), due monitors of accounts
 * without an active key are suspended, and at most `limit` due monitors are claimed, fairly across
 * accounts: every account's longest-waiting monitor first, then every account's second, and so on,
 * so no account gets more than ⌈limit ÷ accounts with due monitors⌉ of a tick while others wait,
 * and an account alone may use all of it. The claim reads the due index only and returns ids.
 * Each monitor's details are then loaded when its group starts, and every step stays within
 * MONITOR_TICK_BUDGET; what does not fit is given back, due at once, for the next tick.
 */
export async function startDueMonitors(
  env: Env,
  now = Date.now(),
  budget: Budget = MONITOR_TICK_BUDGET,
): Promise<number> {
  // Sized so the starts fit the D1 share when none fails: a failing start costs an undo on top,
  // which the per-group check below still keeps within the share.
  const limit = Math.min(
    settings(env).monitorsPerTick,
    Math.floor(((budget.d1 - FIXED_D1) * PARALLEL_STARTS) / (PARALLEL_STARTS + GROUP_D1)),
  );
  const claimed = await claimDue(env, now, limit);
  if (!claimed.length) return 0;
  const db = database(env.DB);
  const left: Budget = { d1: budget.d1 - 1, subrequests: budget.subrequests - 1 };
  const groups = chunk(claimed, PARALLEL_STARTS);
  let started = 0;
  for (let g = 0; g < groups.length; g++) {
    const releases: Release[] = [];
    const groupD1 = GROUP_D1 + START_D1 * groups[g].length;
    if (left.d1 - groupD1 < 1 || left.subrequests - groupD1 < 1) {
      const rest = groups.slice(g).flat();
      log("warn", "monitor tick reached its share of the invocation's limits; the rest wait a tick", {
        released: rest.length,
      });
      await releaseClaims(
        env,
        rest.map((m) => ({ id: m.id, runs: m.runs, dueAt: now })),
      );
      break;
    }
    left.d1 -= GROUP_D1;
    left.subrequests -= GROUP_D1;
    let loaded: Loaded[];
    try {
      loaded = await loadGroup(env, groups[g]);
    } catch (err) {
      logStartFailure(groups[g], now, err);
      continue;
    }
    const starts: Promise<boolean>[] = [];
    for (const monitor of loaded) {
      const plan = monitor.plan;
      const cost = startCost(env, monitor, plan);
      if (cost > left.subrequests) {
        releases.push({ id: monitor.id, runs: monitor.runs, dueAt: now });
        continue;
      }
      left.d1 -= START_D1;
      left.subrequests -= cost;
      starts.push(startRun(env, db, monitor, plan, now, releases));
    }
    started += (await Promise.all(starts)).filter(Boolean).length;
    if (releases.length) await releaseClaims(env, releases);
  }
  return started;
}

/** The resume / suspend / claim batch; returns the claimed monitors (ids and schedule fields only). */
async function claimDue(env: Env, now: number, limit: number): Promise<Claimed[]> {
  const results = await env.DB.batch([
    env.DB.prepare(
      `UPDATE monitors SET suspended_at = NULL, updated_at = ?1,
         next_due_at = CASE WHEN paused THEN NULL
           ELSE max(?1, coalesce(last_run_at + interval_hours * 3600000, ?1)) END
       WHERE suspended_at IS NOT NULL AND ${ACTIVE_KEY}`,
    ).bind(now),
    env.DB.prepare(
      `UPDATE monitors SET suspended_at = ?1, next_due_at = NULL, updated_at = ?1
       WHERE next_due_at IS NOT NULL AND next_due_at <= ?1 AND NOT ${ACTIVE_KEY}`,
    ).bind(now),
    env.DB.prepare(
      `UPDATE monitors SET next_due_at = ?1 + ?3
       WHERE id IN (
         SELECT id FROM (
           SELECT id, next_due_at, row_number() OVER (PARTITION BY account_id ORDER BY next_due_at, id) AS turn
           FROM monitors WHERE next_due_at IS NOT NULL AND next_due_at <= ?1)
         ORDER BY turn, next_due_at, id LIMIT ?2)
       RETURNING id, account_id, runs, full_walk_every`,
    ).bind(now, limit, CLAIM_LEASE_MS),
  ]);
  return (results[2].results ?? []) as Claimed[];
}

/**
 * The group's details (and its accounts' plans) in one query and the known hashes of its incremental runs in one batch (a
 * statement per publisher, each reading at most KNOWN_HASHES_PER_RUN from the newest-first index).
 * Both are bounded by the monitor size limits: at most PARALLEL_STARTS monitors' details.
 */
async function loadGroup(env: Env, group: Claimed[]): Promise<Loaded[]> {
  const { results } = await env.DB.prepare(
    `SELECT m.id, m.foreign_key, m.base_url, a.plan, d.business, d.publishers, d.cookies
     FROM monitors m JOIN monitor_details d ON d.monitor_id = m.id LEFT JOIN accounts a ON a.id = m.account_id
     WHERE m.id IN (SELECT value FROM json_each(?))`,
  )
    .bind(JSON.stringify(group.map((m) => m.id)))
    .all<{
      id: string;
      foreign_key: string;
      base_url: string;
      plan: string | null;
      business: string;
      publishers: string;
      cookies: string;
    }>();
  const byId = new Map(results.map((row) => [row.id, row]));
  // A monitor deleted since the claim has no row: nothing to start.
  return group.flatMap((m) => {
    const row = byId.get(m.id);
    if (!row) return [];
    return [
      {
        ...m,
        plan: row.plan ?? undefined,
        foreign_key: row.foreign_key,
        base_url: row.base_url,
        business: JSON.parse(row.business) as Business,
        publishers: JSON.parse(row.publishers) as MonitorPublisher[],
        cookies: JSON.parse(row.cookies) as SealedCookies,
      },
    ];
  });
}

async function knownHashes(env: Env, monitor: Loaded): Promise<Map<string, string[]>> {
  const statements = monitor.publishers.map((p) =>
    env.DB.prepare(
      `SELECT review_hash FROM monitor_reviews WHERE monitor_id = ? AND publisher_key = ?
       ORDER BY posted_at DESC LIMIT ${KNOWN_HASHES_PER_RUN}`,
    ).bind(monitor.id, p.publisher_key),
  );
  const results = statements.length ? await env.DB.batch<{ review_hash: string }>(statements) : [];
  return new Map(
    monitor.publishers.map((p, i) => [
      p.publisher_key,
      (results[i]?.results ?? []).map((r) => r.review_hash),
    ]),
  );
}

/** Subrequests one start makes at most: the plan's budget call, two D1 calls, a gate offer and a send per queue. */
function startCost(env: Env, monitor: Loaded, plan: string | undefined): number {
  const queues = new Set(
    monitor.publishers.map((p) => moduleQueue(publisherFor(p.publisher_key).module.name).name),
  );
  const budgetCall = planLimits(env, plan).tasks_per_minute === null ? 0 : 1;
  return budgetCall + START_D1 + 2 * queues.size;
}

/**
 * Gives claims back without a run: due again at `dueAt`, the run number unused. One statement for
 * all; if it fails the claims still run out by themselves (CLAIM_LEASE_MS), so nothing is lost.
 */
async function releaseClaims(env: Env, releases: Release[]): Promise<void> {
  if (!releases.length) return;
  try {
    await env.DB.prepare(
      `UPDATE monitors SET next_due_at = r.value ->> 'dueAt'
       FROM json_each(?) r
       WHERE monitors.id = r.value ->> 'id' AND monitors.runs = r.value ->> 'runs'
         AND monitors.paused = 0 AND monitors.suspended_at IS NULL`,
    )
      .bind(JSON.stringify(releases))
      .run();
  } catch (err) {
    log("error", "monitor claims could not be given back; they run when their claim runs out", {
      monitor_ids: releases.map((r) => r.id).join(","),
      error: errorText(err),
    });
  }
}

function logStartFailure(group: Claimed[], now: number, err: unknown): void {
  for (const monitor of group)
    log("error", "monitor run could not start; it is retried when its claim runs out", {
      monitor_id: monitor.id,
      run: monitor.runs + 1,
      retry_at: new Date(now + CLAIM_LEASE_MS).toISOString(),
      error: errorText(err),
    });
}

/**
 * One run: one ordinary task per publisher through submit's own path (so it is retrievable, runs
 * under the account's fair share and appears in its webhooks), counted against the plan's
 * tasks_per_minute like a submit. Over the budget, the run waits until the budget's window frees.
 * The run commits in submit's own D1 batch: its tasks, its monitor_runs rows (unique per run and
 * publisher) and the monitor moved on by its interval. A failure before that commit leaves the
 * claim to run out (a retry without any further call); a failed dispatch after it is undone in
 * submit's cleanup batch, and if even that fails the tasks stay queued and the sweep sends them.
 */
async function startRun(
  env: Env,
  db: Database,
  monitor: Loaded,
  plan: string | undefined,
  now: number,
  releases: Release[],
): Promise<boolean> {
  const run = monitor.runs + 1;
  const fullWalk = isFullWalk(run, monitor.full_walk_every);
  try {
    const taskLimit = planLimits(env, plan).tasks_per_minute;
    if (taskLimit !== null) {
      const admission = await accountStub(env, monitor.account_id).admitSubmit(
        null,
        taskLimit,
        monitor.publishers.length,
      );
      if (admission.tasks && !admission.tasks.allowed) {
        log("info", "monitor run deferred by the plan's task budget", {
          monitor_id: monitor.id,
          retry_in_seconds: admission.tasks.resetSeconds,
        });
        releases.push({
          id: monitor.id,
          runs: monitor.runs,
          dueAt: now + Math.max(1, admission.tasks.resetSeconds) * 1000,
        });
        return false;
      }
    }
    const hashes = fullWalk ? new Map<string, string[]>() : await knownHashes(env, monitor);
    const entries: NewTaskInput[] = await Promise.all(
      monitor.publishers.map(async (publisher) => {
        const sealed = monitor.cookies[publisher.publisher_key];
        return {
          publisherKey: publisher.publisher_key,
          profileUrl: publisher.profile_url,
          profileKey: publisher.profile_key,
          config: {
            last_review_hashes: hashes.get(publisher.publisher_key) ?? [],
            first_page_only: false,
            since: publisher.since,
            max_reviews: publisher.max_reviews,
            ...(sealed
              ? {
                  persona: {
                    additional_cookies: {
                      login: JSON.parse(await decryptText(env.ENCRYPTION_KEY, sealed)) as LoginCookie[],
                    },
                  },
                }
              : {}),
          },
        };
      }),
    );
    const stillScheduled = sql`CASE WHEN ${monitors.paused} = 1 OR ${monitors.suspendedAt} IS NOT NULL THEN NULL`;
    await submitRequest(
      env,
      monitor.account_id,
      // A full walk gets the long time budget: it reads every page, not only the newest.
      {
        data: {
          foreign_key: monitor.foreign_key,
          lazy: fullWalk,
          business: monitor.business,
          publishers: entries,
        },
      },
      monitor.base_url,
      db,
      {
        write: (tasks) => [
          ...tasks.map((task) =>
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
          db
            .update(monitors)
            .set({
              runs: run,
              lastRunAt: now,
              updatedAt: now,
              nextDueAt: sql`${stillScheduled} ELSE ${now} + ${monitors.intervalHours} * 3600000 END`,
            })
            .where(and(eq(monitors.id, monitor.id), eq(monitors.runs, monitor.runs))),
        ],
        undo: (tasks) => [
          db.delete(monitorRuns).where(
            inArray(
              monitorRuns.taskId,
              tasks.map((task) => task.tasks_id),
            ),
          ),
          db
            .update(monitors)
            .set({
              runs: monitor.runs,
              nextDueAt: sql`${stillScheduled} ELSE ${now + RETRY_AFTER_FAILURE_MS} END`,
            })
            .where(and(eq(monitors.id, monitor.id), eq(monitors.runs, run))),
        ],
      },
    );
    return true;
  } catch (err) {
    if (/UNIQUE constraint failed: monitor_runs/.test(errorText(err))) {
      log("info", "monitor run was already started by an earlier claim", { monitor_id: monitor.id, run });
      return false;
    }
    logStartFailure([monitor], now, err);
    return false;
  }
}
