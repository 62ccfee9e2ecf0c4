/**
 * vitest globalSetup, run in Node: swagger-parser does not load inside workerd, so a loopback
 * HTTP service validates OpenAPI documents for the tests there. POST a document, get
 * `{ "valid": true }` or `{ "valid": false, "error": "<what is wrong>" }`.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
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

export default async function setup(project: TestProject) {
  const server = createServer(async (req, res) => {
    let result: { valid: boolean; error?: string };
    try {
      const document = JSON.parse(await readBody(req));
      // validate() dereferences in place; the caller's copy is throwaway anyway.
      await SwaggerParser.validate(document);
      result = { valid: true };
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
