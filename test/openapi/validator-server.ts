/**
 * vitest globalSetup, run in Node: swagger-parser and ajv do not load inside workerd, so a loopback
 * HTTP service checks things against OpenAPI documents for the tests there.
 *
 * - `POST /` with a document: `{ "valid": true }` or `{ "valid": false, "error": "<what is wrong>" }`.
 * - `POST /documents` with a document: dereferences it, compiles every documented JSON response
 *   schema and answers `{ "id": "<sha-256 of the document>" }` (the same document is compiled once).
 * - `POST /responses` with `{ id, method, path, status, body }`: `{ "valid": true }`, or
 *   `{ "valid": false, "error": "…" }` when the operation does not document that status or the
 *   body does not match the schema documented for it.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    openapiValidatorUrl: string;
  }
}

async function readBody(req: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

type Json = Record<string, unknown>;

/** Validators by "METHOD path status" for one document. */
type Compiled = Map<string, ValidateFunction>;

const compiled = new Map<string, Promise<Compiled>>();

async function compile(document: Json): Promise<Compiled> {
  const dereferenced = (await SwaggerParser.dereference(structuredClone(document) as never)) as unknown as {
    paths: Record<string, Record<string, Json>>;
  };
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; `example` is OpenAPI's own annotation.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const validators: Compiled = new Map();
  for (const [path, item] of Object.entries(dereferenced.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const responses = (operation.responses ?? {}) as Record<
        string,
        { content?: Record<string, { schema?: Json }> }
      >;
      for (const [status, response] of Object.entries(responses)) {
        const schema = response.content?.["application/json"]?.schema;
        if (schema) validators.set(`${method.toUpperCase()} ${path} ${status}`, ajv.compile(schema));
      }
    }
  }
  return validators;
}

/** The documented path of a request path: as given, or with the trailing slash every endpoint also answers without. */
function operationKey(validators: Compiled, method: string, path: string, status: number): string | null {
  const pathname = path.split("?")[0];
  for (const candidate of [pathname, pathname.endsWith("/") ? pathname : `${pathname}/`]) {
    const key = `${method.toUpperCase()} ${candidate} ${status}`;
    if (validators.has(key)) return key;
  }
  return null;
}

async function checkResponse(request: {
  id: string;
  method: string;
  path: string;
  status: number;
  body: unknown;
}): Promise<{ valid: boolean; error?: string }> {
  const validators = await compiled.get(request.id);
  if (!validators)
    return { valid: false, error: `unknown document ${request.id}; POST it to /documents first` };
  const key = operationKey(validators, request.method, request.path, request.status);
  if (!key)
    return {
      valid: false,
      error: `${request.method} ${request.path} answered ${request.status}, which its operation does not document`,
    };
  const validate = validators.get(key)!;
  if (validate(request.body)) return { valid: true };
  return {
    valid: false,
    error: `${key}: ${JSON.stringify(validate.errors?.map((e) => `${e.instancePath || "/"} ${e.message}`))}`,
  };
}

/** Checks `instance` against `document.components.schemas[schema]`, every $ref resolved. */
async function validateInstance(body: {
  document: object;
  schema: string;
  instance: unknown;
}): Promise<{ valid: boolean; error?: string }> {
  const document = (await SwaggerParser.dereference(body.document as never)) as {
    components?: { schemas?: Record<string, object> };
  };
  const schema = document.components?.schemas?.[body.schema];
  if (!schema) return { valid: false, error: `no component schema ${body.schema}` };
  // strict: false lets OpenAPI's own keywords (example) through; allErrors names every mismatch.
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
  return validate(body.instance) ? { valid: true } : { valid: false, error: JSON.stringify(validate.errors) };
}

export default async function setup(project: TestProject) {
  // answer() catches everything it can throw, so the promise the handler drops never rejects.
  const server = createServer((req, res) => void answer(req, res));
  async function answer(req: IncomingMessage, res: ServerResponse) {
    let result: unknown;
    try {
      const text = await readBody(req);
      const input = JSON.parse(text);
      if (req.url === "/documents") {
        const id = createHash("sha256").update(text).digest("hex");
        if (!compiled.has(id)) compiled.set(id, compile(input));
        await compiled.get(id);
        result = { id };
      } else if (req.url === "/responses") {
        result = await checkResponse(input);
      } else if (req.url === "/instance") {
        result = await validateInstance(input);
      } else {
        // validate() dereferences in place; the caller's copy is throwaway anyway.
        await SwaggerParser.validate(input);
        result = { valid: true };
      }
    } catch (err) {
      result = { valid: false, error: err instanceof Error ? err.message : String(err) };
    }
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(result));
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  project.provide("openapiValidatorUrl", `http://127.0.0.1:${port}/`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
