/**
 * Bench-only measurement of D1 round trips, queue sends and R2 reads per request, wired in only by the
 * bench's own entry (./entry.ts), and only when `npm run bench` sets BENCH_COUNT_D1=true. The D1 binding is wrapped once per env: every
 * call that leaves the Worker for D1 (a statement's first/all/run/raw, a batch, exec) counts one
 * round trip, counted for the request it runs in, and the totals go back in response headers.
 * Only requests that ask for it (COUNT_REQUEST_HEADER) are counted, so the requests the bench times
 * run exactly the code a deployment runs, without the wrapping.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export const ROUND_TRIPS_HEADER = "X-Bench-D1-Round-Trips";
export const QUEUE_SENDS_HEADER = "X-Bench-Queue-Sends";
/** R2 reads (get, head, list) of the review bucket: a retrieve page reads its store's index and data. */
export const R2_READS_HEADER = "X-Bench-R2-Reads";
/** Sent by the bench's sampling requests (not by the timed load) to have their round trips counted. */
export const COUNT_REQUEST_HEADER = "X-Bench-Count";

interface Counts {
  d1: number;
  queue: number;
  r2: number;
}

const current = new AsyncLocalStorage<Counts>();

function count(kind: keyof Counts) {
  const counts = current.getStore();
  if (counts) counts[kind] += 1;
}

class CountedStatement {
  constructor(readonly real: D1PreparedStatement) {}
  bind(...values: unknown[]) {
    return new CountedStatement(this.real.bind(...values));
  }
  first(column?: string) {
    count("d1");
    return column === undefined ? this.real.first() : this.real.first(column);
  }
  all() {
    count("d1");
    return this.real.all();
  }
  run() {
    count("d1");
    return this.real.run();
  }
  raw(options?: { columnNames?: boolean }) {
    count("d1");
    return options?.columnNames ? this.real.raw({ columnNames: true }) : this.real.raw();
  }
}

function unwrap(statements: D1PreparedStatement[]): D1PreparedStatement[] {
  return statements.map((s) => (s instanceof CountedStatement ? s.real : s));
}

function countedSession(real: D1DatabaseSession) {
  return {
    prepare: (query: string) => new CountedStatement(real.prepare(query)),
    batch: (statements: D1PreparedStatement[]) => {
      count("d1");
      return real.batch(unwrap(statements));
    },
    getBookmark: () => real.getBookmark(),
  };
}

function countedDatabase(real: D1Database) {
  return {
    prepare: (query: string) => new CountedStatement(real.prepare(query)),
    batch: (statements: D1PreparedStatement[]) => {
      count("d1");
      return real.batch(unwrap(statements));
    },
    exec: (query: string) => {
      count("d1");
      return real.exec(query);
    },
    withSession: (constraint?: string) => countedSession(real.withSession(constraint)),
  };
}

function countedQueue<T>(real: Queue<T>) {
  return {
    send: (...args: Parameters<Queue<T>["send"]>) => {
      count("queue");
      return real.send(...args);
    },
    sendBatch: (...args: Parameters<Queue<T>["sendBatch"]>) => {
      count("queue");
      return real.sendBatch(...args);
    },
  };
}

/** The review bucket with its reads counted; writes go straight through. */
function countedBucket(real: R2Bucket): R2Bucket {
  return new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        if (prop === "get" || prop === "head" || prop === "list") count("r2");
        return method.apply(target, args);
      };
    },
  });
}

const wrapped = new WeakMap<Env, Env>();

/** The same env with counting D1 and queue bindings; one object per env, so per-env caches still hit. */
function countingEnv(env: Env): Env {
  let out = wrapped.get(env);
  if (!out) {
    const queues = Object.keys(env).filter((name) => name.startsWith("SCRAPE_"));
    out = Object.create(env, {
      DB: { value: countedDatabase(env.DB) },
      REVIEW_FILES: { value: countedBucket(env.REVIEW_FILES) },
      // Every scraping queue (one per publisher module): a submit's dispatch counts as its queue sends.
      ...Object.fromEntries(
        queues.map((name) => [name, { value: countedQueue(env[name as keyof Env] as Queue<unknown>) }]),
      ),
    }) as Env;
    wrapped.set(env, out);
  }
  return out;
}

export function countingEnabled(env: Env, request: Request): boolean {
  return (
    (env as Env & { BENCH_COUNT_D1?: string }).BENCH_COUNT_D1 === "true" &&
    request.headers.has(COUNT_REQUEST_HEADER)
  );
}

/** Runs a fetch with counting bindings and reports the request's D1 round trips and queue sends. */
export async function withRoundTripCount(
  env: Env,
  run: (env: Env) => Response | Promise<Response>,
): Promise<Response> {
  const counts: Counts = { d1: 0, queue: 0, r2: 0 };
  const res = await current.run(counts, () => run(countingEnv(env)));
  const out = new Response(res.body, res);
  out.headers.set(ROUND_TRIPS_HEADER, String(counts.d1));
  out.headers.set(QUEUE_SENDS_HEADER, String(counts.queue));
  out.headers.set(R2_READS_HEADER, String(counts.r2));
  return out;
}
