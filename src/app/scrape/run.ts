import { z } from "zod";
import { eq } from "drizzle-orm";
import { normalizeReviews, RawReviewSchema } from "../../core/reviews";
import { database } from "../../db/client";
import { accountStub } from "../../account/account-do";
import { accounts, requests, tasks, type TaskRow } from "../../db/schema";
import type { Review } from "../../core/reviews/review";
import type { Business } from "../../core/tasks/business";
import { moduleQueue } from "../../publishers/queues";
import { publisherFor, scrapeQueueNamed, type Publisher } from "../../publishers/registry";
import type { AdapterPage, PublisherModule, ScrapeContext } from "../../publishers/types";
import { dispatchTasks } from "../queue/dispatch";
import type { ScrapeMessage } from "../../queue/messages";
import { BrowserBusy } from "../../scraping/browser";
import { BudgetExhausted, PublisherClient } from "../../scraping/client";
import { loginCookies } from "../../scraping/cookies";
import { decryptText, encryptText } from "../../core/crypto/aes";
import { firstIssue, issueText } from "../../scraping/answer-schema";
import { permanentError, ScrapeError } from "../../scraping/errors";
import { errorText, log } from "../../log";
import { planLimits, settings, type PlanLimits } from "../../settings";
import { emitTaskEvent } from "../webhooks/events";
import { TaskStatus, type FailureReason, type TaskOptions } from "../../core/tasks/status";
import { StoredCursorSchema, type StoredCursor } from "./cursor";
import { MAX_STOP_REASON, stopReasonText } from "../../core/tasks/coverage";
import { announceCompletion, completeTask, failTask } from "./finish";
import { withoutKnownReviews } from "./incremental";
import { cutToOptions } from "../../core/tasks/collection";
import { checkedSummary } from "../../core/tasks/publisher-summary";
import { abandonRun, claimRun, releaseRun } from "./lease";
import { MAX_ATTEMPTS, retryDelaySeconds } from "./retry-policy";
import { gateQueue, RUN_HOLD_MS } from "../../queue/concurrency";
import type { Release } from "../../queue/fair-share";
import { queueGate, sendMessage, sendTasks, type GateQueue, type QueueGate } from "../../queue/queue-gate";
import { addRequestCounts, storePage } from "./store-page";
import { loadStoredIds, saveIdsSnapshot } from "../../storage/review-ids";

export type RunOutcome = { kind: "ack" } | { kind: "retry"; delaySeconds: number };

const ACK: RunOutcome = { kind: "ack" };

/** A run's hold on one of its account's running slots lasts at most this long past its last heartbeat (a dead run's frees itself). */
const RUN_SLOT_TTL_MS = RUN_HOLD_MS;

/** How long a task over its account's plan cap (all queues) waits in its gate (plus up to 5 s of jitter). */
const SLOT_WAIT_SECONDS = 10;

/** Adapter output is checked before anything of it is stored. */
const PageReviewsSchema = z.array(RawReviewSchema);

/**
 * What a run passes back to its consumer besides the outcome: when `takeNext` is set and the run ends
 * normally, the task its queue's gate picks for the slot the run frees is handed over here instead of
 * being sent as a message (`next`), so the consumer runs it at once (src/app/queue/consumer.ts).
 */
export interface RunCarry {
  takeNext: boolean;
  next: ScrapeMessage | null;
}

/**
 * One scraping run of a task: claims the task, walks at most PAGES_PER_RUN pages from the stored
 * cursor with the publisher's adapter, stores each page as it goes, and then completes the task,
 * fails it, or hands the rest to a follow-up message. Returns what to do with the queue message.
 */
