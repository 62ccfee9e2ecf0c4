/** healthgrades.com: profile_key rules, the comments API answer, and end to end through the Worker and scrape-healthgrades. */
import { describe, expect, it, vi } from "vitest";
import { healthgrades } from "../../../src/publishers/healthgrades";
import { pwidOf } from "../../../src/publishers/healthgrades/profile";
import {
  commentsRequest,
  parseHealthgradesPage,
  printedDate,
} from "../../../src/publishers/healthgrades/reviews";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureJson, parseContext } from "../walk-support";
import fixture, { JANE_COMMENTS } from "./site";

const PAGE = "https://www.healthgrades.com/physician/dr-jane-doe-x2y3z";
const answer = (pwid: string, page: number) => {
  const request = commentsRequest(pwid, { page, token: null }, PAGE);
  return fixtureJson(fixture, request.url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(request.options.form).toString(),
  });
};
const ctx = (page: number) => parseContext("X2Y3Z", PAGE, { page, token: null });

describe("healthgrades pwid", () => {
  it.each([
    ["https://www.healthgrades.com/physician/dr-jane-doe-x2y3z", "X2Y3Z"],
    ["https://www.healthgrades.com/physician/dr-samantha-prats-z5ppnnj580", "Z5PPNNJ580"],
    ["https://www.healthgrades.com/physician/dr-parth-bhavsar-xynq9m7", "XYNQ9M7"],
  ])("the pwid of %s is %s", (url, pwid) => {
    expect(pwidOf(new URL(url))).toBe(pwid);
  });
});

describe("healthgrades comments answer", () => {
  it("posts the form both public clients send: page, 10 a page, the upper-case pwid, sortOption 1, the profile as Referer", () => {
    expect(commentsRequest("X2Y3Z", { page: 2, token: null }, PAGE)).toEqual({
      url: "https://www.healthgrades.com/api4/providerprofile/comments",
      options: {
        method: "POST",
        form: { currentPage: "2", includeAllAnswers: "true", perPage: "10", pwid: "X2Y3Z", sortOption: "1" },
        headers: { Referer: PAGE },
      },
    });
  });

  it("reads a page: ids, ratings, trimmed text, printed dates as calendar dates, the profile as URL, the total, the next page", () => {
    const page = parseHealthgradesPage(answer("X2Y3Z", 1), ctx(1));
    expect(page.publisherTotal).toBe(23);
    expect(page.next).toEqual({ page: 2, token: null });
    expect(page.reviews).toHaveLength(10);
    expect(page.reviews[0]).toEqual({
      id: "c7f01000",
      rating: { value: 1, best: 5, worst: 1 },
      text: "Visit 0: kind staff, short wait.",
      url: PAGE,
      date: "2026-11-20",
    });
    expect(page.reviews[1]).toEqual({
      id: "c7f00999",
      rating: { value: 2, best: 5, worst: 1 },
      text: "Dr. Doe listened and explained every option.",
      url: PAGE,
      date: "2026-11-11",
    });
    // Page 2 holds comment 12, which has no id: skipped, the rest of the page kept.
    expect(parseHealthgradesPage(answer("X2Y3Z", 2), ctx(2)).reviews).toHaveLength(9);
    expect(parseHealthgradesPage(answer("X2Y3Z", 3), ctx(3)).next).toBeNull();
  });

  it("turns the printed date into a calendar date and keeps anything else as printed", () => {
    expect(printedDate("Jan 03, 2021")).toBe("2021-01-03");
    expect(printedDate("Sept 7, 2024")).toBe("2024-09-07");
    expect(printedDate("3 weeks ago")).toBe("3 weeks ago");
  });

  it("an answer without totalCommentCount, and an empty page before the last, are publisher_error", () => {
    expect(scrapeError(() => parseHealthgradesPage(answer("M0VED", 1), ctx(1))).message).toContain(
      "Healthgrades comments: unexpected answer at totalCommentCount",
    );
    expect(
      scrapeError(() => parseHealthgradesPage({ totalCommentCount: 30, results: [] }, ctx(1))).message,
    ).toBe("Healthgrades comments: page 1 is empty although the answer counts pages up to 3");
  });

  it("hostile answers end as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseHealthgradesPage);
    expectHostileInputHandled(parseHealthgradesPage, (results) => ({ totalCommentCount: 5, results }), {
      wrapsItems: true,
    });
  });

  it("states its evidence date", () => {
    expect(healthgrades.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("healthgrades end to end", () => {
  const queue = queuePerTest();

  it("walks the comments API newest first over three pages and returns each comment exactly", async () => {
    const task = await submitScrape(
      "healthgrades.com",
      "https://www.healthgrades.com/physician/dr-jane-doe-x2y3z?tab=reviews",
    );
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-healthgrades", "ack"]]);
    expect(await fixtureRequests("healthgrades.com", "/api4/providerprofile/comments")).toEqual({
      "/api4/providerprofile/comments": 3,
    });
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(PAGE);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => r.review_id)).toEqual(
      JANE_COMMENTS.filter((c) => c.commentId).map((c) => c.commentId),
    );
    expect(reviews[1]).toMatchObject({
      review_id: "c7f00999",
      rating: 2,
      text: "Dr. Doe listened and explained every option.",
      url: PAGE,
      posted_at: Date.UTC(2026, 10, 11),
    });
    expect(reviews[21]).toMatchObject({
      review_id: "c7f00978",
      rating: 3,
      posted_at: Date.UTC(2026, 10, 20) - 22 * 9 * 86_400_000,
    });
  });

  it("a provider with a 10-character pwid is walked by that pwid", async () => {
    const task = await submitScrape(
      "healthgrades.com",
      "https://www.healthgrades.com/physician/dr-samantha-prats-z5ppnnj580#reviews",
    );
    await queue().drain();
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(
      "https://www.healthgrades.com/physician/dr-samantha-prats-z5ppnnj580",
    );
    expect((body.reviews as Record<string, unknown>[]).map((r) => r.review_id)).toEqual(
      JANE_COMMENTS.slice(0, 4).map((c) => c.commentId),
    );
  });

  it("an unknown provider is profile_not_found; an HTML page is blocked; a changed answer is publisher_error", async () => {
    const gone = await submitScrape(
      "healthgrades.com",
      "https://www.healthgrades.com/physician/dr-gone-g0ne0",
    );
    const walled = await submitScrape(
      "healthgrades.com",
      "https://www.healthgrades.com/physician/dr-wall-b10ck",
    );
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const moved = await submitScrape(
      "healthgrades.com",
      "https://www.healthgrades.com/physician/dr-moved-m0ved",
    );
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(walled)).response_message).toEqual(failed("blocked"));
    expect((await retrieve(moved)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, moved.taskId)).toContain(
      "Healthgrades comments: unexpected answer at totalCommentCount",
    );
  });
});
