/** Trustpilot's page data reader on hostile pages (issue 23). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasNextData } from "../../../src/publishers/trustpilot/next-data";
import { parseReviewPage } from "../../../src/publishers/trustpilot/reviews";
import { deepJson, hostilePage, hostilePages, repeatTo, withinBudget } from "../hostile-inputs";

const NEXT = (json: string) =>
  `<html><body><script id="__NEXT_DATA__" type="application/json">${json}</script></body></html>`;
const TP_MARKUP = [
  '<script id="__NEXT_DATA__" type="application/json">',
  "</script>",
  '{"props":{"pageProps":{"reviews":[',
  "<script>",
  '"__N_REDIRECT":"/users/connect"',
];

describe("trustpilot pages under hostile input", () => {
  it.each(Object.entries(hostilePages(TP_MARKUP)))(
    "%s: a result or publisher_error within the work budget",
    async (_, html) => {
      await withinBudget((budget) => parseReviewPage(html, budget));
    },
  );

  it.each([
    ["page data nested 100,000 deep", NEXT(deepJson(100_000))],
    ["page data nested 100,000 arrays deep", NEXT(deepJson(100_000, "[", "]"))],
    [
      "__proto__ keys in the page data",
      NEXT('{"props":{"pageProps":{"__proto__":{"reviews":[]},"reviews":[{"__proto__":{"rating":5}}]}}}'),
    ],
    [
      "a repeated page-data script",
      repeatTo(`<script id="__NEXT_DATA__" type="application/json">{"props":1}</script>`),
    ],
  ])("%s: a result or publisher_error within the work budget", async (_, html) => {
    await withinBudget((budget) => parseReviewPage(html, budget));
  });

  it("random pages of Trustpilot's markup: a result or publisher_error within the work budget", async () => {
    await fc.assert(
      fc.asyncProperty(hostilePage(TP_MARKUP), async (html) => {
        await withinBudget((budget) => parseReviewPage(html, budget));
      }),
      { numRuns: 40 },
    );
  });

  it("any JSON as the page data: a result or publisher_error", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        await withinBudget((budget) =>
          parseReviewPage(NEXT(JSON.stringify({ props: { pageProps: value } })), budget),
        );
      }),
      { numRuns: 150 },
    );
  });

  it("finds the page data by its script tag without a regex over the page, even among 2 MB of unclosed openings", () => {
    expect(hasNextData(repeatTo('<script id="__NEXT_DATA__" '))).toBe(true);
    expect(
      hasNextData(repeatTo("<script ") + `<script id="__NEXT_DATA__" type="application/json">{}</script>`),
    ).toBe(true);
    expect(hasNextData('<html><script id="__NEXT_DATA__" type="application/json">{}</script>')).toBe(true);
    expect(hasNextData("<p>__NEXT_DATA__ is mentioned in the text</p>")).toBe(false);
  });
});
