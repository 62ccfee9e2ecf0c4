/**
 * vitest globalSetup, run in Node: swagger-parser does not load inside workerd, so a loopback
 * HTTP service validates OpenAPI documents for the tests there. POST a document, get
 * `{ "valid": true }` or `{ "valid": false, "error": "<what is wrong>" }`. POST
 * `{ document, schema, instance }` to `/instance` to check a response body against one of the
 * document's component schemas (JSON Schema 2020-12, as OpenAPI 3.1 uses), with the same answer.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import Ajv2020 from "ajv/dist/2020";
import { createServer } from "node:http";
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

/** Checks `instance` against `document.components.schemas[schema]`, every $ref resolved. */
async function validateInstance(body: { document: object; schema: string; instance: unknown }): Promise<{ valid: boolean; error?: string }> {
  const document = (await SwaggerParser.dereference(body.document as never)) as { components?: { schemas?: Record<string, object> } };
  const schema = document.components?.schemas?.[body.schema];
  if (!schema) return { valid: false, error: `no component schema ${body.schema}` };
  // strict: false lets OpenAPI's own keywords (example) through; allErrors names every mismatch.
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
  return validate(body.instance) ? { valid: true } : { valid: false, error: JSON.stringify(validate.errors) };
}

export default async function setup(project: TestProject) {
  const server = createServer(async (req, res) => {
    let result: { valid: boolean; error?: string };
    try {
      const body = JSON.parse(await readBody(req));
      if (req.url === "/instance") result = await validateInstance(body);
      else {
        // validate() dereferences in place; the caller's copy is throwaway anyway.
        await SwaggerParser.validate(body);
        result = { valid: true };
      }
    } catch (err) {
      result = { valid: false, error: err instanceof Error ? err.message : String(err) };
    }
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(result));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  project.provide("openapiValidatorUrl", `http://127.0.0.1:${port}/`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
