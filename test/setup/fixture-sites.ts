/**
 * vitest globalSetup (Node): starts the fixture publisher sites on loopback and hands their
 * origins to the tests (`inject("fixtureOrigins")`) and, through vitest.config.ts, to the Worker as
 * PUBLISHER_ORIGINS.
 */
import type { TestProject } from "vitest/node";
import { publisherFixtureNames, startFixtureSites } from "../fixtures/server";

declare module "vitest" {
  export interface ProvidedContext {
    fixtureOrigins: Record<string, string>;
    unmappedOrigins: Record<string, string>;
    /** Modules with a fixture site (test/publishers/<name>/site.ts), read from disk at each run. */
    publisherFixtureNames: string[];
  }
}

export default async function setup(project: TestProject) {
  const sites = await startFixtureSites();
  project.provide("fixtureOrigins", sites.origins);
  project.provide("unmappedOrigins", sites.unmapped);
  project.provide("publisherFixtureNames", publisherFixtureNames());
  return () => sites.close();
}
