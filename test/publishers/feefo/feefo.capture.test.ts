/**
 * feefo.com on the publisher's own documented answer: Feefo's "Reviews API Response" example (see
 * ./captures/SOURCE.md; no licensed capture of a live answer exists). Expected values were read
 * from the file by hand.
 */
import { describe, expect, it } from "vitest";
import raw from "./captures/documented-example.json?raw";
import { feefo } from "../../../src/publishers/feefo";
import { parseContext } from "../walk-support";

const PAGE = "https://www.feefo.com/en-GB/reviews/example-retail-merchant";

describe("feefo on Feefo's documented example answer (feefo.readme.io / portal.feefo.com, read 2026-11-25)", () => {
  const page = feefo.api.parse(
    JSON.parse(raw),
    parseContext("example-retail-merchant", PAGE, { page: 1, token: null }),
  );

  it("reads the stated total and the next of the stated pages", () => {
    expect(page.publisherTotal).toBe(3878);
    expect(page.next).toEqual({ page: 2, token: null });
  });

  it("maps the documented review exactly: title and review as text, created_at in epoch ms as an instant, the review's own URL", () => {
    expect(page.reviews).toEqual([
      {
        id: "5733aab0498edc149d51xxxx",
        author_name: "Emily",
        rating: { value: 5, best: 5, worst: 1 },
        text: "Fab as usual\n\nSpeedy deliver, easy to use website.",
        url: "http://www.feefo.com/en_GB/reviews/example-retail-merchant/572f69dd498ee99ed9348e49/customer-review-fab-as-usual",
        date: "2016-05-11T21:57:03.439Z",
      },
    ]);
  });
});
