import { beforeAll, describe, expect, inject, it } from "vitest";
import { call, createAccount, post } from "../helpers/api";

type Json = Record<string, unknown>;
interface MediaType {
  schema?: Json;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}
interface Operation {
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, unknown>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Json> };
}

const SPEC_ENDPOINTS = ["/submit/request-reviews/", "/retrieve-task/", "/webhooks/create-webhook/"];

/** Responses each endpoint must document beyond the 400/401 and success every API endpoint has. */
const EXTRA_RESPONSES: Record<string, string[]> = {
  "/submit/request-reviews/": ["201", "429"],
  "/retrieve-task/": ["200", "404"],
  "/webhooks/create-webhook/": ["201"],
};

async function fetchDocument(): Promise<OpenApiDocument> {
  const res = await call("/openapi.json");
  expect(res.status).toBe(200);
  return await res.json<OpenApiDocument>();
}

async function validate(document: unknown): Promise<{ valid: boolean; error?: string }> {
  const res = await fetch(inject("openapiValidatorUrl"), { method: "POST", body: JSON.stringify(document) });
  return await res.json<{ valid: boolean; error?: string }>();
}

function postOperations(document: OpenApiDocument): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    item.post ? [[path, item.post] as [string, Operation]] : [],
  );
}

function resolve(document: OpenApiDocument, schema: Json | undefined): Json | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== "string") return schema;
  const name = ref.replace("#/components/schemas/", "");
  return document.components?.schemas?.[name];
}

/** Every request example of an operation: on the media type and on its (referenced) schema. */
function requestExamples(document: OpenApiDocument, operation: Operation): unknown[] {
  const media = operation.requestBody?.content?.["application/json"];
  if (!media) return [];
  const schema = resolve(document, media.schema);
  return [
    ...(media.example === undefined ? [] : [media.example]),
    ...Object.values(media.examples ?? {}).map((e) => e.value),
    ...(schema?.example === undefined ? [] : [schema.example]),
    ...(Array.isArray(schema?.examples) ? schema.examples : []),
  ];
}

/** The example with its placeholder key replaced by a real one, wherever the endpoint reads it. */
function withApiKey(example: unknown, apiKey: string): Json {
  const body = structuredClone(example) as Json;
  if ("api_key" in body) body.api_key = apiKey;
  const data = body.data as Json | undefined;
  if (data && typeof data === "object" && "api_key" in data) data.api_key = apiKey;
  return body;
}

describe("GET /openapi.json", () => {
  let document: OpenApiDocument;
  beforeAll(async () => {
    document = await fetchDocument();
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(await validate(document)).toEqual({ valid: true });
  });

  it("is checked by a validator that rejects a broken document", async () => {
    const broken = structuredClone(document) as unknown as Json;
    delete broken.info;
    const result = await validate(broken);
    expect(result.valid).toBe(false);
    expect(result.error).toMatch(/info/);
  });

  it("documents every endpoint with its success, 400, 401 and endpoint-specific responses", () => {
    for (const path of SPEC_ENDPOINTS) expect(Object.keys(document.paths)).toContain(path);
    const operations = postOperations(document);
    for (const [path, operation] of operations) {
      const codes = Object.keys(operation.responses ?? {});
      expect(codes, path).toEqual(expect.arrayContaining(["400", "401", ...(EXTRA_RESPONSES[path] ?? [])]));
      expect(
        codes.some((code) => code === "200" || code === "201"),
        `${path} success`,
      ).toBe(true);
      expect(
        operation.requestBody?.content?.["application/json"]?.schema,
        `${path} request schema`,
      ).toBeDefined();
    }
  });

  it("has request examples that pass each endpoint's own validation", async () => {
    const { apiKey } = await createAccount({ plan: "unlimited" });
    const checked: string[] = [];
    for (const [path, operation] of postOperations(document)) {
      const examples = requestExamples(document, operation);
      expect(examples.length, `${path} has a request example`).toBeGreaterThan(0);
      for (const example of examples) {
        const res = await post(path, withApiKey(example, apiKey));
        const body = await res.text();
        // 404 is retrieve's answer for a task id that does not exist (and the monitor endpoints' for
        // a monitor id), which they give only after the body passed validation; anything else must
        // be the endpoint's success.
        expect([200, 201, 404], `${path} ${res.status} ${body}`).toContain(res.status);
        if (res.status === 404)
          expect(JSON.parse(body).error, path).toBe(
            path.startsWith("/monitors/") ? "Monitor not found" : "Task not found",
          );
        checked.push(path);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(SPEC_ENDPOINTS));
  });
});
