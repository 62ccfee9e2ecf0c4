/**
 * vitest globalSetup (Node): starts the fixture publisher sites on loopback and hands their
 * origins to the tests (`inject("fixtureOrigins")`) and, through vitest.config.ts, to the Worker as
 * PUBLISHER_ORIGINS.
 */
import type { TestProject } from "vitest/node";
import { publisherFixtureNames, startFixtureSites } from "../fixtures/server";
import { startProviderFakes } from "../providers/fakes";

declare module "vitest" {
  export interface ProvidedContext {
    fixtureOrigins: Record<string, string>;
    unmappedOrigins: Record<string, string>;
    /** Modules with a fixture site (test/publishers/<name>/site.ts), read from disk at each run. */
    publisherFixtureNames: string[];
    /** Provider name → origin of its local fake (test/providers/fakes.ts), the shape of PROVIDER_ORIGINS. */
    providerOrigins: Record<string, string>;
    /**
     * A second, separate set of fixture sites and provider fakes (test/providers/matrix.test.ts runs
     * fixed profiles many times over; its requests must not show in other tests' request counts).
     */
    isolatedOrigins: Record<string, string>;
    isolatedProviderOrigins: Record<string, string>;
  }
}

export default async function setup(project: TestProject) {
  const sites = await startFixtureSites();
  const fakes = await startProviderFakes(sites.origins);
  // The fakes' own walled site is a publisher domain like the fixture sites.
  project.provide("fixtureOrigins", { ...sites.origins, ...fakes.sites });
  project.provide("unmappedOrigins", sites.unmapped);
  project.provide("publisherFixtureNames", publisherFixtureNames());
  project.provide("providerOrigins", fakes.origins);
  const isolatedSites = await startFixtureSites();
  const isolatedFakes = await startProviderFakes(isolatedSites.origins);
  project.provide("isolatedOrigins", { ...isolatedSites.origins, ...isolatedFakes.sites });
  project.provide("isolatedProviderOrigins", isolatedFakes.origins);
  return async () => {
    await Promise.all([fakes.close(), isolatedFakes.close()]);
    await Promise.all([sites.close(), isolatedSites.close()]);
  };
}
