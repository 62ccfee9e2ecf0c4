// The drain benchmark (`npm run bench -- --only drain`): how fast a deployment turns a backlog of
// tasks into stored reviews. The service runs under `wrangler dev` with its real queue consumers (the
// settings of wrangler.toml) against fixture publisher sites on loopback that answer every page after
// a set latency. Tasks are submitted through the API, spread over accounts and over three publisher
// queues in proportion to the queues' slots, and the bench reports pages per second against the
// ideal, the time from submit to first page per account, and the end-to-end time until every task is
// completed.
//
// The fixture sites are invented for this benchmark (no real captures): the three modules' answer
// shapes with 10 reviews a page, so parsing costs little and the page latency dominates.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseToml, stringify as stringifyToml } from "smol-toml";
import { createKey } from "../keys.mjs";
import { root } from "../lib/project.mjs";
import { applyMigrationsQuietly } from "../lib/wrangler.mjs";
import { freePort, printTable, startWrangler, waitUntilReady } from "./support.mjs";

const REVIEWS_PER_PAGE = 10;

/** The three publisher modules the drain uses, each on its own queue. */
const PUBLISHERS = [
  {
    key: "drain.test",
    queue: "scrape-generic",
    origin: "drain.test",
    profile: (slug) => `https://drain.test/biz/${slug}`,
    // The generic module: JSON-LD on the profile page, older pages through rel="next", page 1 without a query.
    slugOf: (url) => (url.pathname.startsWith("/biz/") ? url.pathname.slice(5) : null),
    pageOf: (url) => Number(url.searchParams.get("page") ?? "1"),
    first: 1,
    answer: (slug, page, pages) => {
      const reviews = pageReviews(slug, page - 1).map((r) => ({
        "@type": "Review",
        "@id": `https://drain.test/reviews/${r.id}`,
        author: { "@type": "Person", name: r.author },
        reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5 },
        reviewBody: r.text,
        datePublished: r.date.slice(0, 10),
      }));
      const ld = JSON.stringify({
        "@context": "https://schema.org",
        "@type": "LocalBusiness",
        name: "Drain Cafe",
        review: reviews,
      }).replace(/</g, "\\u003c");
      const next = page < pages ? `<link rel="next" href="/biz/${slug}?page=${page + 1}">` : "";
      const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Drain Cafe</title><script type="application/ld+json">${ld}</script>${next}</head><body><h1>Drain Cafe</h1></body></html>`;
      return { type: "text/html; charset=utf-8", body };
    },
  },
  {
    key: "reviews.io",
    queue: "scrape-reviews-io",
    origin: "reviews.io",
    profile: (slug) => `https://www.reviews.io/company-reviews/store/${slug}`,
    // GET api.reviews.io/merchant/reviews?store=&per_page=&page= (pages from 0).
    slugOf: (url) => (url.pathname === "/merchant/reviews" ? url.searchParams.get("store") : null),
    pageOf: (url) => Number(url.searchParams.get("page") ?? "0"),
    first: 0,
    answer: (slug, page, pages) => {
      const reviews = pageReviews(slug, page).map((r, i) => ({
        store_review_id: 1_000_000 + page * REVIEWS_PER_PAGE + i,
        reviewer: { first_name: r.author, last_name: "", verified_buyer: "yes" },
        rating: r.rating,
        comments: r.text,
        date_created: r.date.slice(0, 19).replace("T", " "),
      }));
      const body = JSON.stringify({
        stats: { total_reviews: pages * REVIEWS_PER_PAGE, average_rating: "4.20" },
        reviews,
        word: "Excellent",
        total_pages: pages,
      });
      return { type: "application/json", body };
    },
  },
  {
    key: "feefo.com",
    queue: "scrape-feefo",
    origin: "feefo.com",
    profile: (slug) => `https://www.feefo.com/en-GB/reviews/${slug}`,
    // GET api.feefo.com/api/10/reviews/service?merchant_identifier=&page= (pages from 1).
    slugOf: (url) =>
      url.pathname === "/api/10/reviews/service" ? url.searchParams.get("merchant_identifier") : null,
    pageOf: (url) => Number(url.searchParams.get("page") ?? "1"),
    first: 1,
    answer: (slug, page, pages) => {
      const reviews = pageReviews(slug, page - 1).map((r) => ({
        url: `https://www.feefo.com/en-GB/reviews/${slug}/${r.id}/customer-review`,
        customer: { display_name: r.author },
        service: {
          id: r.id,
          rating: { min: 1, max: 5, rating: r.rating },
          review: r.text,
          created_at: Date.parse(r.date),
          helpful_votes: 0,
        },
      }));
      const meta = { count: pages * REVIEWS_PER_PAGE, pages, page_size: 100, current_page: page };
      return { type: "application/json", body: JSON.stringify({ summary: { meta }, reviews }) };
    },
  },
];

