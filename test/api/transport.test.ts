import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createApp } from "../../src/http/app";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  ENDPOINTS,
  type EndpointName,
  call,
  createAccount,
  post,
  postJson,
  submitBody,
} from "../helpers/api";

const MIB = 1024 * 1024;
const names = Object.keys(ENDPOINTS) as EndpointName[];
const bothPaths = (path: string) => [path, path.slice(0, -1)];

let apiKey: string;

beforeAll(async () => {
  ({ apiKey } = await createAccount({ plan: "unlimited" }));
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** A body of exactly `size` bytes that streams in chunks, so no Content-Length is known. */
function streamed(text: string): Request["body"] {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 64 * 1024));
      offset += 64 * 1024;
    },
  });
}

function postStream(path: string, text: string): Promise<Response> {
  const request = new Request(`https://api.test${path}`, {
    method: "POST",
    body: streamed(text),
    duplex: "half",
  } as RequestInit);
  expect(request.headers.get("content-length")).toBeNull();
  return call(path, { method: "POST", body: request.body, duplex: "half" } as RequestInit);
}

/** A valid submit body padded with trailing whitespace (still valid JSON) to exactly `size` bytes. */
function paddedSubmit(size: number): string {
  const json = JSON.stringify(submitBody(apiKey));
  return json + " ".repeat(size - new TextEncoder().encode(json).byteLength);
}

async function expectJsonUtf8(res: Response): Promise<unknown> {
  expect(res.headers.get("content-type")).toBe("application/json; charset=UTF-8");
  const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(await res.arrayBuffer());
  return JSON.parse(text);
}

describe("methods and paths", () => {
  it.each(names)("%s: only POST, with and without the trailing slash, never a redirect", async (name) => {
    for (const path of bothPaths(ENDPOINTS[name].path)) {
      for (const method of ["GET", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
        const res = await call(path, { method, redirect: "manual" });
        expect({
          path,
          method,
          status: res.status,
          allow: res.headers.get("allow"),
          location: res.headers.get("location"),
        }).toEqual({
          path,
          method,
          status: 405,
          allow: "POST",
          location: null,
        });
        expect(await expectJsonUtf8(res)).toEqual({ error: `Method "${method}" not allowed.` });
      }
      const head = await call(path, { method: "HEAD" });
      expect([head.status, head.headers.get("allow")]).toEqual([405, "POST"]);
      const posted = await call(path, { method: "POST", body: "{}", redirect: "manual" });
      expect({ path, status: posted.status }).toEqual({ path, status: 400 });
    }
  });
});

describe("body size", () => {
  it.each(names)("%s: over 1 MiB is a 413, with or without Content-Length", async (name) => {
    const path = ENDPOINTS[name].path;
    const tooBig = `{"pad": "${"x".repeat(MIB)}"}`;
    const declared = await post(path, tooBig);
    expect({ status: declared.status, body: await expectJsonUtf8(declared) }).toEqual({
      status: 413,
      body: { error: "Payload too large" },
    });
    const chunked = await postStream(path, tooBig);
    expect({ status: chunked.status, body: await expectJsonUtf8(chunked) }).toEqual({
      status: 413,
      body: { error: "Payload too large" },
    });
  });

  it("exactly 1 MiB is accepted, sent either way", async () => {
    const body = paddedSubmit(MIB);
    expect((await post(ENDPOINTS.submit.path, body)).status).toBe(201);
    expect((await postStream(ENDPOINTS.submit.path, body)).status).toBe(201);
    expect((await post(ENDPOINTS.submit.path, `${body} `)).status).toBe(413);
  });
});

describe("bodies that are not a JSON object", () => {
  const notJson: [string, string | Uint8Array, RegExp][] = [
    ["plain text", "api_key=abc", /^JSON parse error - .+/],
    ["truncated JSON", '{"api_key": "abc", ', /^JSON parse error - .+/],
    ["single quotes", "{'api_key': 'abc'}", /^JSON parse error - .+/],
    ["trailing comma", '{"api_key": "abc",}', /^JSON parse error - .+/],
    ["empty body", "", /^JSON parse error - empty body$/],
    ["whitespace only", "  \n ", /^JSON parse error - empty body$/],
    [
      "invalid UTF-8",
      new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      /^JSON parse error - body is not valid UTF-8$/,
    ],
  ];
  const notObject: [string, string][] = [
    ["[]", "list"],
    ['[{"api_key": "abc"}]', "list"],
    ["5", "int"],
    ["2.5", "float"],
    ['"text"', "str"],
    ["true", "bool"],
    ["null", "NoneType"],
  ];

  it.each(names)(
    "%s: parse errors and non-object bodies answer 400 in the endpoint's shape",
    async (name) => {
      const { path, errorText } = ENDPOINTS[name];
      for (const [label, body, pattern] of notJson) {
        const res = await call(path, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body,
        });
        const parsed = (await expectJsonUtf8(res)) as {
          error: string;
          details: { non_field_errors: string[] };
        };
        expect({ label, status: res.status, error: parsed.error, keys: Object.keys(parsed.details) }).toEqual(
          {
            label,
            status: 400,
            error: errorText,
            keys: ["non_field_errors"],
          },
        );
        expect(parsed.details.non_field_errors).toHaveLength(1);
        expect(parsed.details.non_field_errors[0]).toMatch(pattern);
      }
      for (const [body, type] of notObject) {
        const res = await postJson(path, body);
        expect({ body, status: res.status, response: res.body }).toEqual({
          body,
          status: 400,
          response: {
            error: errorText,
            details: { non_field_errors: [`Invalid data. Expected a dictionary, but got ${type}.`] },
          },
        });
      }
    },
  );

  it("the body is read as JSON whatever Content-Type says, and a UTF-8 byte order mark is allowed", async () => {
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded", ""]) {
      const res = await call(ENDPOINTS.submit.path, {
        method: "POST",
        headers: contentType ? { "Content-Type": contentType } : {},
        body: JSON.stringify(submitBody(apiKey)),
      });
      expect({ contentType, status: res.status }).toEqual({ contentType, status: 201 });
    }
    const bom = await call(ENDPOINTS.submit.path, {
      method: "POST",
      body: `\ufeff${JSON.stringify(submitBody(apiKey))}`,
    });
    expect(bom.status).toBe(201);
  });
});

