import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach } from "vitest";
import { resetQueueGates } from "../helpers/queue";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// Every queue's gate starts each test empty (see resetQueueGates).
beforeEach(resetQueueGates);
