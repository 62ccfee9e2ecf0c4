/** PUBLISHER_ORIGINS: which origin a publisher host is sent to. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { mappedOrigin } from "../../../src/scraping/target";

describe("mappedOrigin", () => {
  it("takes the most specific key, whatever the order: play.google.com beside google.com", () => {
    const origins = {
      "google.com": "http://127.0.0.1:1001",
      "play.google.com": "http://127.0.0.1:1002",
      "apple.com": "http://127.0.0.1:1003",
    };
    const mapped = { ...env, PUBLISHER_ORIGINS: JSON.stringify(origins) } as Env;
    expect(mappedOrigin(mapped, "play.google.com")).toBe("http://127.0.0.1:1002");
    expect(mappedOrigin(mapped, "www.google.com")).toBe("http://127.0.0.1:1001");
    expect(mappedOrigin(mapped, "itunes.apple.com")).toBe("http://127.0.0.1:1003");
    expect(mappedOrigin(mapped, "example.com")).toBeNull();
  });
});
