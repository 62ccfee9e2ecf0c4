/**
 * Exact deduplication during a task's walk without per-review rows in D1 (issue 33): the review ids a
 * task has stored are exactly those in the page files its guarded D1 updates recorded (`tasks.files`,
 * each file holding only reviews new to the task). A run loads that set once when it starts and adds
 * what each of its stored pages adds, so pages, re-scrapes and crash restarts deduplicate alike.
 *
 * To keep a long walk from re-reading every earlier file at each run, a run that hands the task on
 * leaves a snapshot `ids/<n>.txt`: the ids of the first n recorded files. The recorded list only
 * ever grows at its end, so a snapshot's content depends on n alone and any run may write it; a
 * restart reads the newest snapshot it can use and the files recorded after it.
 */
import { taskFilesPrefix } from "./review-files";

const decoder = new TextDecoder();

function snapshotPrefix(taskId: string): string {
  return `${taskFilesPrefix(taskId)}ids/`;
}

function snapshotKey(taskId: string, files: number): string {
  return `${snapshotPrefix(taskId)}${files}.txt`;
}

async function readText(env: Env, key: string): Promise<string | null> {
  const object = await env.REVIEW_FILES.get(key);
  return object ? object.text() : null;
}

/** The newest snapshot covering at most `files` recorded files: its ids and how many files it covers. */
async function newestSnapshot(
  env: Env,
  taskId: string,
  files: number,
): Promise<{ ids: string; covers: number }> {
  const exact = await readText(env, snapshotKey(taskId, files));
  if (exact !== null) return { ids: exact, covers: files };
  let best = 0;
  let cursor: string | undefined;
  do {
    const listing = await env.REVIEW_FILES.list({ prefix: snapshotPrefix(taskId), cursor });
    for (const { key } of listing.objects) {
      const n = Number(key.slice(snapshotPrefix(taskId).length, -".txt".length));
      if (Number.isInteger(n) && n <= files && n > best) best = n;
    }
    cursor = listing.truncated ? listing.cursor : undefined;
  } while (cursor);
  const ids = best ? await readText(env, snapshotKey(taskId, best)) : null;
  return ids === null ? { ids: "", covers: 0 } : { ids, covers: best };
}

/** The review ids of one JSON Lines page file. */
async function fileReviewIds(env: Env, key: string): Promise<string[]> {
  const object = await env.REVIEW_FILES.get(key);
  // A recorded file is missing only once the task is gone (retention); nothing to deduplicate against.
  if (!object) return [];
  const text = decoder.decode(await object.arrayBuffer());
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { review_id: string }).review_id);
}

/** The ids of every review in the task's recorded page files. */
export async function loadStoredIds(
  env: Env,
  taskId: string,
  files: readonly string[],
): Promise<Set<string>> {
  if (!files.length) return new Set();
  const snapshot = await newestSnapshot(env, taskId, files.length);
  const ids = new Set(snapshot.ids.split("\n").filter(Boolean));
  const rest = await Promise.all(files.slice(snapshot.covers).map((key) => fileReviewIds(env, key)));
  for (const list of rest) for (const id of list) ids.add(id);
  return ids;
}

/** Leaves the snapshot of the first `files` recorded files (whose ids are `ids`) for the next run. */
export async function saveIdsSnapshot(
  env: Env,
  taskId: string,
  files: number,
  ids: ReadonlySet<string>,
): Promise<void> {
  if (!files) return;
  await env.REVIEW_FILES.put(snapshotKey(taskId, files), [...ids].join("\n"), {
    httpMetadata: { contentType: "text/plain; charset=utf-8" },
  });
}
