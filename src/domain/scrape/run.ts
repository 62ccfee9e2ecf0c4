import { normalizeReviews } from "../reviews";
import { adapterFor, type Adapter, type ScrapeContext, type ScrapedPage } from "../../scraping/adapters";
import { PageRenderer } from "../../scraping/browser";
import { loginCookies } from "../../scraping/cookies";
import { ScrapeError } from "../../scraping/errors";
import type { ScrapeMessage } from "../../queue/messages";
import type { TaskRow } from "../../db/schema";
import type { Review } from "../../http/schemas/retrieve";
import { settings } from "../../settings";
import { emitTaskEvent } from "../webhooks/events";
import type { FailureReason, TaskOptions } from "../tasks/status";
import { storedCursor, type Cursor } from "./cursor";
import { completeTask, failTask } from "./finish";
import { withoutKnownReviews } from "./incremental";
import { abandonRun, claimRun, releaseRun } from "./lease";
import { MAX_ATTEMPTS, retryDelaySeconds } from "./retry-policy";
import { storedReviewCount, storePage } from "./store-page";

export type RunOutcome = { kind: "ack" } | { kind: "retry"; delaySeconds: number };

const ACK: RunOutcome = { kind: "ack" };

/** Longest a single page load (plain or rendered) may take. */
export const PAGE_TIMEOUT_MS = 30_000;

/** No profile is walked past this many pages, whatever its links say. */
export const MAX_PAGES = 2_000;

class BudgetExhausted extends Error {}

/**
 * One scraping run of a task: claims the task, walks at most PAGES_PER_RUN pages from the stored
 * cursor, stores each page as it goes, and then completes the task, fails it, or hands the rest
 * to a follow-up message. Returns what to do with the queue message.
 */
export async function runScrape(env: Env, message: ScrapeMessage, attempts: number): Promise<RunOutcome> {
  const run = message.run ?? 1;
  const claim = await claimRun(env, message.task_id, run, Date.now());
  switch (claim.kind) {
    case "busy":
      return { kind: "retry", delaySeconds: claim.retryInSeconds };
    case "ended":
      // The transition happened, maybe without its event (a crash right after): send it again.
      await emitTaskEvent(env, claim.task.id, claim.task.status === 200 ? "task.completed" : "task.failed");
      return ACK;
    case "stale":
    case "missing":
      return ACK;
  }
  const { task, token } = claim;
  const deadline = task.deadlineAt!;
  const renderer = new PageRenderer(env);
  try {
    if (run === 1) await emitTaskEvent(env, task.id, "task.in_progress");
    const ctx: ScrapeContext = {
      env,
      publisherKey: task.publisherKey,
      cookies: await loginCookies(env, task.cookiesEnc),
      renderer,
      pageTimeoutMs() {
        const left = deadline - Date.now();
        if (left <= 0) throw new BudgetExhausted();
        return Math.min(PAGE_TIMEOUT_MS, left);
      },
    };
    return await walkPages(env, task, token, run, adapterFor(task.publisherKey), ctx);
  } catch (err) {
    return await stopAfterError(env, task, token, err, attempts);
  } finally {
    await renderer.close();
  }
}

async function walkPages(env: Env, task: TaskRow, token: string, run: number, adapter: Adapter, ctx: ScrapeContext): Promise<RunOutcome> {
  const options = task.options as TaskOptions;
  const knownHashes = new Set(options.last_review_hashes);
  const deadline = task.deadlineAt!;
  let cursor: Cursor = storedCursor(task.cursor) ?? {
    next_url: await adapter.firstPageUrl({ profileKey: task.profileKey, profileUrl: task.profileUrl }, ctx),
    page: 1,
  };
  for (let scraped = 0; cursor.next_url !== null; scraped++) {
    if (Date.now() >= deadline) throw new BudgetExhausted();
    if (scraped >= settings(env).pagesPerRun) {
      await env.SCRAPE_QUEUE.send({ task_id: task.id, run: run + 1 } satisfies ScrapeMessage, { contentType: "json" });
      await releaseRun(env, task.id, token);
      return ACK;
    }
    const scrapedAt = Date.now();
    let page: ScrapedPage;
    try {
      page = await adapter.scrapePage(cursor.next_url, ctx);
    } catch (err) {
      // A next link to a page that does not exist ends the walk; only a missing profile is a failure.
      if (cursor.page > 1 && err instanceof ScrapeError && err.reason === "profile_not_found") break;
      throw err;
    }
    const reviews = normalizeReviews(page.reviews, {
      publisherKey: task.publisherKey,
      pageUrl: page.pageUrl,
      scrapedAt,
      pageLanguage: page.pageLanguage,
    });
    const { fresh, reachedKnown } = withoutKnownReviews(reviews, knownHashes);
    const last = options.first_page_only || reachedKnown || !page.nextUrl || cursor.page >= MAX_PAGES || (await onlyRepeats(env, task.id, cursor.page, fresh));
    const next: Cursor = { next_url: last ? null : page.nextUrl, page: cursor.page + 1 };
    if (Date.now() >= deadline) throw new BudgetExhausted();
    const profileUrl = cursor.page === 1 ? page.pageUrl : undefined;
    const stored = await storePage(env, { taskId: task.id, token, page: cursor.page, reviews: fresh, next, profileUrl });
    // Another run holds the task now (this one was too slow); it carries on from the stored cursor.
    if (!stored) return ACK;
    cursor = next;
  }
  await completeTask(env, task.id, token);
  return ACK;
}

/**
 * A later page holding nothing but reviews already stored means the next links lead back to pages
 * seen before (publishers whose last page links to the first): the walk ends there rather than
 * circling until the time budget runs out.
 */
async function onlyRepeats(env: Env, taskId: string, page: number, reviews: readonly Review[]): Promise<boolean> {
  if (page === 1 || reviews.length === 0) return false;
  const ids = new Set(reviews.map((r) => r.review_id));
  return (await storedReviewCount(env, taskId, [...ids])) === ids.size;
}

/**
 * After a failed page: permanent failures, failures past the time budget and transient failures
 * out of attempts fail the task; other transient failures (and unexpected errors) let the run go
 * and retry the message later, unless waiting would outlast the time budget.
 */
async function stopAfterError(env: Env, task: TaskRow, token: string, err: unknown, attempts: number): Promise<RunOutcome> {
  const deadline = task.deadlineAt!;
  let reason: FailureReason = err instanceof ScrapeError ? err.reason : "internal";
  let retry = !(err instanceof ScrapeError) || err.transient;
  if (err instanceof BudgetExhausted || Date.now() >= deadline) {
    reason = "timeout";
    retry = false;
  }
  const delaySeconds = retryDelaySeconds(attempts, err instanceof ScrapeError ? err.retryAfterSeconds : undefined);
  if (retry && (attempts >= MAX_ATTEMPTS || Date.now() + delaySeconds * 1000 >= deadline)) retry = false;
  const detail = err instanceof Error ? err.message : String(err);
  console.warn(`scrape task ${task.id}: ${reason} (${retry ? `retry in ${delaySeconds}s` : "failing"}): ${detail}`);
  if (!(err instanceof ScrapeError) && !(err instanceof BudgetExhausted)) console.error(err);
  if (!retry) {
    await failTask(env, task.id, reason, { token });
    return ACK;
  }
  await abandonRun(env, task.id, token, reason);
  return { kind: "retry", delaySeconds };
}