export async function runScrape(
  env: Env,
  message: ScrapeMessage,
  attempts: number,
  queueName?: string,
  carry?: RunCarry,
): Promise<RunOutcome> {
  const owner = await database(env.DB)
    .select({
      accountId: tasks.accountId,
      plan: accounts.plan,
      publisherKey: tasks.publisherKey,
      status: tasks.status,
    })
    .from(tasks)
    .innerJoin(accounts, eq(accounts.id, tasks.accountId))
    .where(eq(tasks.id, message.task_id))
    .get();
  if (!owner) {
    // A task that no longer exists (a submit that could not queue its tasks removes them): its
    // queue's gate forgets it, or would send it again forever.
    const queue = queueName === undefined ? undefined : scrapeQueueNamed(queueName);
    if (queue) {
      await sendTasks(
        env,
        queue.binding,
        await queueGate(env, queue).forget(gateQueue(queue, env), message.task_id),
      );
    }
    return ACK;
  }
  const limits = planLimits(env, owner.plan);
  const queueRef = moduleQueue(publisherFor(owner.publisherKey).module.name);
  const gate: RunGate = { stub: queueGate(env, queueRef), queue: gateQueue(queueRef, env) };
  if (owner.status === TaskStatus.completed || owner.status === TaskStatus.failed) {
    await sendTasks(env, gate.queue.binding, await gate.stub.forget(gate.queue, message.task_id));
    return runClaimed(env, message, attempts, limits, null);
  }
  // Fair share of the queue (src/queue/fair-share.ts): a task over its account's share waits in the
  // queue's gate, which sends it again when its turn comes (no attempt spent, no consumer held); a
  // copy of a message whose run is alive is dropped (the gate re-sends should that run die).
  const { admission, send } = await gate.stub.admit(
    gate.queue,
    message.task_id,
    owner.accountId,
    limits.concurrent_tasks,
    message.run ?? null,
  );
  await sendTasks(env, gate.queue.binding, send);
  if (admission !== "granted") return ACK;
  // What the gate is told when this run is over; a run that throws is retried by the consumer.
  let released: Release = { retryInSeconds: retryDelaySeconds(attempts) };
  // The account's slot and the gate's are two objects: both are released side by side, one round trip.
  let slotReleased: Promise<unknown> = Promise.resolve();
  // Only a run that decided its outcome passes the next task on: one that throws leaves the gate's
  // choice to be sent as a message, so nothing waits on a consumer that is failing.
  let decided = false;
  try {
    // The plan's cap counts the account's runs on every queue: a task over it waits in the gate.
    const account = accountStub(env, owner.accountId);
    const holdMs = Math.min(RUN_SLOT_TTL_MS, gate.queue.runningTtlMs);
    const slot = await account.acquireRunSlot(message.task_id, limits.concurrent_tasks, holdMs);
    if (!slot.granted) {
      released = { deferSeconds: SLOT_WAIT_SECONDS + Math.floor(Math.random() * 6) };
      decided = true;
      return ACK;
    }
    // Heartbeats while the run lives: its holds in the gate and the account last on, and expire
    // within seconds of its death (src/queue/concurrency.ts, RUN_HOLD_MS).
    const beat = setInterval(() => {
      void Promise.all([
        gate.stub.keepAlive(gate.queue, message.task_id),
        account.renewRunSlot(message.task_id, holdMs),
      ]).catch(() => {});
    }, heartbeatMs(gate.queue));
    try {
      const outcome = await runClaimed(env, message, attempts, limits, gate);
      released = outcome.kind === "retry" ? { retryInSeconds: outcome.delaySeconds } : {};
      decided = true;
      return outcome;
    } finally {
      clearInterval(beat);
      // A failed release is not lost either: the slot's hold expires by itself (RUN_SLOT_TTL_MS).
      slotReleased = account.releaseRunSlot(message.task_id).catch(() => {});
    }
  } finally {
    // A failed release or send is not lost: the gate's hold on the run expires by itself, and an
    // unsent message is sent again when its `sent` row expires.
    await Promise.all([
      slotReleased,
      gate.stub
        .release(gate.queue, message.task_id, released)
        .then(({ send, stalled }) => {
          // The gate has marked what it sends as sent: taken over here, it is run by this consumer
          // next (should that never happen, the gate sends it again when the mark expires). A
          // task's own follow-up run always travels as a message (resumable runs, docs/architecture.md),
          // and so does everything while earlier messages wait for a consumer: this invocation
          // then ends, and the queue can deliver them.
          const kept =
            carry?.takeNext && decided && stalled === 0
              ? send.find((s) => s.taskId !== message.task_id)
              : undefined;
          if (kept && carry) carry.next = sendMessage(kept);
          return sendTasks(env, gate.queue.binding, kept ? send.filter((s) => s !== kept) : send);
        })
        .catch((err: unknown) =>
          log("warn", "scrape: queue gate release failed", {
            task_id: message.task_id,
            error: errorText(err),
          }),
        ),
    ]);
  }
}

