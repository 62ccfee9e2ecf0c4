import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { reviewHash } from "../../../src/core/reviews";

// The expected Go JSON below is written out by hand (what `json.Marshal([]string{...})` prints) and
// hashed with node:crypto, independently of the code under test.
const md5 = (goJson: string) => createHash("md5").update(goJson, "utf8").digest("hex");

describe("review_hash", () => {
  const vectors: Array<{ name: string; fields: Parameters<typeof reviewHash>[0]; goJson: string }> = [
    {
      name: "HTML-significant characters are escaped as \\u003c \\u003e \\u0026",
      fields: { text: "Great <b>food</b> & drinks", author_name: "Ann", review_id: "r1" },
      goJson: String.raw`["Great \u003cb\u003efood\u003c/b\u003e \u0026 drinks","Ann"]`,
    },
    {
      name: "accented letters stay raw UTF-8",
      fields: { text: "Café crème — très bon", author_name: "Zoë", review_id: "r2" },
      goJson: `["Café crème — très bon","Zoë"]`,
    },
    {
      name: "emoji and CJK stay raw UTF-8",
      fields: { text: "Loved it 😍🍕", author_name: "李雷", review_id: "r3" },
      goJson: `["Loved it 😍🍕","李雷"]`,
    },
    {
      name: "quotes and backslashes",
      fields: { text: 'He said "wow" \\ ok', author_name: "O'Brien", review_id: "r4" },
      goJson: String.raw`["He said \"wow\" \\ ok","O'Brien"]`,
    },
    {
      name: "newline, tab and carriage return use short escapes",
      fields: { text: "Line 1\nLine 2\tTabbed\rCR", author_name: "Bo", review_id: "r5" },
      goJson: String.raw`["Line 1\nLine 2\tTabbed\rCR","Bo"]`,
    },
    {
      name: "other control characters and U+2028/U+2029",
      fields: { text: "a\u0001b\bc\fd\u001fe\u2028f\u2029g\u007f", author_name: "Cy", review_id: "r6" },
      goJson: String.raw`["a\u0001b\bc\fd\u001fe\u2028f\u2029g` + "\u007f" + String.raw`","Cy"]`,
    },
    {
      name: "empty text",
      fields: { text: "", author_name: "Ann", review_id: "r7" },
      goJson: `["","Ann"]`,
    },
    {
      name: "empty author",
      fields: { text: "Nice place", author_name: "", review_id: "r8" },
      goJson: `["Nice place",""]`,
    },
    {
      name: "an owner reply joins the array",
      fields: { text: "Good", author_name: "Ann", reply_text: "Thanks <3", review_id: "r9" },
      goJson: String.raw`["Good","Ann","Thanks \u003c3"]`,
    },
    {
      name: "neither text nor author: the review id alone",
      fields: { text: "", author_name: "", review_id: "ChZDSUhNMG9nS0VJQ0FnSUQ" },
      goJson: `["ChZDSUhNMG9nS0VJQ0FnSUQ"]`,
    },
  ];

  for (const { name, fields, goJson } of vectors) {
    it(name, () => {
      expect(reviewHash(fields)).toBe(md5(goJson));
    });
  }

  it("is lower-case hex of 32 digits", () => {
    expect(reviewHash({ text: "x", author_name: "y", review_id: "z" })).toMatch(/^[0-9a-f]{32}$/);
  });

  it("an empty reply is no reply", () => {
    const withEmpty = reviewHash({ text: "Good", author_name: "Ann", reply_text: "", review_id: "r" });
    expect(withEmpty).toBe(md5(`["Good","Ann"]`));
  });
});
