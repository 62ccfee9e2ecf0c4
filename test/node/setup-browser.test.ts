/**
 * scripts/setup-browser.mjs on a machine that has no browser of its own: the launcher miniflare runs
 * must target the Chromium packaged in node_modules (@sparticuz/chromium), and that binary must render
 * a page whose text only a script writes. Runs the script as npm does, in a temporary cache, with
 * CHROMIUM_PATH removed from its environment: the script looks at no system path (no /usr/bin/chromium).
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);

/**
 * Starts the launcher with a DevTools port, as miniflare does, opens `url` in a new tab and returns
 * what `expression` evaluates to there once the page has loaded. Plain DevTools protocol over the
 * browser's WebSocket: no client library.
 */
async function renderedText(launcher: string, url: string, expression: string): Promise<unknown> {
  const browser = spawn(launcher, ["--remote-debugging-port=0", "about:blank"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      let err = "";
      browser.stderr.on("data", (chunk: Buffer) => {
        err += chunk.toString();
        const found = /DevTools listening on (ws:\/\/\S+)/.exec(err);
        if (found) resolve(found[1]);
      });
      browser.on("exit", (code) => reject(new Error(`browser exited (${code}): ${err.slice(-500)}`)));
    });
    const socket = new WebSocket(endpoint);
    await new Promise((resolve, reject) => {
      socket.addEventListener("open", resolve);
      socket.addEventListener("error", reject);
    });
    let id = 0;
    const pending = new Map<number, (result: Record<string, unknown>) => void>();
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: Record<string, unknown> };
      if (message.id !== undefined) pending.get(message.id)?.(message.result ?? {});
    });
    const send = (method: string, params: object, sessionId?: string) =>
      new Promise<Record<string, unknown>>((resolve) => {
        pending.set(++id, resolve);
        socket.send(JSON.stringify({ id, method, params, sessionId }));
      });
    const { targetId } = await send("Target.createTarget", { url });
    const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
    for (let i = 0; i < 100; i++) {
      const { result } = (await send(
        "Runtime.evaluate",
        { expression: `document.readyState === "complete" ? ${expression} : null` },
        sessionId as string,
      )) as {
        result?: { value?: unknown };
      };
      if (result?.value !== null && result?.value !== undefined) {
        socket.close();
        return result.value;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("the page never finished loading");
  } finally {
    browser.kill("SIGKILL");
  }
}
const cache = mkdtempSync(join(tmpdir(), "setup-browser-"));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

// Typed as the Node process environment (which the project's types extend with the Worker's vars).
const env = { ...process.env, XDG_CACHE_HOME: cache } as NodeJS.ProcessEnv;
delete env.CHROMIUM_PATH;

describe.runIf(process.platform === "linux" && ["x64", "arm64"].includes(process.arch))(
  "setup-browser with the packaged Chromium",
  () => {
    it("writes a launcher that runs the binary decompressed from @sparticuz/chromium into the cache, and it renders script-written text", async () => {
      const { stdout } = await run(process.execPath, ["scripts/setup-browser.mjs"], { env });
      const version = JSON.parse(readFileSync("node_modules/@sparticuz/chromium/package.json", "utf8"))
        .version as string;
      const binary = join(cache, "chromium", `${version}-${process.arch}`, "chromium");
      expect(stdout).toContain(`-> ${binary} under ${cache}`);
      expect(statSync(binary).mode & 0o111, "the decompressed binary is executable").not.toBe(0);

      const chromeDirs = readdirSync(join(cache, ".wrangler", "chrome"));
      expect(chromeDirs.length, "one launcher per installed miniflare's Chrome version").toBeGreaterThan(0);
      const launcher = join(cache, ".wrangler", "chrome", chromeDirs[0], "chrome-linux64", "chrome");
      const script = readFileSync(launcher, "utf8");
      expect(script).toMatch(
        new RegExp(`^#!/bin/sh\\nexec "${binary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}" `),
      );
      expect(script).toContain("--headless=shell --no-zygote --use-gl=angle --use-angle=swiftshader");

      // The launcher as miniflare runs it (a DevTools port): the page's text exists only once its script ran.
      const page = join(cache, "page.html");
      writeFileSync(
        page,
        `<!doctype html><body><p id="out">static</p><script>document.getElementById("out").textContent = "written by script " + (6 * 7);</script></body>`,
      );
      expect(
        await renderedText(launcher, `file://${page}`, "document.getElementById('out').textContent"),
      ).toBe("written by script 42");
    });

    it("reuses the decompressed binary on the next run instead of extracting it again", async () => {
      const version = JSON.parse(readFileSync("node_modules/@sparticuz/chromium/package.json", "utf8"))
        .version as string;
      const binary = join(cache, "chromium", `${version}-${process.arch}`, "chromium");
      const before = statSync(binary).mtimeMs;
      await run(process.execPath, ["scripts/setup-browser.mjs"], { env });
      expect(statSync(binary).mtimeMs).toBe(before);
    });

    it("takes CHROMIUM_PATH over the packaged binary when it is set", async () => {
      const own = join(cache, "my-chrome");
      writeFileSync(own, "#!/bin/sh\n", { mode: 0o755 });
      await run(process.execPath, ["scripts/setup-browser.mjs"], { env: { ...env, CHROMIUM_PATH: own } });
      const chromeDirs = readdirSync(join(cache, ".wrangler", "chrome"));
      const script = readFileSync(
        join(cache, ".wrangler", "chrome", chromeDirs[0], "chrome-linux64", "chrome"),
        "utf8",
      );
      expect(script.startsWith(`#!/bin/sh\nexec "${own}" --no-sandbox`)).toBe(true);
      expect(script).not.toContain("--no-zygote");
    });
  },
);