/** A third of the run's hold: two heartbeats may be late or lost before the hold expires. */
function heartbeatMs(queue: GateQueue): number {
  return Math.max(1000, Math.floor(queue.runningTtlMs / 3));
}

/** The queue gate a run reports to (page heartbeats); null for a run of an already finished task. */
interface RunGate {
  stub: DurableObjectStub<QueueGate>;
  queue: GateQueue;
}

/** At a page boundary: whether the run should hand over to a follow-up (its account is over its share). */
async function shouldYield(gate: RunGate | null, taskId: string): Promise<boolean> {
  if (!gate) return false;
  try {
    return (await gate.stub.heartbeat(gate.queue, taskId)).yield;
  } catch {
    // The gate unreachable: carry on; the run's pages are bounded anyway (PAGES_PER_RUN).
    return false;
  }
}

async function runClaimed(
  env: Env,
  message: ScrapeMessage,
  attempts: number,
  limits: PlanLimits,
  gate: RunGate | null,
): Promise<RunOutcome> {
  const run = message.run ?? 1;
  const claim = await claimRun(env, message.task_id, run, Date.now());
  switch (claim.kind) {
    case "busy":
      return { kind: "retry", delaySeconds: claim.retryInSeconds };
    case "ended":
      // The transition happened, maybe without its event (a crash right after): send it again.
      if (claim.task.status === 200) await announceCompletion(env, claim.task.id);
      else await emitTaskEvent(env, claim.task.id, "task.failed");
      return ACK;
    case "stale":
    case "missing":
      return ACK;
  }
  const { task, token } = claim;
  const publisher = publisherFor(task.publisherKey);
  const module = publisher.module;
  let cookies: Awaited<ReturnType<typeof loginCookies>>;
  try {
    cookies = await loginCookies(env, task.cookiesEnc);
  } catch (err) {
    // Cookies no configured key opens (`secret_unreadable`): no retry can read them.
    if (!(err instanceof ScrapeError)) throw err;
    log("warn", "scrape: task cannot start", { task_id: task.id, reason: err.reason });
    await failTask(env, task.id, err.reason, { token });
    return ACK;
  }
  const client = new PublisherClient(env, {
    publisherKey: task.publisherKey,
    accountId: task.accountId,
    cookies,
    deadline: task.deadlineAt!,
    pageTimeoutMs: limits.page_timeout_seconds * 1000,
    inspect: module.adapter.inspect,
  });
  try {
    if (run === 1) await emitTaskEvent(env, task.id, "task.in_progress");
    return await walkPages(
      env,
      task,
      token,
      run,
      publisher,
      { publisherKey: task.publisherKey, client, sort: (task.options as TaskOptions).sort },
      limits.pages_per_task,
      gate,
    );
  } catch (err) {
    return await stopAfterError(env, task, token, run, err, attempts, client);
  } finally {
    await client.close();
    // Requests of pages that were not stored (a failure, a retry) count all the same.
    await addRequestCounts(env, task.id, client.takeRequestCounts()).catch(() => {});
  }
}

/** A jar an earlier run kept; one that no longer decrypts (a rotated key) is dropped, not fatal. */
async function openJar(env: Env, sealed: string): Promise<unknown> {
  try {
    return JSON.parse(await decryptText(env.ENCRYPTION_KEY, sealed));
  } catch {
    return [];
  }
}

/** The stored cursor, or the first one: the adapter opens the profile (looked up when none was given). */
async function startingCursor(
  env: Env,
  task: TaskRow,
  publisher: Publisher,
  ctx: ScrapeContext,
): Promise<{ cursor: StoredCursor; profileUrl?: string }> {
  if (task.cursor !== null) {
    const stored = StoredCursorSchema.safeParse(task.cursor);
    if (!stored.success) throw new Error(`Task ${task.id} has a malformed stored cursor`);
    return { cursor: stored.data };
  }
  const module = publisher.module;
  let profileUrl = task.profileUrl;
  if (!profileUrl) {
    if (!module.lookup) throw permanentError("profile_not_found", "No profile URL for this publisher");
    const business = await loadBusiness(env, task.requestId);
    profileUrl = await module.lookup(business, { client: ctx.client, publisherKey: task.publisherKey });
  }
  const opened = await module.adapter.start(profileUrl, ctx);
  return { cursor: { page: 1, state: opened.cursor }, profileUrl: opened.profileUrl };
}

