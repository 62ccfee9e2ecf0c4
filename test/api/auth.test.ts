import { beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS, type EndpointName, createAccount, post, postJson, submitBody } from "../helpers/api";

/** A body for each endpoint that passes validation, carrying the given key. */
function validBody(endpoint: EndpointName, apiKey: string): Record<string, unknown> {
  switch (endpoint) {
    case "submit":
      return submitBody(apiKey);
    case "retrieve":
      return {
        api_key: apiKey,
        foreign_key: "order-1",
        publisher_key: "example.com",
        task_id: "no-such-task",
      };
    case "webhook":
      return { api_key: apiKey, webhook: "https://hooks.example.com/reviews" };
  }
}

/** The same body with the key in place and every other field broken. */
function invalidBody(endpoint: EndpointName, apiKey: string): Record<string, unknown> {
  switch (endpoint) {
    case "submit":
      return { job: "nope", data: { api_key: apiKey, publishers: [] } };
    case "retrieve":
      return { api_key: apiKey, page: 0 };
    case "webhook":
      return { api_key: apiKey, webhook: "not a url" };
  }
}

/** What each endpoint answers to validBody() once the key is accepted: the work was really done. */
function acceptedAnswer(endpoint: EndpointName): { status: number; body: unknown } {
  switch (endpoint) {
    case "submit": {
      const task = { publisher_key: "example.com", tasks_id: expect.stringMatching(/^[0-9a-f-]{36}$/) };
      return {
        status: 201,
        body: {
          status: "success",
          tasks_id: task.tasks_id,
          request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          foreign_key: "order-1",
          publisher_key: "example.com",
          tasks: [task],
        },
      };
    }
    case "retrieve":
      // The key is good; the task simply is not there.
      return {
        status: 404,
        body: {
          error: "Task not found",
          details: {
            foreign_key: 'No task with foreign_key "order-1" and task_id "no-such-task"',
            publisher_key: 'No task with publisher_key "example.com" and task_id "no-such-task"',
          },
        },
      };
    case "webhook":
      return {
        status: 201,
        body: {
          webhook: "https://hooks.example.com/reviews",
          status: "success",
          secret: expect.stringMatching(/^whsec_/),
        },
      };
  }
}

const names = Object.keys(ENDPOINTS) as EndpointName[];

let keys: { live: string; expired: string; revoked: string; expiresLater: string };

beforeAll(async () => {
  const now = Date.now();
  keys = {
    live: (await createAccount({ plan: "unlimited" })).apiKey,
    expired: (await createAccount({ expiresAt: now - 1000 })).apiKey,
    revoked: (await createAccount({ revoked: true })).apiKey,
    expiresLater: (await createAccount({ plan: "unlimited", expiresAt: now + 3_600_000 })).apiKey,
  };
});

describe.each(names)("%s: authentication", (name) => {
  const { path, errorText, unauthorized } = ENDPOINTS[name];
  const refused = { error: "Invalid API key", details: { api_key: [unauthorized] } };

  it("unknown, expired and revoked keys answer 401 with the endpoint's text", async () => {
    for (const key of ["rk_unknown_0000000000000000", keys.expired, keys.revoked]) {
      const res = await postJson(path, validBody(name, key));
      expect({ key, status: res.status, body: res.body }).toEqual({ key, status: 401, body: refused });
    }
  });

  it("a key that expires later is accepted", async () => {
    const res = await postJson(path, validBody(name, keys.expiresLater));
    expect({ status: res.status, body: res.body }).toEqual(acceptedAnswer(name));
  });

  it("a bad key is refused before the rest of the body is validated", async () => {
    const res = await postJson(path, invalidBody(name, "rk_unknown_0000000000000000"));
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: refused });
  });

  it("a body that is not JSON is refused before the key is looked at", async () => {
    const res = await post(path, '{"api_key": "rk_unknown", ');
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toBe(errorText);
  });

  it("an api_key that is missing, not a string or too long is a 400, not a 401", async () => {
    const keyPath = name === "submit" ? ["data", "api_key"] : ["api_key"];
    for (const [key, message] of [
      [undefined, "This field is required."],
      [null, "This field may not be null."],
      [["rk"], "Not a valid string."],
      ["  ", "This field may not be blank."],
      ["k".repeat(129), "Ensure this field has no more than 128 characters."],
    ] as const) {
      const body = validBody(name, "placeholder");
      if (name === "submit") (body.data as Record<string, unknown>).api_key = key;
      else body.api_key = key;
      const res = await postJson(path, body);
      const details = keyPath.length === 2 ? { data: { api_key: [message] } } : { api_key: [message] };
      expect({ key, status: res.status, body: res.body }).toEqual({
        key,
        status: 400,
        body: { error: errorText, details },
      });
    }
  });
});
