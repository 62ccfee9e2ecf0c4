import { publisherFor } from "../../publishers/registry";
import { settings } from "../../settings";
import { deleteTaskFiles } from "../../storage/review-files";
import { submitRequest } from "../tasks/submit";
import { log } from "../../log";
import { CANARY_ACCOUNT_ID } from "./outcomes";
import { OUTCOME_RETENTION_MS } from "./read";
import { trackedKeysJson } from "./tracked";

/** Base URL canary tasks' file links would use; nobody retrieves them, the field is required. */
const CANARY_BASE_URL = "https://canary.invalid";

/** Old canary tasks whose reviews are dropped per tick, so a tick stays small after downtime. */
const PRUNE_BATCH = 50;

/**
 * Starts the canaries that are due: for each publisher of CANARY_PROFILES whose last canary was
 * created at least CANARY_INTERVAL_MINUTES ago and has none unfinished, one first-page task of the
 * system account, through the same submit and queue path as a client's. The system account has no
 * API key and its own plan (`unlimited`), so canaries never count toward a client's limits.
 * Returns the publishers started.
 */
export async function startDueCanaries(env: Env, now: number): Promise<string[]> {
  const config = settings(env);
  const profiles = Object.entries(config.canaryProfiles);
  if (!profiles.length) return [];
  const [, last] = await env.DB.batch<{ publisher_key: string; created_at: number; open: number }>([
    env.DB.prepare(
      `INSERT INTO accounts (id, name, plan, created_at) VALUES (?1, ?1, 'unlimited', ?2) ON CONFLICT (id) DO NOTHING`,
    ).bind(CANARY_ACCOUNT_ID, now),
    env.DB.prepare(
      `SELECT publisher_key, max(created_at) AS created_at, sum(status IN (100, 101)) AS open FROM tasks WHERE account_id = ?1 GROUP BY publisher_key`,
    ).bind(CANARY_ACCOUNT_ID),
  ]);
  const lastBy = new Map(last.results.map((r) => [r.publisher_key, r]));
  const started: string[] = [];
  for (const [publisherKey, profile] of profiles) {
    const previous = lastBy.get(publisherKey);
    if (previous && (previous.open > 0 || previous.created_at > now - config.canaryIntervalMs)) continue;
    const resolution = publisherFor(publisherKey).resolveProfileKey(profile);
    if ("error" in resolution) {
      log("warn", "canary profile refused", { publisher_key: publisherKey, error: resolution.error });
      continue;
    }
    await submitRequest(
      env,
      CANARY_ACCOUNT_ID,
      {
        data: {
          foreign_key: `canary:${publisherKey}`,
          business: {
            id: "canary",
            name: publisherKey,
            address: { street: "", city: "", state: "", zip: "", country: "USA" },
            phone: "",
            description: "",
            tags: [],
          },
          publishers: [
            {
              publisherKey,
              profileUrl: resolution.url,
              profileKey: profile,
              config: { last_review_hashes: [], first_page_only: true },
            },
          ],
        },
      },
      CANARY_BASE_URL,
    );
    started.push(publisherKey);
  }
  return started;
}

/**
 * Housekeeping of the tick: finished canaries lose their reviews and files after
 * CANARY_RETENTION_MINUTES (their outcome stays in the hourly rollup); canary tasks and outcome hours
 * older than 30 days go.
 */
export async function pruneHealthData(env: Env, now: number): Promise<void> {
  const config = settings(env);
  const old = await env.DB.prepare(
    `SELECT id FROM tasks WHERE account_id = ?1 AND status IN (200, 500) AND finished_at < ?2 AND files != '[]' LIMIT ${PRUNE_BATCH}`,
  )
    .bind(CANARY_ACCOUNT_ID, now - config.canaryRetentionMs)
    .all<{ id: string }>();
  for (const { id } of old.results) await deleteTaskFiles(env, id);
  const ids = old.results.map((r) => r.id);
  const cutoff = now - OUTCOME_RETENTION_MS;
  await env.DB.batch([
    // reviews_found stays: it is how the canary's run is judged (a completion with reviews).
    ...ids.map((id) =>
      env.DB.prepare(`UPDATE tasks SET files = '[]', reviews_key = NULL WHERE id = ?1`).bind(id),
    ),
    env.DB.prepare(`DELETE FROM publisher_hours WHERE hour < ?1`).bind(cutoff),
    // Hours of publishers no longer tracked (client domains recorded before health was bounded).
    env.DB.prepare(
      `DELETE FROM publisher_hours WHERE publisher_key NOT IN (SELECT value FROM json_each(?1))`,
    ).bind(trackedKeysJson(env)),
    env.DB.prepare(`DELETE FROM tasks WHERE account_id = ?1 AND finished_at < ?2`).bind(
      CANARY_ACCOUNT_ID,
      cutoff,
    ),
    env.DB.prepare(
      `DELETE FROM requests WHERE account_id = ?1 AND NOT EXISTS (SELECT 1 FROM tasks WHERE tasks.request_id = requests.id)`,
    ).bind(CANARY_ACCOUNT_ID),
  ]);
}
