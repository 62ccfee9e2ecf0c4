// Runs before `npm start`: on the first start makes the account "local" with a key and prints the
// key; on later starts prints the one command that makes another (keys are never shown twice).
import { createKey } from "./keys.mjs";
import { fail } from "./lib/project.mjs";
import { sqlText } from "./lib/sql.mjs";
import { d1Execute } from "./lib/wrangler.mjs";

const ACCOUNT = "local";
// Generous enough not to get in the way of trying things, low enough to show the rate-limit headers.
const PLAN = "pro";
const COMMAND = `npm run keys -- create --account ${ACCOUNT}`;

try {
  const [rows] = d1Execute(`SELECT id FROM accounts WHERE name = ${sqlText(ACCOUNT)}`);
  const rule = "=".repeat(72);
  console.log(rule);
  if (rows.length === 0) {
    console.log(`First start: account "${ACCOUNT}" (plan ${PLAN}) with a new API key for local requests.`);
    createKey({ account: ACCOUNT, plan: PLAN, remote: false });
  } else {
    console.log(`Local account "${ACCOUNT}" exists. A new API key for it: ${COMMAND}`);
  }
  console.log(rule);
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
