import { describe, expect, it } from "vitest";
import {
  parseGraphqlAnswer,
  parseReviewsTab,
  recommendationRating,
  reviewFromNode,
} from "../../../src/publishers/facebook/parse";
import { DTSG, LSD, PAGE_ID, PAGES, REVIEWS, cursorFor, graphqlAnswer, storyNode } from "./data";
import fixture from "./site";
import { scrapeError } from "../support";

const AUTHED = { cookie: "c_user=1; xs=abc", count: 1, headers: {}, host: "www.facebook.com" };
const get = (path: string) =>
  fixture.site({ ...AUTHED, url: new URL(`https://www.facebook.com${path}`), method: "GET", body: "" });

describe("facebook parsers", () => {
  it("reads the reviews tab: page id, tokens, the first page's reviews and page_info", async () => {
    const tab = await parseReviewsTab(get("/bluedoorcafe/reviews").body);
    expect(tab).toMatchObject({ pageId: PAGE_ID, fbDtsg: DTSG, lsd: LSD });
    expect(tab.feed.sawFeed).toBe(true);
    expect(tab.feed.nodes.map((n) => n.post_id)).toEqual(PAGES[0].map((r) => r.postId));
    expect(tab.feed.pageInfo).toEqual({ hasNextPage: true, endCursor: cursorFor(1) });
  });

  it("reads a streamed GraphQL answer: first edge inline, the rest streamed, page_info last", () => {
    const chunk = parseGraphqlAnswer(graphqlAnswer(PAGES[2], 3, 3, "bluedoorcafe"));
    expect(chunk.nodes.map((n) => n.post_id)).toEqual(PAGES[2].map((r) => r.postId));
    expect(chunk.pageInfo).toEqual({ hasNextPage: false, endCursor: null });
    expect(parseGraphqlAnswer(graphqlAnswer(PAGES[1], 2, 3, "x")).pageInfo).toEqual({
      hasNextPage: true,
      endCursor: cursorFor(2),
    });
  });

  it("maps a review: native id, author, recommends → 5, date from epoch seconds, text, url, the page's reply", () => {
    expect(reviewFromNode(storyNode(REVIEWS[0], "bluedoorcafe"), PAGE_ID)).toEqual({
      id: "1228004001",
      author_name: "Dana Kim",
      author_id: "100000000000001",
      author_url: "https://www.facebook.com/profile.php?id=100000000000001",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Best flat white in town.\nFriendly staff too.",
      url: "https://www.facebook.com/100000000000001/posts/1228004001",
      date: "2024-06-30T00:00:00.000Z",
      reply_text: "Thank you Dana, see you soon!",
      reply_date: "2024-07-01T00:00:00.000Z",
    });
  });

  it("maps doesn't recommend → 1, and a recommendation without text has no text", () => {
    expect(reviewFromNode(storyNode(REVIEWS[1], "x"), PAGE_ID).rating).toEqual({
      value: 1,
      best: 5,
      worst: 1,
    });
    const silent = reviewFromNode(storyNode(REVIEWS[2], "x"), PAGE_ID);
    expect(silent.text).toBeUndefined();
    expect(silent.reply_text).toBeUndefined();
    expect(recommendationRating("Jo Evans doesn’t recommend Blue Door Cafe.")).toBe(1);
    expect(recommendationRating("Jo Evans does not recommend Blue Door Cafe.")).toBe(1);
    expect(recommendationRating("Jo Evans recommends Blue Door Cafe.")).toBe(5);
    expect(recommendationRating("Jo Evans empfiehlt Blue Door Cafe.")).toBeNull();
  });

  it("reads the rating from recommendation_type whatever the interface language, the English title only as a fallback", () => {
    const german = storyNode(REVIEWS[1], "x");
    german.comet_sections.context_layout.story.comet_sections.title.story.title.text =
      "Chris Park empfiehlt Blue Door Cafe nicht.";
    expect(reviewFromNode(german, PAGE_ID).rating).toEqual({ value: 1, best: 5, worst: 1 });
    // Without recommendation_type (older answers) the English title still decides.
    const older = storyNode(REVIEWS[1], "x");
    delete (older.comet_sections.content.story as { recommendation_type?: string }).recommendation_type;
    expect(reviewFromNode(older, PAGE_ID).rating).toEqual({ value: 1, best: 5, worst: 1 });
    // Neither: publisher_error naming both.
    delete (german.comet_sections.content.story as { recommendation_type?: string }).recommendation_type;
    expect(scrapeError(() => reviewFromNode(german, PAGE_ID)).message).toBe(
      'Review 1228004002 has no recommendation_type and its title says neither recommends nor doesn\'t recommend: "Chris Park empfiehlt Blue Door Cafe nicht."',
    );
  });

  it("a comment by someone else is not the owner's reply", () => {
    const node = storyNode({ ...REVIEWS[0], comments: REVIEWS[0].comments?.slice(0, 1) }, "x");
    expect(reviewFromNode(node, PAGE_ID).reply_text).toBeUndefined();
  });

  it("names what is missing when a review's structure changed", () => {
    const node = storyNode(REVIEWS[0], "x");
    delete (
      node.comet_sections.context_layout.story.comet_sections as Partial<
        typeof node.comet_sections.context_layout.story.comet_sections
      >
    ).title;
    delete (node.comet_sections.content.story as { recommendation_type?: string }).recommendation_type;
    const err = scrapeError(() => reviewFromNode(node, PAGE_ID));
    expect(err.reason).toBe("publisher_error");
    expect(err.message).toMatch(/title/);
    const noTime = storyNode(REVIEWS[1], "x");
    noTime.comet_sections.context_layout.story.comet_sections.metadata = [];
    expect(scrapeError(() => reviewFromNode(noTime, PAGE_ID)).message).toMatch(/creation_time/);
  });

  it("turns Facebook's error answers into login_required, blocked and publisher_error", () => {
    expect(
      scrapeError(() =>
        parseGraphqlAnswer(
          'for (;;);{"__ar":1,"error":1357001,"errorSummary":"You must log in to continue"}',
        ),
      ).reason,
    ).toBe("login_required");
    expect(
      scrapeError(() =>
        parseGraphqlAnswer(
          'for (;;);{"__ar":1,"error":1390008,"errorSummary":"You can\'t use this feature at the moment"}',
        ),
      ).reason,
    ).toBe("blocked");
    const outdated = scrapeError(() =>
      parseGraphqlAnswer('{"errors":[{"message":"A server error field_exception occured."}],"data":null}'),
    );
    expect([outdated.reason, outdated.message]).toEqual([
      "publisher_error",
      "Reviews GraphQL answered errors: A server error field_exception occured.",
    ]);
    expect(scrapeError(() => parseGraphqlAnswer("<html>")).reason).toBe("publisher_error");
  });

  it("sees no feed on a tab whose data-sjs blocks changed", async () => {
    const tab = await parseReviewsTab(get("/changedcafe/reviews").body);
    expect(tab.pageId).toBe(PAGE_ID);
    expect(tab.feed).toEqual({ nodes: [], sawFeed: false, pageInfo: null });
  });
});
