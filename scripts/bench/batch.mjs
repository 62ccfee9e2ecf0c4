// The batch scenario of `npm run bench` (--only batch): N businesses sent as one POST /submit/batch/
// against the same N sent as single submits (`connections` at a time, as a client would), side by
// side on the same service: each round times both, in alternating order so that neither always runs
// on the warmer (or the more loaded) service, and the ratio is the time per business of the singles
// over that of the batch (above 1: the batch is faster per business).
import { printTable } from "./support.mjs";

const JOB = "App\\Jobs\\RequestReviews";

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Item n of a round: submit's data without the key, with a foreign key no other item uses. */
function item(business, round, n) {
  return {
    foreign_key: `bench-batch-${round}-${n}`,
    business: { ...business, id: `bench-biz-${n}` },
    publishers: {
      "example.com": {
        profile_key: `https://example.com/biz/bench-${round}-${n}`,
        last_review_hashes: [],
        first_page_only: true,
      },
    },
  };
}

async function postJson(url, body, headers = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { res, text: await res.text() };
}

async function timedBatch(base, key, items) {
  const started = performance.now();
  const { res, text } = await postJson(`${base}/submit/batch/`, { job: JOB, api_key: key, requests: items });
  const ms = performance.now() - started;
  if (res.status !== 201 || JSON.parse(text).accepted !== items.length)
    throw new Error(`batch answered ${res.status}: ${text.slice(0, 300)}`);
  return ms;
}

async function timedSingles(base, key, items, connections) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const data = { api_key: key, ...items[next++] };
      const { res, text } = await postJson(`${base}/submit/request-reviews/`, { job: JOB, data });
      if (res.status !== 201) throw new Error(`submit answered ${res.status}: ${text.slice(0, 300)}`);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(connections, items.length) }, worker));
  return performance.now() - started;
}

/**
 * Runs the scenario against a started service whose `key` has an unlimited plan; returns the rounds,
 * the median ratio and the D1 round trips and queue sends of one batch (counted by the service's
 * BENCH_COUNT_D1 wrappers on a warm-up call, never on a timed one).
 */
export async function runBatchBench({ base, key, business, items, rounds, connections }) {
  const warm = await postJson(
    `${base}/submit/batch/`,
    { job: JOB, api_key: key, requests: Array.from({ length: items }, (_, n) => item(business, "warm", n)) },
    { "X-Bench-Count": "1" },
  );
  if (warm.res.status !== 201)
    throw new Error(`batch answered ${warm.res.status}: ${warm.text.slice(0, 300)}`);
  const trips = {
    d1: Number(warm.res.headers.get("x-bench-d1-round-trips")),
    queue: Number(warm.res.headers.get("x-bench-queue-sends")),
  };
  await timedSingles(
    base,
    key,
    Array.from({ length: connections }, (_, n) => item(business, "warm-s", n)),
    connections,
  );

  const results = [];
  for (let round = 0; round < rounds; round++) {
    const batchItems = Array.from({ length: items }, (_, n) => item(business, `b${round}`, n));
    const singleItems = Array.from({ length: items }, (_, n) => item(business, `s${round}`, n));
    let batchMs;
    let singlesMs;
    if (round % 2 === 0) {
      batchMs = await timedBatch(base, key, batchItems);
      singlesMs = await timedSingles(base, key, singleItems, connections);
    } else {
      singlesMs = await timedSingles(base, key, singleItems, connections);
      batchMs = await timedBatch(base, key, batchItems);
    }
    results.push({ round: round + 1, batch_ms: batchMs, singles_ms: singlesMs, ratio: singlesMs / batchMs });
  }
  const ratio = median(results.map((r) => r.ratio));
  console.log("");
  console.log(
    `batch: ${items} businesses in one POST /submit/batch/ vs ${items} single submits (${connections} at a time), side by side`,
  );
  printTable(
    ["round", "batch ms", "singles ms", "batch ms/business", "singles ms/business", "singles ÷ batch"],
    results.map((r) => [
      r.round,
      r.batch_ms.toFixed(0),
      r.singles_ms.toFixed(0),
      (r.batch_ms / items).toFixed(2),
      (r.singles_ms / items).toFixed(2),
      r.ratio.toFixed(2),
    ]),
  );
  console.log(
    `batch ratio (median of ${rounds}): a business costs ${ratio.toFixed(2)}x less time in a batch than as a single submit; one batch = ${trips.d1} D1 round trip(s) + ${trips.queue} queue send(s)`,
  );
  return { items, connections, rounds: results, ratio, trips };
}
