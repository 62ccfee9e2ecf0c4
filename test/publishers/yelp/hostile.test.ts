/**
 * Issue 23: hostile answers cannot drive the Yelp parsers past linear work or into a TypeError. The
 * biz page is read with HTMLRewriter; the feed and search answers with zod, which reads only the
 * fields it names (nothing deeper is walked), so no WorkBudget is involved: the properties assert
 * the outcome on every input.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inspectYelpPage, readBizPage } from "../../../src/publishers/yelp/biz-page";
import { parseFeed } from "../../../src/publishers/yelp/feed";
import { searchResults } from "../../../src/publishers/yelp/lookup";
import {
  TWO_MB_OF_UNCLOSED_TAGS,
  asParsed,
  deeplyNested,
  hostileJson,
  prototypeIntact,
  returnsOrFailsAs,
  sharedFan,
} from "../hostile-inputs";

const PROFILE = "https://www.yelp.com/biz/blue-door-cafe-san-francisco";

describe("yelp parsers on hostile answers", () => {
  it("2 MB of unclosed tags: no business id, no wall, one pass", async () => {
    expect(await readBizPage(TWO_MB_OF_UNCLOSED_TAGS)).toEqual({ bizId: null, postalCode: null });
    const page = {
      url: new URL(PROFILE),
      status: 200,
      headers: new Headers(),
      text: TWO_MB_OF_UNCLOSED_TAGS,
      rendered: false,
    };
    expect(inspectYelpPage(page)).toBeNull();
  });

  it("search results with any businessUrl (malformed URLs included) are read or skipped, never a TypeError", () => {
    const url = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom(
        "http://[::1",
        "http://a b/",
        "//",
        "https://",
        "/biz/",
        "/biz/x/y",
        "javascript:1",
        "http://%",
      ),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            bizId: fc.string({ minLength: 1, maxLength: 4 }),
            businessUrl: url,
            alias: fc.constantFrom(undefined, "", "a-b"),
          }),
          {
            maxLength: 6,
          },
        ),
        (items) => {
          const answer = {
            searchPageProps: {
              mainContentComponentsListProps: items.map(({ bizId, businessUrl, alias }) => ({
                bizId,
                searchResultBusiness: {
                  name: "Blue Door Cafe",
                  businessUrl,
                  alias,
                  formattedAddress: "1 Market St",
                },
              })),
            },
          };
          returnsOrFailsAs(["publisher_error"], () => searchResults(answer));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("random feed and search answers with deep nesting, shared fans and __proto__ keys: a result or a ScrapeError", () => {
    // Fans stay in-memory objects (JSON text of a depth-30 fan would itself be 2^30 long).
    const answers = fc.oneof(
      hostileJson([
        "data",
        "business",
        "reviews",
        "edges",
        "node",
        "encid",
        "rating",
        "createdAt",
        "utcDateTime",
        "reviewCount",
        "pageInfo",
        "errors",
      ]).map((v) => [asParsed(v)]),
      fc
        .integer({ min: 1, max: 5_000 })
        .map((d) => [
          { data: { business: { reviewCount: 1, reviews: { edges: [{ node: deeplyNested(d) }] } } } },
        ]),
      fc
        .integer({ min: 1, max: 30 })
        .map((d) => [
          { data: { business: { reviewCount: 1, reviews: { edges: [], pageInfo: sharedFan(d) } } } },
        ]),
    );
    fc.assert(
      fc.property(answers, (answer) => {
        returnsOrFailsAs(["publisher_error", "profile_not_found"], () => parseFeed(answer, PROFILE, 0));
        returnsOrFailsAs(["publisher_error"], () => searchResults(answer[0]));
        expect(prototypeIntact()).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
