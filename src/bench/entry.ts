/**
 * The Worker as `npm run bench` runs it (scripts/bench.mjs points its wrangler config here): the
 * production entry (../index.ts) unchanged, with a fetch that counts a sampling request's D1 round
 * trips and queue sends (./round-trips.ts). A deployment's entry never loads the counter.
 */
import worker from "../index";
import { countingEnabled, withRoundTripCount } from "./round-trips";

// Every Durable Object class the bindings name (`export *` leaves the default, the handlers, out).
export * from "../index";

export default {
  ...worker,
  fetch(request, env, ctx) {
    if (countingEnabled(env, request))
      return withRoundTripCount(env, (counted) => worker.fetch(request, counted, ctx));
    return worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
