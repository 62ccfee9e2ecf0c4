// Types for the checks deploy.mjs exports (implemented in lib/deploy-config.mjs); the tests import them.
export interface WranglerConfigVars {
  vars?: Record<string, unknown>;
  queues?: { producers?: { queue: string }[]; consumers?: { queue: string; dead_letter_queue?: string }[] };
}

/** Problems that make a configuration unfit to deploy (local-only settings switched on); empty when fit. */
export declare function localOnlySettingsProblems(config: WranglerConfigVars): string[];
export declare function queueNames(config: WranglerConfigVars): string[];
/** wrangler.toml text with database_id set in the one [[d1_databases]] named `databaseName`. */
export declare function withDatabaseId(toml: string, databaseName: string, databaseId: string): string;
/** Secret names from `wrangler secret list`'s result; throws unless the listing failed only because the Worker does not exist yet. */
export declare function presentSecrets(result: {
  status: number;
  stdout: string;
  stderr: string;
}): Set<string>;
