import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { goJsonStringArray } from "../../../src/core/reviews/go-json";

// Any UTF-16 code unit, lone surrogates included, weighted towards the characters Go treats specially.
const special = fc.constantFrom(
  "<",
  ">",
  "&",
  '"',
  "\\",
  "\n",
  "\r",
  "\t",
  "\b",
  "\f",
  "\u0000",
  "\u001f",
  "\u2028",
  "\u2029",
  "\u007f",
  "é",
  "😀",
);
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
const text = fc.string({
  unit: fc.oneof(special, codeUnit, fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 })),
});
const STRING_LITERAL = /"(?:[^"\\]|\\.)*"/g;
const GO_ESCAPE = /\\(?:["\\bfnrt]|u00[01][0-9a-f]|u003c|u003e|u0026|u202[89])/g;

describe("Go-style JSON of a string array", () => {
  it("parses back to the same strings", () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 4 }), (values) => {
        expect(JSON.parse(goJsonStringArray(values))).toEqual(values);
      }),
    );
  });

  it("contains no raw < > & U+2028 U+2029 or control characters", () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 4 }), (values) => {
        // eslint-disable-next-line no-control-regex -- raw control characters must never appear in the output
        expect(goJsonStringArray(values)).not.toMatch(/[<>&\u2028\u2029\u0000-\u001f]/);
      }),
    );
  });

  it("uses only the escapes Go writes, so other characters stay raw", () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 4 }), (values) => {
        const json = goJsonStringArray(values);
        const backslashes = json.split("\\").length - 1;
        const escapes = json.match(GO_ESCAPE) ?? [];
        // Every backslash starts one of Go's escapes (an escaped backslash accounts for two).
        expect(escapes.reduce((n, e) => n + (e === "\\\\" ? 2 : 1), 0)).toBe(backslashes);
      }),
    );
  });

  it("has nothing but brackets and commas between the strings", () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 4 }), (values) => {
        const skeleton = goJsonStringArray(values).replace(STRING_LITERAL, "S");
        expect(skeleton).toBe(`[${values.map(() => "S").join(",")}]`);
      }),
    );
  });
});
