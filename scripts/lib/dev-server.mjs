// Starting a local Worker with wrangler dev for a script (npm run bench, npm run canary): a free
// port, and waiting until it answers.
import { createServer } from "node:net";

/** A loopback port nothing listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Polls `url` until it answers as `accept` wants (by default a 2xx), the child exits, or the time
 * runs out.
 */
export async function waitUntilReady(url, child, output, timeoutMs = 90_000, accept = (res) => res.ok) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}\n${output()}`);
    try {
      if (accept(await fetch(url, { signal: AbortSignal.timeout(2000) }))) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not become ready in time\n${output()}`);
}
