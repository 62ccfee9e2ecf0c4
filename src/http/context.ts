import type { Account } from "../db/schema";

export interface AppVariables {
  requestId: string;
  /** The parsed JSON body of a POST endpoint. */
  body: unknown;
  account: Account;
}

export interface AppEnv {
  Bindings: Env;
  Variables: AppVariables;
}
