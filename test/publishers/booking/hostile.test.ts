/**
 * Issue 23: hostile answers cannot drive the Booking parsers past linear work or into a TypeError.
 * The hotel page is read with HTMLRewriter and bounded slices; the review list with zod, which reads
 * only the fields it names (nothing deeper is walked), so no WorkBudget is involved: the properties
 * assert the outcome (a result, or publisher_error) on every input.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bookingAdapter, csrfToken, hotelIds } from "../../../src/publishers/booking/adapter";
import { parseReviewListResponse, toRawReview } from "../../../src/publishers/booking/reviews";
import {
  TWO_MB_OF_UNCLOSED_TAGS,
  asParsed,
  deeplyNested,
  hostileJson,
  prototypeIntact,
  resolvesOrFailsAs,
  returnsOrFailsAs,
  sharedFan,
} from "../hostile-inputs";

const page = (text: string) => ({
  url: new URL("https://www.booking.com/hotel/gb/x.html"),
  status: 200,
  headers: new Headers(),
  text,
  rendered: false,
});

describe("booking parsers on hostile answers", () => {
  it("2 MB of unclosed tags: no ids (publisher_error), no token, no WAF page, one pass", async () => {
    await expect(hotelIds(TWO_MB_OF_UNCLOSED_TAGS, "gb")).rejects.toMatchObject({
      reason: "publisher_error",
    });
    expect(csrfToken(TWO_MB_OF_UNCLOSED_TAGS)).toBeNull();
    expect(await bookingAdapter.inspect!(page(TWO_MB_OF_UNCLOSED_TAGS))).toBeNull();
    // The markers the bounded readers look for, repeated without values or closing quotes.
    const markers =
      "b_hotel_id: '".repeat(100_000) +
      "b_csrf_token: '".repeat(100_000) +
      "https://x.awswaf.com/".repeat(100_000);
    await expect(hotelIds(markers, "gb")).rejects.toMatchObject({ reason: "publisher_error" });
    expect(csrfToken(markers)).toBeNull();
    expect(await bookingAdapter.inspect!(page(markers))).toBeNull();
  });

  it("random hotel pages: ids or publisher_error, never a TypeError", async () => {
    const fragment = fc.constantFrom(
      "<input ",
      '<input name="hotel_id" value="',
      '<input name="dest_id" value="-1">',
      "b_hotel_id: '12'",
      "b_ufi: ",
      "b_csrf_token: '",
      "'",
      '"',
      ">",
      "<script>",
      "99999999999999999999",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fragment, fc.string({ maxLength: 5 })), { maxLength: 30 }),
        async (parts) => {
          const html = parts.join("");
          const outcome = await resolvesOrFailsAs(["publisher_error"], () => hotelIds(html, "gb"));
          expect(["returned", "publisher_error"]).toContain(outcome);
          csrfToken(html);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("random review list answers with deep nesting, shared fans and __proto__ keys: cards or publisher_error", () => {
    // Fans stay in-memory objects (JSON text of a depth-30 fan would itself be 2^30 long).
    const answers = fc.oneof(
      hostileJson([
        "data",
        "reviewListFrontend",
        "reviewsCount",
        "reviewCard",
        "reviewUrl",
        "reviewScore",
        "reviewedDate",
        "textDetails",
        "errors",
        "statusCode",
      ]).map(asParsed),
      fc
        .integer({ min: 1, max: 5_000 })
        .map((d) => ({ data: { reviewListFrontend: { reviewsCount: 1, reviewCard: [deeplyNested(d)] } } })),
      fc.integer({ min: 1, max: 30 }).map((d) => ({
        data: {
          reviewListFrontend: {
            reviewsCount: 1,
            reviewCard: [{ reviewUrl: "x", reviewedDate: 1, reviewScore: 9, extra: sharedFan(d) }],
          },
        },
      })),
    );
    fc.assert(
      fc.property(answers, (answer) => {
        returnsOrFailsAs(["publisher_error"], () => parseReviewListResponse(answer).cards.map(toRawReview));
        expect(prototypeIntact()).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
