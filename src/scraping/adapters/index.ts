import type { Adapter } from "./adapter";
import { genericAdapter } from "./generic";

/** Publishers with an adapter of their own, by canonical domain. Every other domain uses the generic one. */
const ADAPTERS: Record<string, Adapter> = {};

export function adapterFor(publisherKey: string): Adapter {
  return Object.hasOwn(ADAPTERS, publisherKey) ? ADAPTERS[publisherKey] : genericAdapter;
}

export type { Adapter, ProfileRef, ScrapeContext, ScrapedPage } from "./adapter";
