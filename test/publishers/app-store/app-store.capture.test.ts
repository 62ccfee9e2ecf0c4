/**
 * apps.apple.com on a real capture: one page of the App Store's customer-reviews feed (50 entries,
 * US storefront, the Google app) as fabiouu/appvox saved it (see ./captures/SOURCE.md). Expected
 * values were read from the file by hand.
 */
import { describe, expect, it } from "vitest";
import raw from "./captures/itunes_rss_reviews.json?raw";
import { parseFeedPage } from "../../../src/publishers/app-store/feed";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { queuePerTest } from "../support";
import { parseContext } from "../walk-support";
import { CAPTURED_APP } from "./site";

const KEY = `us:${CAPTURED_APP}`;
const PAGE = `https://apps.apple.com/us/app/id${CAPTURED_APP}`;

describe("app-store on a real capture (fabiouu/appvox itunes_rss_reviews.json, 2022-06)", () => {
  it("reads all 50 entries, three of them exactly, and the next page up to the feed's last link", () => {
    const page = parseFeedPage(JSON.parse(raw), parseContext(KEY, PAGE, { page: 1, token: null }));
    expect(page.reviews).toHaveLength(50);
    expect(page.next).toEqual({ page: 2, token: null });
    expect(page.limitedView).toBeNull();
    expect(page.reviews[0]).toEqual({
      id: "8044879566",
      author_name: "Lantana, FL",
      author_url: "https://itunes.apple.com/us/reviews/id524855897",
      rating: { value: 4, best: 5, worst: 1 },
      text: "Usually interesting reading but\n\nA huge bug is that when I click on that I’m not interested in a topic, I get a pop up message that Google gets it and won’t show me any more articles about that topic. But I keep seeing articles!!!! Sometimes I even see more of them. Two current examples are Princess Charlene of Monaco and Situation Puzzles. I clicked on a few of each which was enough so I clicked on that I wasn’t interested. The articles kept showing up, sometimes multiple articles every time I opened Google. Just now I opened the app and, out of 37 articles, 5 were about Charlene!! I keep saying I’m not interested but I keep seeing these articles. Enough already!!!  Another annoying bug is that, when Google is refreshing the articles, if you’re reading one, it freezes and you have to exit Google, reopen it and go to Tabs to find and continue reading the article.",
      url: PAGE,
      date: "2021-11-20T10:25:34-07:00",
      title: "Usually interesting reading but",
    });
    expect(page.reviews[2]).toEqual({
      id: "8174836010",
      author_name: "Jim Wesley",
      author_url: "https://itunes.apple.com/us/reviews/id281768190",
      rating: { value: 2, best: 5, worst: 1 },
      text: "Hum search is worthless\n\nI’m trying to identify a tune from a music box we have. So I get that the music quality is low fi, but this app is worthless for that. Not only does it fail to identify the tune, it never even gave a guess or acknowledged that it couldn’t find it or suggested other things to try - its dots bounced along with the sounds (so I know the audio was active) but then would just quit listening and return to home with no feedback. We then gave several tests using humming, whistling, and singing along simple Christmas tunes to see if we could get it to work. I’m no virtuoso but, from the examples shown in all the Google ads, I think it should have given me something in all the tests we tried. Only once did it give me 3 very wrong guesses for a Jingle Bells whistle rendition. All other tests only resulted in no feedback at all. If you make any sounds it interprets as words (“la la la” or “blah blah blah”), it goes straight to lyrics that are ridiculously unhelpful and ignore any tune analysis. Maybe I’m missing a prompt or a trick to get it to work but I’ve determined the ads must be straight-up fiction and false.",
      url: PAGE,
      date: "2021-12-27T10:00:10-07:00",
      title: "Hum search is worthless",
    });
    expect(page.reviews[49]).toEqual({
      id: "7200642338",
      author_name: "AdamantVision",
      author_url: "https://itunes.apple.com/us/reviews/id40285734",
      rating: { value: 1, best: 5, worst: 1 },
      text: "News feed is so bad it's surreal\n\nFor the longest time, I really enjoyed this app as a combination Google search bar and customized news feed. And for a while it was great! It reminded me of Google's discontinued iGoogle homepage. But something significant changed not long ago and the news feed is basically just random trash that I've never told Google I'm interested in. In fact, no matter how many times I tell the app I'm not interested in a topic or person or source or whatever, it just continues to show me more. It's laughable what it decides I'm going to want to see. \n\nDisappointing, because it used to be a regular piece of my news perusal. Now it's worthless and no amount of interaction seems to help the \"algorithm\" figure out what I wanna see. \n\nCome on, Google. You own so much data on me already that you should be able to figure me out. Especially with my help.",
      url: PAGE,
      date: "2021-04-08T20:41:23-07:00",
      title: "News feed is so bad it's surreal",
    });
  });
});

describe("app-store end to end on the real capture", () => {
  const queue = queuePerTest();

  it("serves the captured page through the fixture site and the Worker (first page only): 50 reviews as the API returns them", async () => {
    const task = await submitScrape(
      "apps.apple.com",
      `https://apps.apple.com/us/app/google/id${CAPTURED_APP}`,
      { first_page_only: true },
    );
    await queue().drain();
    // The fixture site's counts are shared with the other files' apps: only this app's pages count.
    const requested = await fixtureRequests("itunes.apple.com", "/us/rss/customerreviews/");
    expect(
      Object.fromEntries(Object.entries(requested).filter(([path]) => path.includes(`/id=${CAPTURED_APP}/`))),
    ).toEqual({
      [`/us/rss/customerreviews/page=1/id=${CAPTURED_APP}/sortby=mostrecent/json`]: 1,
    });
    const body = await retrieve(task, 1, 100);
    expect(body.task_status).toBe(200);
    const reviews = body.reviews as Record<string, unknown>[];
    expect(reviews).toHaveLength(50);
    expect(reviews.find((r) => r.review_id === "8174836010")).toMatchObject({
      author_name: "Jim Wesley",
      rating: 2,
      url: PAGE,
      posted_at: Date.parse("2021-12-27T17:00:10Z"),
    });
    expect(reviews.find((r) => r.review_id === "7200642338")).toMatchObject({
      author_name: "AdamantVision",
      rating: 1,
      posted_at: Date.parse("2021-04-09T03:41:23Z"),
    });
  });
});
