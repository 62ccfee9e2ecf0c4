/**
 * tripadvisor.com on a real capture: 20 reviews of Tripadvisor's own review list
 * (`locations[0].reviewListPage.reviews` of a hotel page's data) as scrapfly-scrapers saved them in
 * 2023 (see ./captures/SOURCE.md). Expected values were read from the file by hand.
 */
import { describe, expect, it } from "vitest";
import raw from "./captures/hotels.json?raw";
import { parseReviewListResponse, toRawReview } from "../../../src/publishers/tripadvisor/reviews";

/** A review as the scraper projected it (`parse_reviews`): Tripadvisor's values under the scraper's own names. */
interface CapturedReview {
  id: number;
  date: string;
  rating: number;
  title: string;
  text: string;
  votes: number;
  url: string;
  language: string;
  platform: string;
  author_id: string;
  author_name: string;
  author_username: string;
}
const capture = JSON.parse(raw) as {
  url: string;
  info: { id: number; rating_count: number };
  reviews: CapturedReview[];
};
const ORIGIN = "https://www.tripadvisor.com";

/**
 * The review list answer around the captured reviews: each projection undone into the names the
 * scraper read them from (`publishedDate`, `helpfulVotes`, `route.url`, `publishPlatform`,
 * `userProfile.{id,displayName,username}`), in the older answer's envelope the module still reads
 * (`data.locations[0].reviewListPage`). `totalCount` is the hotel's own `reviewSummary.count`
 * (the capture's `info.rating_count`), the one count the capture keeps.
 */
function answer(reviews: CapturedReview[]) {
  const nodes = reviews.map((r) => ({
    id: r.id,
    publishedDate: r.date,
    rating: r.rating,
    title: r.title,
    text: r.text,
    helpfulVotes: r.votes,
    route: { url: r.url },
    language: r.language,
    publishPlatform: r.platform,
    userProfile: { id: r.author_id, displayName: r.author_name, username: r.author_username },
  }));
  return [
    {
      data: {
        locations: [
          {
            locationId: capture.info.id,
            reviewListPage: { totalCount: capture.info.rating_count, reviews: nodes },
          },
        ],
      },
    },
  ];
}

describe("tripadvisor on a real capture (scrapfly-scrapers results/hotels.json, 2023-05)", () => {
  const page = parseReviewListResponse(answer(capture.reviews));
  const reviews = page.reviews.map((r) => toRawReview(r, ORIGIN));

  it("reads every review and the hotel's count", () => {
    expect(capture.url).toBe(
      `${ORIGIN}/Hotel_Review-g190327-d264936-Reviews-1926_Hotel_Spa-Sliema_Island_of_Malta.html`,
    );
    expect(page.totalCount).toBe(992);
    expect(reviews).toHaveLength(20);
  });

  it("maps three reviews exactly, the review's own link included", () => {
    expect(reviews[0]).toEqual({
      id: "891301801",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Me and my partner had a great stay at this hotel.\n\n I'll list out some of the things we loved about it:\n\n- Attentive, friendly & helpful staff (they answered lots of questions for us and helped us rent a car)\n- The Spa\n- The Beach Club\n- Great Breakfast\n- Really comfy bed\n- Greeted with a glass of Prosecco \n\nIf there was one thing I'd say that could have been improved - it would be that the balcony is tiny, you cannot really fit two people out there at the same time. \n\nAlso, not so much regarding the hotel itself, but just something to be aware of regarding the location..... It is next to a VERY \"Commercial\" part of town (in other words there is a mcds and burger king just round the corner + surrounded by lots of high rise apartments), if you want to go somewhere that feels quaint or authentic then just bare in mind there may be better locations elsewhere on the island!\nHowever Sliema is a very good location in regards to being near everything and some of the other parts of town are very picturesque to be fair.  ",
      author_name: "willybakes",
      author_id: "DFCA461D9572E923DA20742B552470C9",
      url: `${ORIGIN}/ShowUserReviews-g190327-d264936-r891301801-1926_Hotel_Spa-Sliema_Island_of_Malta.html`,
      date: "2023-05-21",
      language: "en",
      // The reviewer's title and helpful votes as captured (issue 36).
      title: "Excellent Hotel ",
      likes: 0,
    });
    // The display name ("RD"), not the username ("RMPS01"), is the author.
    expect(reviews[5]).toEqual({
      id: "889607542",
      rating: { value: 2, best: 5, worst: 1 },
      text: expect.stringMatching(
        /^Pros - nice area, free glass of bubbly on arrival, .* sadly very underwhelming and disappointing\.$/s,
      ),
      author_name: "RD",
      author_id: "820942DC600FF94CAB2241B5BECB3EEB",
      url: `${ORIGIN}/ShowUserReviews-g190327-d264936-r889607542-1926_Hotel_Spa-Sliema_Island_of_Malta.html`,
      date: "2023-05-08",
      language: "en",
      // The reviewer's title and helpful votes as captured (issue 36).
      title: "So so stay - wouldn't come again",
      likes: 1,
    });
    expect(reviews[6]).toEqual({
      id: "889490570",
      rating: { value: 5, best: 5, worst: 1 },
      text: "What a great hotel & staff.\nWe had a junior suite with a great balcony & jacuzzi.\nBed was great size (king).\nClean and decent size bathroom.\nLocation-wise - perfect! A stone throw from everything but nice and quiet in the evenings.\nBreakfast included was buffet and again spot on! Catered for all.\nRestaurant (Margaux) I recommend the burger - quality \nHighly recommend!",
      author_name: "Darren N",
      author_id: "1AA2D62D85CB1C716511F86213B17D33",
      url: `${ORIGIN}/ShowUserReviews-g190327-d264936-r889490570-1926_Hotel_Spa-Sliema_Island_of_Malta.html`,
      date: "2023-05-08",
      language: "en",
      // The reviewer's title and helpful votes as captured (issue 36).
      title: "Highly recommend - great hotel , staff and location!",
      likes: 1,
    });
  });
});