async function loadBusiness(env: Env, requestId: string): Promise<Business> {
  const row = await database(env.DB)
    .select({ business: requests.business })
    .from(requests)
    .where(eq(requests.id, requestId))
    .get();
  if (!row) throw new Error(`Request ${requestId} is missing`);
  return row.business as Business;
}

/** The adapter's cursor for the next page, checked with the adapter's own schema. */
function adapterCursor(module: PublisherModule, state: unknown): unknown {
  const parsed = module.adapter.cursor.safeParse(state);
  if (!parsed.success)
    throw permanentError(
      "publisher_error",
      `${module.name} adapter: cursor does not match its schema (${firstIssue(parsed.error).message})`,
    );
  return parsed.data;
}

/** Checks what an adapter returned before any of it is stored. */
function checkedPage(module: PublisherModule, page: AdapterPage<unknown>): AdapterPage<unknown> {
  const reviews = PageReviewsSchema.safeParse(page.reviews);
  if (!reviews.success) {
    throw permanentError(
      "publisher_error",
      `${module.name} adapter returned a malformed review at ${issueText(reviews.error)}`,
    );
  }
  if (page.next !== null) adapterCursor(module, page.next);
  if (!URL.canParse(page.pageUrl))
    throw permanentError("publisher_error", `${module.name} adapter returned a page URL that is not a URL`);
  // Coverage hints are advisory: a value that is not a count or a reason is dropped, not a failure.
  const total = page.publisherTotal;
  const publisherTotal =
    typeof total === "number" && Number.isSafeInteger(total) && total >= 0 ? total : null;
  const limitedView =
    typeof page.limitedView === "string" && page.limitedView.trim()
      ? page.limitedView.trim().slice(0, MAX_STOP_REASON)
      : null;
  return { ...page, reviews: reviews.data, publisherTotal, limitedView };
}

/** Why the walk ends at this page, or null when it goes on. */
type WalkEnd = { fullWalk: boolean; stopReason: string | null } | null;

