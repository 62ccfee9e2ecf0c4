/**
 * yelp.com on a real capture: 30 review nodes of Yelp's review feed for one business, as
 * scrapfly-scrapers saved them (see ./SOURCE.md). Expected values were read from the file by hand.
 */
import { describe, expect, it } from "vitest";
import raw from "./capture-reviews.json?raw";
import { parseFeed } from "../../../src/publishers/yelp/feed";

type CapturedNode = Record<string, unknown> & {
  createdAt: string;
  businessPhotos: (Record<string, unknown> & { photoUrl: string })[];
};
const capture = JSON.parse(raw) as CapturedNode[];
const PROFILE = "https://www.yelp.com/biz/vons-1000-spirits-seattle-4";

/**
 * The feed answer around the captured nodes, with the scraper's two flattenings undone as its
 * projection shows the node holds them: `createdAt` as {utcDateTime} and each photo's `photoUrl`
 * as {url} (yelp.py: `createdAt: createdAt.utcDateTime`, `photoUrl: photoUrl.url`).
 */
function answer(nodes: CapturedNode[], reviewCount: number) {
  const edges = nodes.map(({ createdAt, businessPhotos, ...node }) => ({
    node: {
      ...node,
      createdAt: { utcDateTime: createdAt },
      businessPhotos: businessPhotos.map((photo) => ({ ...photo, photoUrl: { url: photo.photoUrl } })),
    },
  }));
  return [
    {
      data: {
        business: {
          encid: "Lw7NmZ3j-WEye97ywEmkXQ",
          alias: "vons-1000-spirits-seattle-4",
          reviewCount,
          reviews: { edges },
        },
      },
    },
  ];
}

describe("yelp on a real capture (scrapfly-scrapers results/reviews.json, 2025-08)", () => {
  it("reads the reviewers' own photos of the business, by URL", () => {
    const page = parseFeed(answer(capture, 30), PROFILE, 0);
    const withPhotos = page.reviews.filter((r) => r.photos);
    expect(withPhotos).toHaveLength(capture.filter((node) => node.businessPhotos.length > 0).length);
    expect(withPhotos.length).toBeGreaterThan(0);
    const three = capture.findIndex((node) => node.businessPhotos[0]?.encid === "PSSwKkcwsdyk0R8wB9hnOw");
    expect(page.reviews[three].photos).toEqual([
      "https://s3-media0.fl.yelpcdn.com/bphoto/PSSwKkcwsdyk0R8wB9hnOw/348s.jpg",
      "https://s3-media0.fl.yelpcdn.com/bphoto/l5VOMovHmUvVUkCEYU7dsg/348s.jpg",
      "https://s3-media0.fl.yelpcdn.com/bphoto/NB42zQ0klXB74TL5Tk9DNA/348s.jpg",
    ]);
    // No avatar: a review without photos of its own has none.
    expect(page.reviews[0]).not.toHaveProperty("photos");
  });

  it("reads every node and three exactly", () => {
    const page = parseFeed(answer(capture, 30), PROFILE, 0);
    expect(page).toMatchObject({ count: 30, reviewCount: 30, hasNextPage: false });
    expect(page.reviews[0]).toEqual({
      id: "BEKMpvESK6PzbN4gbXzntQ",
      author_name: "Anne W.",
      author_id: "J9QPAPVVjrnR6DCUdQNk7A",
      author_url: "https://www.yelp.com/user_details?userid=J9QPAPVVjrnR6DCUdQNk7A",
      rating: { value: 5, best: 5, worst: 1 },
      text: "The food (Basil Almond Pesto Pasta) is amazing. Service was excellent (Skylar and bar staff)",
      language: "en",
      url: `${PROFILE}?hrid=BEKMpvESK6PzbN4gbXzntQ`,
      date: "2025-08-17T01:08:14.000Z",
      // The captured author.reviewCount and feedback.usefulCount (issue 36; never hashed).
      author_review_count: 5,
      likes: 0,
    });
    expect(page.reviews[1]).toMatchObject({
      id: "0mGInxEGZZCxwjaOnpqgXQ",
      author_name: "Jaquelyn C.",
      author_id: "9MQs_9Ur0_ZF3kWuOKNf-g",
      rating: { value: 5, best: 5, worst: 1 },
      text: "I want to give this place 100* everything from food to drinks to service to ambience everything was amazing.",
      date: "2025-08-16T19:05:24.000Z",
    });
    expect(page.reviews[2]).toMatchObject({
      id: "RvxyElsbBcNSn-TMzznfjA",
      author_name: "Xinyi T.",
      rating: { value: 1, best: 5, worst: 1 },
      date: "2025-08-14T04:55:46.000Z",
    });
    expect(page.reviews[2].text).toMatch(
      /^From the moment we arrived, the host seemed visibly irritated .* The host needs to take 101 on hosting$/s,
    );
  });

  it("pages by offset while fewer than reviewCount are read, without pageInfo", () => {
    const first = parseFeed(answer(capture.slice(0, 10), 30), PROFILE, 0);
    expect(first).toMatchObject({ count: 10, hasNextPage: true });
    const last = parseFeed(answer(capture.slice(20, 30), 30), PROFILE, 20);
    expect(last).toMatchObject({ count: 10, hasNextPage: false });
  });
});
