/** thumbtack.com: the pro page's JSON-LD reviews, hostile pages, and end to end through the Worker and scrape-thumbtack. */
import { describe, expect, it, vi } from "vitest";
import { thumbtack } from "../../../src/publishers/thumbtack";
import { jsonLdItems, parseThumbtackPage, printedDate } from "../../../src/publishers/thumbtack/reviews";
import { WorkBudget } from "../../../src/publishers/kit/work-budget";
import { failureDetails } from "../../helpers/logs";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { hostilePages, withinBudget } from "../hostile-inputs";
import { failed, queuePerTest, scrapeError } from "../support";
import { expectHostileInputHandled, fixtureAnswer, parseContext } from "../walk-support";
import fixture, { CAPTURED_PATH, PAINTER_PATH } from "./site";

const PAINTER = `https://www.thumbtack.com${PAINTER_PATH}`;
const CAPTURED = `https://www.thumbtack.com${CAPTURED_PATH}`;
const ctx = () => parseContext("100000000001", PAINTER, { page: 1, token: null });
const items = (url: string) => jsonLdItems(fixtureAnswer(fixture, url).body, new WorkBudget("test"));

describe("thumbtack pro page", () => {
  it("reads every review of the nested arrays, skips one without a rating, and states no limited view when the page shows all", async () => {
    const page = parseThumbtackPage(await items(PAINTER), ctx());
    expect(page.publisherTotal).toBe(3);
    expect(page.next).toBeNull();
    expect(page.limitedView).toBeNull();
    expect(page.reviews).toEqual([
      {
        author_name: "Dana K.",
        rating: { value: 5, best: 5, worst: 1 },
        text: "Clean lines, finished a day early.",
        url: PAINTER,
        date: "2026-11-02",
      },
      {
        author_name: "Lee M.",
        rating: { value: 4, best: 5, worst: 1 },
        text: "Good work; left some paint on the floor.",
        url: PAINTER,
        date: "2026-10-15",
      },
    ]);
  });

  it("turns the printed date into a calendar date and keeps anything else as printed", () => {
    expect(printedDate("Aug 29, 2022")).toBe("2022-08-29");
    expect(printedDate("Sept 7, 2024")).toBe("2024-09-07");
    expect(printedDate("3 weeks ago")).toBe("3 weeks ago");
  });

  it("a page without a JSON-LD business node is publisher_error naming it", () => {
    expect(scrapeError(() => parseThumbtackPage([{ "@type": "BreadcrumbList" }], ctx())).message).toBe(
      "Thumbtack pro page: no JSON-LD business node with reviews",
    );
  });

  it("hostile JSON-LD ends as publisher_error or a read page, never a TypeError, within the work budget", () => {
    expectHostileInputHandled(parseThumbtackPage);
    expectHostileInputHandled(
      parseThumbtackPage,
      (review) => [{ name: "Pro", aggregateRating: {}, review }],
      {
        wrapsItems: true,
      },
    );
  });

  it("hostile pages (2 MB unclosed markup, deep nesting, the page's own JSON-LD repeated) stay within budget", async () => {
    const pages = hostilePages(['<script type="application/ld+json">', '{"review":[[', '{"@graph":[']);
    for (const html of Object.values(pages))
      await withinBudget(async (b) => parseThumbtackPage(await jsonLdItems(html, b), ctx()));
  });

  it("states its evidence date", () => {
    expect(thumbtack.evidenceDate).toMatch(/^\d{4}-\d{2}(-\d{2})?$/);
  });
});

describe("thumbtack end to end", () => {
  const queue = queuePerTest();

  it("reads the real captured page once on scrape-thumbtack and reports the rest as a limited view", async () => {
    const task = await submitScrape("thumbtack.com", `${CAPTURED}?utm_source=share#reviews`);
    const deliveries = await queue().drain();
    expect(deliveries.map((d) => [d.queue, d.outcome])).toEqual([["scrape-thumbtack", "ack"]]);
    expect(await fixtureRequests("thumbtack.com", "/nc/")).toEqual({ [CAPTURED_PATH]: 1 });
    const body = await retrieve(task, 1, 200);
    expect(body.business.profile_key).toBe(CAPTURED);
    expect(body.coverage).toMatchObject({
      publisher_total: 111,
      collected: 2,
      complete: false,
      stop_reason: expect.stringMatching(
        /^limited_view: Thumbtack's pro page carries 2 of the pro's 111 reviews/,
      ),
    });
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews.map((r) => [r.author_name, r.rating, r.posted_at])).toEqual([
      ["Robin W.", 1, Date.UTC(2022, 7, 29)],
      ["Cailyn B.", 5, Date.UTC(2021, 9, 22)],
    ]);
  });

  it("an unknown pro is profile_not_found; a page without JSON-LD is publisher_error", async () => {
    const gone = await submitScrape(
      "thumbtack.com",
      "https://www.thumbtack.com/ca/oakland/house-painting/gone/service/100000000404",
    );
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const changed = await submitScrape(
      "thumbtack.com",
      "https://www.thumbtack.com/ca/oakland/house-painting/redesign/service/100000000500",
    );
    await queue().drain();
    expect((await retrieve(gone)).response_message).toEqual(failed("profile_not_found"));
    expect((await retrieve(changed)).response_message).toEqual(failed("publisher_error"));
    expect(failureDetails(warn, changed.taskId)).toContain("Thumbtack pro page: no JSON-LD");
  });
});