/** Walks pages until the last one, the plan's page budget (`maxPages`: the walk ends there), or the run's share. */
async function walkPages(
  env: Env,
  task: TaskRow,
  token: string,
  run: number,
  publisher: Publisher,
  ctx: ScrapeContext,
  maxPages: number,
  gate: RunGate | null,
): Promise<RunOutcome> {
  const module = publisher.module;
  const options = task.options as TaskOptions;
  const knownHashes = new Set(options.last_review_hashes);
  // Only a newest-first walk may stop where the client's known reviews or `since` begin: in any
  // other order a newer review may still follow (src/core/tasks/collection.ts). A module whose
  // publisher has no newest-first order to ask for walks in the publisher's order whatever the sort.
  const newestFirst = (options.sort ?? "newest") === "newest" && module.walksNewestFirst !== false;
  const client = ctx.client;
  // The ids of every review the task has stored, and how many recorded files hold them.
  const storedIds = await loadStoredIds(env, task.id, task.files);
  let recordedFiles = task.files.length;
  let { cursor, profileUrl } = await startingCursor(env, task, publisher, ctx);
  if (cursor.jar) client.restoreJar(await openJar(env, cursor.jar));
  const pagesPerRun = settings(env).pagesPerRun;
  for (let scraped = 0; cursor.state !== null; scraped++) {
    if (client.timeUp) throw new BudgetExhausted();
    const scrapedAt = Date.now();
    let page: AdapterPage<unknown>;
    try {
      page = checkedPage(module, await module.adapter.page(adapterCursor(module, cursor.state), ctx));
    } catch (err) {
      // A next page that does not exist ends the walk (only a missing profile is a failure), with the
      // pages read so far and coverage saying the walk stopped there.
      if (
        cursor.page > 1 &&
        err instanceof ScrapeError &&
        err.reason === "profile_not_found" &&
        !client.timeUp
      ) {
        if (
          !(await completeTask(env, task.id, token, {
            stopReason: stopReasonText(err.reason, `page ${cursor.page}: ${err.clientDetail}`),
          }))
        ) {
          log("warn", "scrape run lost its task before completing", {
            task_id: task.id,
            publisher: task.publisherKey,
            run,
          });
        }
        return ACK;
      }
      throw err;
    }
    // An adapter may have caught the budget error; the client remembers it was raised.
    if (client.timeUp) throw new BudgetExhausted();
    // The page boundary's question to the gate (is another account waiting for this slot?) is asked
    // while the page is stored, not after: the answer is the same and the walk saves a round trip a
    // page. Not asked where no next page could follow in this run.
    const handOver =
      page.next !== null && scraped + 1 < pagesPerRun ? shouldYield(gate, task.id) : Promise.resolve(false);
    const reviews = normalizeReviews(page.reviews, {
      publisherKey: task.publisherKey,
      pageUrl: page.pageUrl,
      scrapedAt,
      pageLanguage: page.pageLanguage ?? null,
    });
    const { fresh, reachedKnown } = withoutKnownReviews(reviews, knownHashes);
    const added = newReviews(fresh, storedIds);
    // The client's since and max_reviews, on the reviews this page adds (storedIds: exact counts).
    const cut = cutToOptions({ options, reviews: added, storedBefore: storedIds.size, newestFirst });
    // A walk that reaches the publisher's last page is "full": what it collected is compared with the
    // publisher's total (coverage.ts). One stopped by the client's own choice is not (since and
    // max_reviews name themselves in coverage); one stopped by the plan's page budget is incomplete
    // with that reason. A `since` that filters a walk in another order than newest never makes it full.
    let end: WalkEnd = null;
    if (cut.stop) end = { fullWalk: false, stopReason: stopReasonText(cut.stop.code, cut.stop.detail) };
    else if (page.next === null)
      end = { fullWalk: newestFirst || options.since === undefined, stopReason: null };
    else if (options.first_page_only || (reachedKnown && newestFirst))
      end = { fullWalk: false, stopReason: null };
    else if (cursor.page >= maxPages) {
      end = {
        fullWalk: false,
        stopReason: stopReasonText(
          "page_budget",
          `the plan's pages_per_task (${maxPages}) ended the walk with pages left`,
        ),
      };
    } else if (onlyRepeats(cursor.page, fresh, added)) end = { fullWalk: true, stopReason: null };
    const next: StoredCursor = { page: cursor.page + 1, state: end ? null : page.next };
    // The publisher's cookies go on with the walk (encrypted), so a later run keeps its session.
    const jar = end ? [] : client.jarSnapshot();
    if (jar.length) next.jar = await encryptText(env.ENCRYPTION_KEY, JSON.stringify(jar));
    const stored = await storePage(env, {
      requests: client.takeRequestCounts(),
      taskId: task.id,
      token,
      page: cursor.page,
      reviews: cut.kept,
      next,
      profileUrl: cursor.page === 1 ? (page.profileUrl ?? profileUrl) : undefined,
      publisherTotal: page.publisherTotal,
      summary: checkedSummary(page.summary),
      limitedView: page.limitedView,
      fullWalk: end?.fullWalk,
      stopReason: end?.stopReason,
    });
    // Another run holds the task now (this one was too slow); it carries on from the stored cursor.
    if (!stored) return ACK;
    for (const review of cut.kept) storedIds.add(review.review_id);
    if (cut.kept.length) recordedFiles++;
    cursor = next;
    profileUrl = undefined;
    // The run's share of pages is done, or another account waits for the slot this one holds.
    if (cursor.state !== null && (scraped + 1 >= pagesPerRun || (await handOver))) {
      await saveIdsSnapshot(env, task.id, recordedFiles, storedIds);
      await dispatchTasks(env, [
        { taskId: task.id, publisherKey: task.publisherKey, accountId: task.accountId, run: run + 1 },
      ]);
      await releaseRun(env, task.id, token);
      return ACK;
    }
  }
  // Requests after the last stored page (a next page found missing) are counted before completion.
  await addRequestCounts(env, task.id, client.takeRequestCounts());
  await completeTask(env, task.id, token);
  return ACK;
}