describe("encoding", () => {
  it("non-ASCII text round-trips as UTF-8 in successes and errors", async () => {
    const foreignKey = "Café ☕ 東京 🍰";
    const created = await post(
      ENDPOINTS.submit.path,
      submitBody(apiKey, undefined, { foreign_key: foreignKey }),
    );
    expect(created.status).toBe(201);
    expect(((await expectJsonUtf8(created)) as { foreign_key: string }).foreign_key).toBe(foreignKey);
    const refused = await post(ENDPOINTS.submit.path, { ...submitBody(apiKey), job: "Jöb ✓" });
    expect(await expectJsonUtf8(refused)).toEqual({
      error: "Invalid payload",
      details: { job: ['"Jöb ✓" is not a valid choice.'] },
    });
    const notFound = await post(ENDPOINTS.retrieve.path, {
      api_key: apiKey,
      foreign_key: foreignKey,
      publisher_key: "example.com",
      task_id: "ñ",
    });
    expect(notFound.status).toBe(404);
    expect(JSON.stringify(await expectJsonUtf8(notFound))).toContain(foreignKey);
  });
});

describe("unexpected failures", () => {
  it.each(names)(
    "%s: any exception answers the documented 500 body with no stack and no secrets in the log",
    async (name) => {
      // A key no request has used yet, so authentication itself reaches D1 (a used key is cached).
      const { apiKey } = await createAccount({ plan: "unlimited" });
      vi.spyOn(env.DB, "prepare").mockImplementation(() => {
        throw new Error("D1_ERROR: no such table: api_keys");
      });
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const body =
        name === "submit"
          ? submitBody(apiKey)
          : {
              api_key: apiKey,
              foreign_key: "f",
              publisher_key: "example.com",
              task_id: "t",
              webhook: "https://hooks.example.com/",
            };
      const res = await post(ENDPOINTS[name].path, body);
      expect(res.status).toBe(500);
      const text = JSON.stringify(await expectJsonUtf8(res));
      expect(text).toBe('{"error":"Internal server error"}');
      expect(res.headers.get("x-request-id")).toBeTruthy();
      const lines = logged.mock.calls.map((args) => args.join(" ")).join("\n");
      expect(lines).toContain("no such table");
      expect(lines).toContain(res.headers.get("x-request-id"));
      expect(lines).not.toContain(apiKey);
    },
  );
});

describe("request log", () => {
  it("logs one line per request with its id, method, path and status, and never the body", async () => {
    const logged = vi.spyOn(console, "log").mockImplementation(() => {});
    const logging = { ...env, LOG_REQUESTS: "true" } as Env;
    const res = await createApp().fetch(
      new Request("https://api.test/retrieve-task/", {
        method: "POST",
        body: JSON.stringify({
          api_key: apiKey,
          foreign_key: "f",
          publisher_key: "example.com",
          task_id: "t",
        }),
      }),
      logging,
      createExecutionContext(),
    );
    expect(res.status).toBe(404);
    const lines = logged.mock.calls.map((args) => JSON.parse(String(args[0])));
    expect(lines).toEqual([
      {
        level: "info",
        message: "request",
        request_id: res.headers.get("x-request-id"),
        method: "POST",
        path: "/retrieve-task/",
        status: 404,
        ms: expect.any(Number),
      },
    ]);
    expect(JSON.stringify(logged.mock.calls)).not.toContain(apiKey);
  });
});

describe("X-Request-Id", () => {
  it("is on every answer: Cloudflare's ray id, a client's own id, or a new UUID", async () => {
    const fresh = await call("/no-such-path");
    expect(fresh.headers.get("x-request-id")).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(
      (await call("/", { headers: { "cf-ray": "8f2a1b3c4d5e6f70-SJC" } })).headers.get("x-request-id"),
    ).toBe("8f2a1b3c4d5e6f70-SJC");
    expect(
      (await call("/", { headers: { "X-Request-Id": "client-id_42" } })).headers.get("x-request-id"),
    ).toBe("client-id_42");
    // An id that could forge log lines is replaced.
    expect(
      (await call("/", { headers: { "X-Request-Id": 'x" , "status": 200' } })).headers.get("x-request-id"),
    ).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await post("/retrieve-task/", "{");
    expect(refused.status).toBe(400);
    expect(refused.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});
