import { env } from "cloudflare:workers";
import { http, HttpResponse } from "msw";
import type { SetupServer } from "msw/node";
import { accountStub } from "../../src/account/account-do";
import { database } from "../../src/db/client";
import { requests, tasks } from "../../src/db/schema";
import { business, postJson } from "../helpers/api";

/** Sets the account's webhook through the real endpoint; returns the signing secret. */
export async function setWebhook(apiKey: string, url: string): Promise<string> {
  const res = await postJson("/webhooks/create-webhook/", { api_key: apiKey, webhook: url });
  if (res.status !== 201)
    throw new Error(`create-webhook answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.secret as string;
}

export interface TaskFixture {
  taskId: string;
  requestId: string;
}

/** A request with one task straight in D1, the way submit and the scraper leave them. */
export async function insertTask(
  accountId: string,
  fields: {
    status?: number;
    reason?: string | null;
    files?: string[];
    reviewsFound?: number;
    profileUrl?: string | null;
  } = {},
): Promise<TaskFixture> {
  const db = database(env.DB);
  const now = Date.now();
  const requestId = crypto.randomUUID();
  const taskId = crypto.randomUUID();
  await db.insert(requests).values({
    id: requestId,
    accountId,
    foreignKey: "order-7",
    lazy: false,
    business: business(),
    baseUrl: "https://api.test",
    createdAt: now,
  });
  await db.insert(tasks).values({
    id: taskId,
    requestId,
    accountId,
    foreignKey: "order-7",
    publisherKey: "example.com",
    position: 0,
    profileKey: "https://example.com/biz/blue-door",
    profileUrl: fields.profileUrl ?? null,
    status: fields.status ?? 100,
    reason: fields.reason ?? null,
    options: { last_review_hashes: [], first_page_only: false, lazy: false },
    files: fields.files ?? [],
    reviewsFound: fields.reviewsFound ?? 0,
    createdAt: now,
    updatedAt: now,
  });
  return { taskId, requestId };
}

export interface Received {
  headers: Headers;
  body: string;
}

let receivers = 0;

/** How a receiver answers: statuses in turn (the last one repeats), or chosen per request. */
export type Answers = number[] | ((body: Record<string, unknown>, index: number) => number);

/**
 * A webhook receiver (MSW intercepting the Worker's fetch, which runs in this isolate) that
 * answers as told and records every request.
 */
export function receiver(server: SetupServer, answers: Answers, headers: Record<string, string> = {}) {
  receivers += 1;
  const url = `https://hooks-${receivers}.receiver.example/reviews?source=test`;
  const received: Received[] = [];
  server.use(
    http.post(url.split("?")[0], async ({ request }) => {
      received.push({ headers: request.headers, body: await request.text() });
      const body = received[received.length - 1].body;
      const status = Array.isArray(answers)
        ? answers[Math.min(received.length, answers.length) - 1]
        : answers(JSON.parse(body), received.length - 1);
      return new HttpResponse(status === 204 ? null : "ok", { status, headers });
    }),
  );
  return { url, received };
}

export const deliveries = (accountId: string, limit = 100, taskId?: string) =>
  accountStub(env, accountId).listWebhookDeliveries(limit, taskId);
