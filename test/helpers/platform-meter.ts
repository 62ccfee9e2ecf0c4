/**
 * The platform's per-invocation bounds, counted around the real bindings: every call that leaves the
 * Worker for D1 (a statement's first/all/run/raw, a batch: one query each, as the D1 limits page
 * counts them), every Durable Object call and every queue send is one subrequest, and the bytes of
 * each D1 result (as JSON) are recorded, the largest one against D1's 50 MB result limit. A test
 * runs the Worker's own handler with `meter.env` in place of `env`.
 *
 * `failD1When` makes the D1 calls whose SQL matches it throw, and `failD1After` every D1 call after the first one whose SQL matches it throw (D1 unavailable,
 * or the invocation out of its query limit), to check what a tick does when its calls start failing.
 */

/** Workers Paid, November 2026: D1 queries and subrequests per invocation, D1's largest result. */
export const PLATFORM = { d1Queries: 1000, subrequests: 10_000, d1ResultBytes: 50 * 1024 * 1024 } as const;

export interface Meter {
  env: Env;
  d1: number;
  durableObjects: number;
  queueSends: number;
  /** Bytes of every D1 result, in call order. */
  resultBytes: number[];
  /** The SQL of every D1 call (a batch lists its statements joined by " ; "). */
  sql: string[];
  readonly subrequests: number;
  readonly largestResult: number;
  /** Every D1 call after the first one whose SQL matches this throws; null = never. */
  failD1After: RegExp | null;
  /** Every D1 call whose SQL matches this throws; null = never. */
  failD1When: RegExp | null;
}

const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value ?? null)).length;

export function meter(base: Env): Meter {
  const m: Meter = {
    env: base,
    d1: 0,
    durableObjects: 0,
    queueSends: 0,
    resultBytes: [],
    sql: [],
    get subrequests() {
      return this.d1 + this.durableObjects + this.queueSends;
    },
    get largestResult() {
      return Math.max(0, ...this.resultBytes);
    },
    failD1After: null,
    failD1When: null,
  };
  let failing = false;
  const d1Call = async <T>(sql: string, run: () => Promise<T>): Promise<T> => {
    m.d1 += 1;
    m.sql.push(sql);
    if (failing || m.failD1When?.test(sql)) throw new Error("D1_ERROR: injected by the test");
    if (m.failD1After?.test(sql)) failing = true;
    const result = await run();
    m.resultBytes.push(bytesOf(result));
    return result;
  };
  const sqlOf = new WeakMap<object, string>();
  const statement = (real: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const wrapped = {
      bind: (...values: unknown[]) => statement(real.bind(...values), sql),
      first: (column?: string) =>
        d1Call(sql, () => (column === undefined ? real.first() : real.first(column))),
      all: () => d1Call(sql, () => real.all()),
      run: () => d1Call(sql, () => real.run()),
      raw: (options?: { columnNames?: boolean }) =>
        d1Call(sql, () => (options?.columnNames ? real.raw({ columnNames: true }) : real.raw())),
      real,
    };
    sqlOf.set(wrapped, sql);
    return wrapped as unknown as D1PreparedStatement;
  };
  const unwrap = (statements: D1PreparedStatement[]) =>
    statements.map((s) => (s as unknown as { real?: D1PreparedStatement }).real ?? s);
  const db = {
    prepare: (sql: string) => statement(base.DB.prepare(sql), sql),
    batch: (statements: D1PreparedStatement[]) =>
      d1Call(statements.map((s) => sqlOf.get(s) ?? "?").join(" ; "), () => base.DB.batch(unwrap(statements))),
    exec: (sql: string) => d1Call(sql, () => base.DB.exec(sql)),
    withSession: () => ({ prepare: db.prepare, batch: db.batch, getBookmark: () => null }),
    dump: () => base.DB.dump(),
  };
  const stub = <T extends object>(real: T): T =>
    new Proxy(real, {
      get(target, prop) {
        const value = Reflect.get(target, prop) as unknown;
        if (typeof value !== "function" || prop === "then") return value;
        return (...args: unknown[]) => {
          m.durableObjects += 1;
          // Reflect.apply: an RPC stub's method would take `.apply` for a remote method's name.
          return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
        };
      },
    });
  const namespace = (real: DurableObjectNamespace) =>
    new Proxy(real, {
      get(target, prop) {
        const value = Reflect.get(target, prop) as unknown;
        if (prop === "get" || prop === "getByName")
          return (...args: unknown[]) =>
            stub(Reflect.apply(value as (...a: unknown[]) => object, target, args));
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  const queue = (real: Queue) => ({
    send: (...args: Parameters<Queue["send"]>) => {
      m.queueSends += 1;
      return real.send(...args);
    },
    sendBatch: (...args: Parameters<Queue["sendBatch"]>) => {
      m.queueSends += 1;
      return real.sendBatch(...args);
    },
  });
  const overrides: PropertyDescriptorMap = { DB: { value: db } };
  for (const [name, value] of Object.entries(base)) {
    if (name.startsWith("SCRAPE_")) overrides[name] = { value: queue(value as Queue) };
    else if (value && typeof value === "object" && "idFromName" in value)
      overrides[name] = { value: namespace(value as DurableObjectNamespace) };
  }
  m.env = Object.create(base, overrides) as Env;
  return m;
}
