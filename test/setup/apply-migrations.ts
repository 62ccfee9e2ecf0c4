import { applyD1Migrations, runInDurableObject } from "cloudflare:test";
import { beforeEach } from "vitest";
import { ALL_MODULES } from "../../src/publishers/registry";
import { queueGate } from "../../src/queue/queue-gate";
import { env } from "cloudflare:workers";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// Every queue's gate (src/queue/queue-gate.ts) starts each test empty: tasks earlier tests left
// waiting there (their queue messages discarded with that test's driver) would otherwise take the
// queue's share from this test's tasks.
beforeEach(async () => {
  await Promise.all(
    ALL_MODULES.map((module) =>
      runInDurableObject(queueGate(env, module.queue), async (_gate, state) => {
        state.storage.sql.exec("DELETE FROM gate_tasks");
        await state.storage.deleteAlarm();
      }),
    ),
  );
});