/**
 * A later page holding nothing but reviews already stored means the next links lead back to pages
 * seen before (publishers whose last page links to the first): the walk ends there rather than
 * circling until the time budget runs out.
 */
function onlyRepeats(page: number, fresh: readonly Review[], added: readonly Review[]): boolean {
  return page > 1 && fresh.length > 0 && added.length === 0;
}

/** The page's reviews the task has not stored yet, each once (the first of a page's duplicates). */
function newReviews(reviews: readonly Review[], stored: ReadonlySet<string>): Review[] {
  const seen = new Set<string>();
  return reviews.filter((review) => {
    if (stored.has(review.review_id) || seen.has(review.review_id)) return false;
    seen.add(review.review_id);
    return true;
  });
}

/**
 * After a failed page: a busy browser hands the task to a later run (no attempt spent); permanent
 * failures, failures past the time budget and transient failures out of attempts fail the task;
 * other transient failures (and unexpected errors) let the run go and retry the message later,
 * unless waiting would outlast the time budget.
 */
async function stopAfterError(
  env: Env,
  task: TaskRow,
  token: string,
  run: number,
  err: unknown,
  attempts: number,
  client: PublisherClient,
): Promise<RunOutcome> {
  const deadline = task.deadlineAt!;
  const timedOut = err instanceof BudgetExhausted || client.timeUp;
  if (err instanceof BrowserBusy && !timedOut) {
    const delaySeconds = err.retryAfterSeconds ?? 30;
    if (Date.now() + delaySeconds * 1000 < deadline) {
      await dispatchTasks(env, [
        {
          taskId: task.id,
          publisherKey: task.publisherKey,
          accountId: task.accountId,
          run: run + 1,
          delaySeconds,
        },
      ]);
      await releaseRun(env, task.id, token);
      return ACK;
    }
  }
  let reason: FailureReason = err instanceof ScrapeError ? err.reason : "internal";
  let retry = !(err instanceof ScrapeError) || err.transient;
  if (timedOut) {
    reason = "timeout";
    retry = false;
  }
  const delaySeconds = retryDelaySeconds(
    attempts,
    err instanceof ScrapeError ? err.retryAfterSeconds : undefined,
  );
  if (retry && (attempts >= MAX_ATTEMPTS || Date.now() + delaySeconds * 1000 >= deadline)) retry = false;
  // `detail` is the adapter's own account of what went wrong (the field or element it found missing,
  // the status the publisher answered): what an operator needs when a publisher changes its pages.
  // Adapters' messages name page structure and URLs, never cookies; an unexpected error is logged by
  // name and message only, like everywhere else (src/log.ts).
  log(err instanceof ScrapeError ? "warn" : "error", "scrape attempt failed", {
    task_id: task.id,
    publisher: task.publisherKey,
    run,
    attempt: attempts,
    reason,
    outcome: retry ? "retry" : "failing",
    retry_in_seconds: retry ? delaySeconds : undefined,
    detail: err instanceof ScrapeError ? err.message : errorText(err),
  });
  if (!retry) {
    // A failure after page 1 never discards what was read (docs/api.md, "Failures after page 1"): the
    // task completes with the stored pages and coverage naming the reason. Only `timeout` keeps
    // nothing (docs/architecture.md, "Product decisions"); a task with no stored page fails as before. An unexpected error's own
    // message stays in the log.
    if (reason !== "timeout") {
      // The client's own text of the failure: a provider's answer stays in the log above.
      const detail =
        err instanceof ScrapeError ? err.clientDetail : "an unexpected error (see the service log)";
      if (await completeTask(env, task.id, token, { stopReason: stopReasonText(reason, detail) })) {
        log("info", "task completed with the pages read before the failure", {
          task_id: task.id,
          publisher: task.publisherKey,
          reason,
        });
        return ACK;
      }
    }
    await failTask(env, task.id, reason, { token });
    return ACK;
  }
  await abandonRun(env, task.id, token, reason);
  return { kind: "retry", delaySeconds };
}
