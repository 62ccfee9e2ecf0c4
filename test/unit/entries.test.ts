/**
 * Every Worker entry that wrangler starts with the service's bindings exports each Durable Object
 * class wrangler.toml names: the service (src/index.ts), the bench's (src/bench/entry.ts) and the
 * canary's (scripts/canary/worker.ts). A class missing from one of them stops `wrangler dev` from
 * starting that Worker (as the queue gate once did for the bench).
 */
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import wranglerToml from "../../wrangler.toml?raw";
import * as benchEntry from "../../src/bench/entry";
import * as serviceEntry from "../../src/index";
import * as canaryEntry from "../../scripts/canary/worker";

const config = parse(wranglerToml) as { durable_objects: { bindings: { class_name: string }[] } };
const classes = config.durable_objects.bindings.map((b) => b.class_name);

describe("Worker entries", () => {
  it.each([
    ["src/index.ts", serviceEntry],
    ["src/bench/entry.ts", benchEntry],
    ["scripts/canary/worker.ts", canaryEntry],
  ] as const)("%s exports every Durable Object class of wrangler.toml and a fetch handler", (_, entry) => {
    expect(classes.length).toBeGreaterThan(0);
    for (const name of classes)
      expect(typeof (entry as Record<string, unknown>)[name], name).toBe("function");
    expect(typeof (entry.default as { fetch?: unknown }).fetch).toBe("function");
  });
});
