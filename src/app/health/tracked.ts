import { listPublishers } from "../../publishers/registry";
import { MAX_CANARY_PUBLISHERS, settings } from "../../settings";

/**
 * The publishers whose health is kept, shown and alerted on: every publisher of the registry
 * (dedicated modules and listed ones, aliases included) and the operator's canary publishers
 * (CANARY_PROFILES, at most MAX_CANARY_PUBLISHERS). A client's task for any other domain is scraped
 * as usual but never recorded: client-invented domains never reach /status, /publishers or an
 * operator alert, and the health tables stay bounded by this set.
 */
export { MAX_CANARY_PUBLISHERS };

let registryKeys: string[] | undefined;

function registry(): string[] {
  registryKeys ??= listPublishers().flatMap((p) => [p.domain, ...p.aliases]);
  return registryKeys;
}

/** Every tracked publisher key (as tasks store it), as one JSON array: bound as a single D1 parameter. */
export function trackedKeysJson(env: Env): string {
  const canaries = Object.keys(settings(env).canaryProfiles);
  return JSON.stringify([...new Set([...registry(), ...canaries])]);
}

/** How many publishers are tracked at most: the registry plus the canary cap. */
export function maxTrackedPublishers(): number {
  return registry().length + MAX_CANARY_PUBLISHERS;
}
