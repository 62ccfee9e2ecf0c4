import { describe, expect, it } from "vitest";
import { cutToOptions, parseSince } from "../../../src/core/tasks/collection";
import { taskCoverage } from "../../../src/core/tasks/coverage";
import type { Review } from "../../../src/core/reviews/review";

describe("since as a client sends it", () => {
  it.each([
    ["2026-01-31", "2026-01-31T00:00:00.000Z"],
    ["2026-01-31T08:15:00Z", "2026-01-31T08:15:00.000Z"],
    ["2026-01-31T08:15Z", "2026-01-31T08:15:00.000Z"],
    ["2026-01-31T08:15:30.250+01:00", "2026-01-31T07:15:30.250Z"],
    ["2026-01-31T08:15:30-0530", "2026-01-31T13:45:30.000Z"],
    ["2026-01-31T08:15:30", "2026-01-31T08:15:30.000Z"], // no offset: UTC
    ["2024-02-29", "2024-02-29T00:00:00.000Z"],
  ])("%s is %s", (text, iso) => {
    expect(parseSince(text)).toBe(Date.parse(iso));
  });

  it.each([
    "yesterday",
    "2026-02-30",
    "2025-02-29",
    "2026-13-01",
    "2026-01-31T24:00:00Z",
    "2026-1-31",
    "31.01.2026",
    "2026-01-31T08:15:30+1",
    "",
    "2026-01-31T08:15:30.1234567890Z",
  ])("%j is no date", (text) => {
    expect(parseSince(text)).toBeNull();
  });
});

const review = (id: string, postedAt: string): Review => ({
  review_id: id,
  author_name: id,
  author_id: null,
  rating: 5,
  text: "",
  url: "https://example.com",
  posted_at: Date.parse(postedAt),
  review_hash: id,
  language: "und",
});

const page = [
  review("a", "2026-03-05"),
  review("b", "2026-03-03"),
  review("c", "2026-02-27"),
  review("d", "2026-02-20"),
];

describe("one page cut to the options", () => {
  it("without options keeps everything and never stops", () => {
    expect(cutToOptions({ options: {}, reviews: page, storedBefore: 0 })).toEqual({ kept: page, stop: null });
  });

  it("since in a newest-first walk keeps the newer reviews and stops at the first older one", () => {
    const cut = cutToOptions({
      options: { since: Date.parse("2026-03-01") },
      reviews: page,
      storedBefore: 0,
    });
    expect(cut.kept.map((r) => r.review_id)).toEqual(["a", "b"]);
    expect(cut.stop).toEqual({
      code: "since",
      detail: "the walk reached a review older than 2026-03-01T00:00:00.000Z",
    });
  });

  it("since in another order filters without stopping: a newer review may still follow", () => {
    const cut = cutToOptions({
      options: { since: Date.parse("2026-03-01"), sort: "highest" },
      reviews: page,
      storedBefore: 0,
    });
    expect(cut.kept.map((r) => r.review_id)).toEqual(["a", "b"]);
    expect(cut.stop).toBeNull();
  });

  it("since in a walk whose publisher has no newest-first order (Capterra) filters without stopping, even sorted newest", () => {
    const cut = cutToOptions({
      options: { since: Date.parse("2026-03-01") },
      reviews: page,
      storedBefore: 0,
      newestFirst: false,
    });
    expect(cut.kept.map((r) => r.review_id)).toEqual(["a", "b"]);
    expect(cut.stop).toBeNull();
  });

  it("max_reviews counts what earlier pages stored and stops where the cap is met, even at the page's end", () => {
    expect(cutToOptions({ options: { max_reviews: 5 }, reviews: page, storedBefore: 3 })).toEqual({
      kept: page.slice(0, 2),
      stop: { code: "max_reviews", detail: "the walk collected the 5 reviews asked for" },
    });
    expect(cutToOptions({ options: { max_reviews: 4 }, reviews: page, storedBefore: 0 }).stop?.code).toBe(
      "max_reviews",
    );
    expect(cutToOptions({ options: { max_reviews: 5 }, reviews: page, storedBefore: 0 }).stop).toBeNull();
  });

  it("with both, the one met first names the stop", () => {
    const since = Date.parse("2026-03-01");
    expect(
      cutToOptions({ options: { since, max_reviews: 1 }, reviews: page, storedBefore: 0 }).stop?.code,
    ).toBe("max_reviews");
    expect(
      cutToOptions({ options: { since, max_reviews: 3 }, reviews: page, storedBefore: 0 }).stop?.code,
    ).toBe("since");
  });
});

describe("coverage of a walk the client's options ended", () => {
  it("is complete and names the option; a failure's reason stays incomplete", () => {
    const walk = { publisherTotal: 40, limitedView: null, fullWalk: false, collected: 10 };
    expect(
      taskCoverage({ ...walk, stopReason: "max_reviews: the walk collected the 10 reviews asked for" }),
    ).toEqual({
      publisher_total: 40,
      collected: 10,
      complete: true,
      stop_reason: "max_reviews: the walk collected the 10 reviews asked for",
    });
    expect(
      taskCoverage({ ...walk, stopReason: "since: the walk reached a review older than x" }).complete,
    ).toBe(true);
    expect(taskCoverage({ ...walk, stopReason: "blocked: since: the wall" }).complete).toBe(false);
  });
});
