/**
 * The kit's declared profile rules (src/publishers/kit/profile.ts) beyond what the modules' own
 * examples show: a declaration that would fail at submit (a template naming a group no pattern has,
 * a pattern with several groups and no key) is refused when the module loads, not with a 5xx.
 */
import { describe, expect, it } from "vitest";
import { declareProfile } from "../../src/publishers/kit/profile";

describe("declareProfile", () => {
  it("refuses a page template that names a group a pattern does not give", () => {
    expect(() =>
      declareProfile({
        urls: [{ path: /^\/shop\/(?<shop>[a-z]{1,20})$/ }],
        page: "https://www.example.com/shop/{slug}",
        examples: [],
      }),
    ).toThrow("Profile page template https://www.example.com/shop/{slug}: no group {slug}");
    expect(() =>
      declareProfile({
        urls: [{ path: /^\/shop\/(?<shop>[a-z]{1,20})$/ }],
        ids: [/^(?<id>\d{1,9})$/],
        page: "https://www.example.com/shop/{shop}",
        examples: [],
      }),
    ).toThrow("no group {shop}");
  });

  it("wants a key where a pattern has several groups, and takes the only group's value otherwise", () => {
    const twoGroups = { path: /^\/(?<cc>[a-z]{2})\/app\/(?<id>\d{1,9})$/ };
    expect(() =>
      declareProfile({ urls: [twoGroups], page: "https://x.example/{cc}/{id}", examples: [] }),
    ).toThrow("needs a key");
    const profile = declareProfile({
      urls: [twoGroups],
      page: "https://x.example/{cc}/{id}",
      key: "{cc}:{id}",
      examples: [],
    });
    expect(profile.keyOf(new URL("https://x.example/gb/app/42"))).toBe("gb:42");
    const single = declareProfile({
      urls: [{ path: /^\/p\/(?<id>\d{1,9})$/ }],
      page: "https://x.example/p/{id}",
      examples: [],
    });
    expect(single.keyOf(new URL("https://x.example/p/7"))).toBe("7");
    expect(single.keyOf(new URL("https://x.example/q/7"))).toBeNull();
  });

  it("matches query parameters whole, fills defaults, and builds {site} from the key submitted under", () => {
    const profile = declareProfile({
      urls: [{ path: /^\/hotel$/, query: { id: /^(?<id>\d{1,9})$/ } }],
      ids: [/^(?<id>\d{1,9})$/],
      defaults: { lang: "en" },
      page: "https://www.{site}/hotel?id={id}&lang={lang}",
      examples: [],
    });
    expect(profile.resolve("https://www.example.com/hotel?id=%2042%20&x=1", "example.com")).toEqual({
      url: "https://www.example.com/hotel?id=42&lang=en",
    });
    expect(profile.resolve("https://www.example.com/hotel?id=42x", "example.com")).toEqual({
      error: "Enter the URL of a profile on example.com.",
    });
    expect(profile.resolve("42", "example.org")).toEqual({
      url: "https://www.example.org/hotel?id=42&lang=en",
    });
  });
});