/** The reviews of one page (0-based page index), newest first across pages. */
function pageReviews(slug, index) {
  const newest = Date.UTC(2026, 10, 20, 12);
  return Array.from({ length: REVIEWS_PER_PAGE }, (_, i) => {
    const n = index * REVIEWS_PER_PAGE + i;
    return {
      id: `${slug}-r${n}`,
      author: `Reviewer ${n}`,
      rating: (n % 5) + 1,
      text: `Visit ${n}: the coffee was excellent and the staff were friendly and quick.`,
      date: new Date(newest - n * 3_600_000).toISOString(),
    };
  });
}

const percentile = (values, p) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/**
 * The fixture sites: one loopback server answering all three publishers (the host each request was
 * meant for comes in X-Forwarded-Host), every page after `latencyMs`. It records, per task slug, when
 * its first page was answered and how many pages it served, and per queue the most pages in flight.
 */
async function startSites(latencyMs, pages) {
  const byHost = (host) => PUBLISHERS.find((p) => host === p.origin || host.endsWith(`.${p.origin}`));
  const firstPage = new Map();
  const inFlight = new Map(PUBLISHERS.map((p) => [p.queue, 0]));
  const maxInFlight = new Map(PUBLISHERS.map((p) => [p.queue, 0]));
  const stats = { pages: 0, firstStart: null, lastEnd: null, unexpected: 0 };
  // Where a slot's time goes: per queue, the integral of pages in flight over time (so its mean is
  // the slots actually used), and per task the gap between a page's answer and its next page's request
  // (the service's own work between two pages of one walk).
  const busy = new Map(PUBLISHERS.map((p) => [p.queue, { since: 0, integral: 0 }]));
  const lastAnswer = new Map();
  const pageGaps = [];
  const track = (queue, delta) => {
    const now = Date.now();
    const b = busy.get(queue);
    if (b.since) b.integral += inFlight.get(queue) * (now - b.since);
    b.since = now;
    inFlight.set(queue, inFlight.get(queue) + delta);
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fixture");
    const publisher = byHost(String(req.headers["x-forwarded-host"] ?? ""));
    const slug = publisher?.slugOf(url);
    const page = publisher ? publisher.pageOf(url) : NaN;
    const index = publisher ? page - publisher.first : NaN;
    if (!publisher || !slug || !(index >= 0 && index < pages)) {
      stats.unexpected++;
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    stats.firstStart ??= Date.now();
    const queue = publisher.queue;
    if (index > 0 && lastAnswer.has(slug)) pageGaps.push(Date.now() - lastAnswer.get(slug));
    track(queue, 1);
    maxInFlight.set(queue, Math.max(maxInFlight.get(queue), inFlight.get(queue)));
    setTimeout(() => {
      const { type, body } = publisher.answer(slug, page, pages);
      track(queue, -1);
      const now = Date.now();
      lastAnswer.set(slug, now);
      if (index === 0 && !firstPage.has(slug)) firstPage.set(slug, now);
      stats.pages++;
      stats.lastEnd = now;
      res.writeHead(200, { "Content-Type": type, "Cache-Control": "no-store" }).end(body);
    }, latencyMs);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origins: Object.fromEntries(PUBLISHERS.map((p) => [p.origin, origin])),
    firstPage,
    maxInFlight,
    stats,
    pageGaps,
    /** Mean pages in flight on the queue between the first page request and the last answer. */
    meanInFlight: (queue) =>
      stats.lastEnd > stats.firstStart ? busy.get(queue).integral / (stats.lastEnd - stats.firstStart) : 0,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Round robin over lists: [[a, a], [b], [c]] → [a, b, c, a]. */
function interleave(lists) {
  const out = [];
  for (let i = 0; out.length < lists.reduce((n, l) => n + l.length, 0); i++)
    for (const list of lists) if (i < list.length) out.push(list[i]);
  return out;
}

/** Runs `fn` over `items` with at most `limit` at once. */
async function eachLimited(items, limit, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/**
 * The drain: `tasks` tasks of `pages` pages over `accounts` accounts and the three queues, each page
 * answered after `latencyMs`. Returns the figures (also printed).
 */
export async function runDrain({ tasks = 500, pages = 5, accounts = 5, latencyMs = 200, vars = [] } = {}) {
  const state = mkdtempSync(join(tmpdir(), "bench-drain-"));
  // In the state folder, not beside wrangler.toml: a developer's .dev.vars (written by npm start) would
  // otherwise be read too and its PUBLISHER_ORIGINS would replace the fixture site's.
  const drainConfig = join(state, "wrangler.bench-drain.toml");
  const sites = await startSites(latencyMs, pages);
  let service = null;
  const stop = async () => {
    if (service?.child.exitCode === null) {
      try {
        process.kill(-service.child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    await sites.close();
    rmSync(drainConfig, { force: true });
    rmSync(state, { recursive: true, force: true });
  };
  try {
    // The service's own config with its real consumers for the three queues (and the dead-letter
    // queue), the fixture sites as publisher origins, and the per-address limits opened up (one client
    // on one address submits the whole backlog on purpose).
    const config = parseToml(readFileSync(join(root, "wrangler.toml"), "utf8"));
    config.main = join(root, config.main);
    config.assets = { ...config.assets, directory: join(root, config.assets.directory) };
    config.d1_databases = config.d1_databases.map((db) => ({
      ...db,
      migrations_dir: join(root, db.migrations_dir),
    }));
    const used = new Set([...PUBLISHERS.map((p) => p.queue), "scrape-dlq"]);
    config.queues = {
      producers: config.queues.producers,
      consumers: config.queues.consumers.filter((c) => used.has(c.queue)),
    };
    config.ratelimits = config.ratelimits.map((limiter) => ({
      ...limiter,
      simple: { ...limiter.simple, limit: 1_000_000_000 },
    }));
    // The fixture site is on loopback: private addresses allowed, as in npm start and the tests.
    config.vars = {
      ...config.vars,
      ALLOW_PRIVATE_NETWORK: "true",
      PUBLISHER_ORIGINS: JSON.stringify(sites.origins),
      ACCOUNT_REQUESTS_PER_MINUTE: "1000000000",
    };
    writeFileSync(drainConfig, stringifyToml(config));
    const consumerOf = (p) => config.queues.consumers.find((c) => c.queue === p.queue);
    const slots = Object.fromEntries(PUBLISHERS.map((p) => [p.queue, consumerOf(p)?.max_concurrency ?? 1]));
    const batchSizes = Object.fromEntries(
      PUBLISHERS.map((p) => [p.queue, Math.min(consumerOf(p)?.max_batch_size ?? 10, slots[p.queue])]),
    );

    applyMigrationsQuietly({ persistTo: state });
    const keys = Array.from(
      { length: accounts },
      (_, i) =>
        createKey({ account: `drain-${i + 1}`, plan: "unlimited", persistTo: state, log: () => {} }).key,
    );
    const port = await freePort();
    const inspector = await freePort();
    const base = `http://127.0.0.1:${port}`;
    service = startWrangler(
      [
        "dev",
        "-c",
        drainConfig,
        "--port",
        String(port),
        "--inspector-port",
        String(inspector),
        "--persist-to",
        state,
        "--ip",
        "127.0.0.1",
        "--log-level",
        "error",
        "--show-interactive-dev-session=false",
        "--var",
        `ENCRYPTION_KEY:${randomBytes(32).toString("base64")}`,
        "--var",
        `URL_SIGNING_KEY:${randomBytes(32).toString("base64url")}`,
        ...vars.flatMap((v) => ["--var", v]),
      ],
      join(state, "dev-registry"),
    );
    await waitUntilReady(`${base}/`, service.child, service.output);

    // Interleaved: task i belongs to account i mod accounts; the publishers take turns in proportion
    // to their queues' slots (4 : 2 : 2), so every queue has work for the whole drain and the ideal
    // (all slots busy throughout) is reachable. An equal split would leave the 4-slot queue idle for
    // the second half, capping any run at 0.75 of the ideal whatever the service does.
    const turns = interleave(PUBLISHERS.map((p) => Array(slots[p.queue]).fill(p)));
    const work = Array.from({ length: tasks }, (_, i) => ({
      i,
      account: i % accounts,
      publisher: turns[i % turns.length],
      slug: `drain-${i}`,
    }));
    const started = Date.now();
    await eachLimited(work, 8, async (task) => {
      const res = await fetch(`${base}/submit/request-reviews/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          job: "App\\Jobs\\RequestReviews",
          data: {
            api_key: keys[task.account],
            foreign_key: task.slug,
            business: {
              id: task.slug,
              name: "Drain Cafe",
              address: {
                street: "1 Market St",
                city: "San Francisco",
                state: "CA",
                zip: "94105",
                country: "USA",
              },
              phone: "+1 415 555 0100",
              description: "Drain benchmark business",
              tags: ["cafe"],
            },
            publishers: {
              [task.publisher.key]: {
                profile_key: task.publisher.profile(task.slug),
                last_review_hashes: [],
                first_page_only: false,
              },
            },
          },
        }),
      });
      const text = await res.text();
      if (res.status !== 201) throw new Error(`submit answered ${res.status}: ${text.slice(0, 300)}`);
      task.submittedAt = Date.now();
      task.taskId = JSON.parse(text).tasks_id;
    });
    const submitted = Date.now();

    // Wait for every page, then for every task to be completed (read back through retrieve).
    const deadline = Date.now() + Math.max(600_000, tasks * pages * latencyMs * 2);
    while (sites.stats.pages < tasks * pages && Date.now() < deadline && service.child.exitCode === null)
      await new Promise((r) => setTimeout(r, 200));
    const pending = new Set(work);
    const failed = [];
    while (pending.size && Date.now() < deadline) {
      await eachLimited([...pending], 4, async (task) => {
        const res = await fetch(`${base}/retrieve-task/`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            api_key: keys[task.account],
            foreign_key: task.slug,
            publisher_key: task.publisher.key,
            task_id: task.taskId,
            page_size: 1,
          }),
        });
        const body = await res.json();
        if (Array.isArray(body.reviews)) {
          task.completedAt = Date.now();
          pending.delete(task);
        } else if (body.response_message?.[0]?.task_status === 500) {
          failed.push({ slug: task.slug, reason: body.response_message[0].reason });
          pending.delete(task);
        }
      });
      if (pending.size) await new Promise((r) => setTimeout(r, 250));
    }
    const finished = Date.now();

    const stats = sites.stats;
    const drainSeconds = stats.firstStart && stats.lastEnd ? (stats.lastEnd - stats.firstStart) / 1000 : null;
    const pagesPerSecond = drainSeconds ? stats.pages / drainSeconds : 0;
    const slotSum = Object.values(slots).reduce((a, b) => a + b, 0);
    const ideal = slotSum / (latencyMs / 1000);
    // Locally miniflare hands a queue's consumer one batch at a time, so a queue has at most its
    // max_batch_size runs (one page each) in flight; wrangler.toml sizes batches to max_concurrency,
    // which makes the local ideal the platform's.
    const localIdeal = Object.values(batchSizes).reduce((a, b) => a + b, 0) / (latencyMs / 1000);
    const perAccount = Array.from({ length: accounts }, (_, a) => {
      const waits = work
        .filter((t) => t.account === a && sites.firstPage.has(t.slug))
        .map((t) => sites.firstPage.get(t.slug) - t.submittedAt);
      return {
        account: `drain-${a + 1}`,
        tasks: waits.length,
        p50_s: percentile(waits, 50) / 1000,
        p95_s: percentile(waits, 95) / 1000,
      };
    });
    const p95s = perAccount.map((a) => a.p95_s).filter((v) => v !== null);
    const fairness = p95s.length ? Math.max(...p95s) / Math.min(...p95s) : null;
    const result = {
      tasks,
      pages_per_task: pages,
      accounts,
      latency_ms: latencyMs,
      queues: Object.fromEntries(
        PUBLISHERS.map((p) => [
          p.queue,
          {
            tasks: work.filter((t) => t.publisher === p).length,
            max_concurrency: slots[p.queue],
            most_pages_in_flight: sites.maxInFlight.get(p.queue),
            mean_pages_in_flight: sites.meanInFlight(p.queue),
          },
        ]),
      ),
      page_gap_ms: { p50: percentile(sites.pageGaps, 50), p95: percentile(sites.pageGaps, 95) },
      pages_served: stats.pages,
      unexpected_requests: stats.unexpected,
      tasks_completed: work.filter((t) => t.completedAt).length,
      tasks_failed: failed,
      submit_seconds: (submitted - started) / 1000,
      drain_seconds: drainSeconds,
      end_to_end_seconds: (finished - started) / 1000,
      pages_per_second: pagesPerSecond,
      ideal_pages_per_second: ideal,
      local_ideal_pages_per_second: localIdeal,
      ratio_to_ideal: pagesPerSecond / ideal,
      ratio_to_local_ideal: pagesPerSecond / localIdeal,
      per_account: perAccount,
      p95_spread: fairness,
    };
    console.log(
      `\ndrain: ${tasks} tasks × ${pages} pages over ${accounts} accounts and ${PUBLISHERS.length} queues, pages answered after ${latencyMs} ms`,
    );
    printTable(
      ["queue", "tasks", "max_concurrency", "most pages in flight", "mean pages in flight"],
      PUBLISHERS.map((p) => [
        p.queue,
        result.queues[p.queue].tasks,
        slots[p.queue],
        sites.maxInFlight.get(p.queue),
        sites.meanInFlight(p.queue).toFixed(2),
      ]),
    );
    console.log("");
    printTable(
      ["figure", "value"],
      [
        [
          "pages served",
          `${stats.pages} of ${tasks * pages}${stats.unexpected ? ` (+${stats.unexpected} unexpected requests)` : ""}`,
        ],
        ["tasks completed / failed", `${result.tasks_completed} / ${failed.length}`],
        ["submitting took", `${result.submit_seconds.toFixed(1)} s`],
        ["first page to last page", `${drainSeconds?.toFixed(1) ?? "-"} s`],
        ["end to end (first submit to last task completed)", `${result.end_to_end_seconds.toFixed(1)} s`],
        ["pages per second", pagesPerSecond.toFixed(2)],
        [
          "service's time between two pages of a walk, p50 / p95",
          `${result.page_gap_ms.p50 ?? "-"} / ${result.page_gap_ms.p95 ?? "-"} ms`,
        ],
        [
          `ideal on the platform (${slotSum} slots ÷ ${latencyMs} ms)`,
          `${ideal.toFixed(1)} (ratio ${result.ratio_to_ideal.toFixed(2)})`,
        ],
        [
          `ideal locally (one batch of ≤ max_batch_size a queue at a time ÷ ${latencyMs} ms)`,
          `${localIdeal.toFixed(1)} (ratio ${result.ratio_to_local_ideal.toFixed(2)})`,
        ],
        ["account p95 spread (max ÷ min)", fairness?.toFixed(2) ?? "-"],
      ],
    );
    console.log("");
    printTable(
      ["account", "tasks", "submit→first page p50 s", "p95 s"],
      perAccount.map((a) => [a.account, a.tasks, a.p50_s?.toFixed(1) ?? "-", a.p95_s?.toFixed(1) ?? "-"]),
    );
    if (failed.length) console.log(`failed tasks (first 5): ${JSON.stringify(failed.slice(0, 5))}`);
    return result;
  } finally {
    await stop();
  }
}
