// `node scripts/quiet.mjs <script>…`: npm scripts one after another, one line each when they pass,
// the whole output of the one that fails (`npm run check` and `pretest` use it).
import { runQuietly } from "./lib/quiet.mjs";

process.exitCode = await runQuietly(process.argv.slice(2));
