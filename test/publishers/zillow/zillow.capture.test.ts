/**
 * zillow.com on a real capture: an agent profile page's `props.pageProps` as a public client saved
 * it in 2024-06 (see ./SOURCE.md), holding Zillow's own `reviewsData` ({reviews, filters}, the shape
 * the module reads from the reviews API). Expected values were read from the file by hand.
 */
import { describe, expect, it } from "vitest";
import raw from "./captures/capture-agent-profile.json?raw";
import { parseZillowPage } from "../../../src/publishers/zillow/reviews";
import { parseContext } from "../walk-support";

const capture = JSON.parse(raw) as {
  reviewsData: unknown;
  displayUser: { encodedZuid: string; screenName: string };
};
const PAGE = "https://www.zillow.com/profile/arrietarealtypr/";
const ZUID = capture.displayUser.encodedZuid;

describe("zillow on a real capture (ChrisMichaelPerezSantiago/zillow-api README, 2024-06)", () => {
  it("reads the review exactly, with its ISO createDate passed on as Zillow gives it", () => {
    const page = parseZillowPage(capture.reviewsData, parseContext(ZUID, PAGE, { page: 1, token: null }));
    expect(ZUID).toBe("X1-ZU10orcwon9whe1_aau4d");
    expect(page.publisherTotal).toBe(1);
    expect(page.next).toBeNull();
    expect(page.reviews).toEqual([
      {
        id: "8339742",
        author_name: "sama1018",
        author_id: "X1-ZU16qi292qhfv9l_3fm19",
        rating: { value: 5, best: 5, worst: 1 },
        text:
          "I recently had the pleasure of working with Carolyn when buying my apartment , and I couldn’t be happier with the experience. " +
          "From start to finish, she was professional, knowledgeable, and dedicated to ensuring that I found the perfect home.\n\n" +
          "From our first meeting, it was clear that Carolyn was not just interested in making a sale but in finding a property that truly met my needs and preferences.",
        // The captured subRatings (issue 36; never hashed), named in lower case with `_`.
        sub_ratings: {
          local_knowledge: 5,
          process_expertise: 5,
          responsiveness: 5,
          negotiation_skills: 5,
        },
        url: PAGE,
        date: "2024-06-12T09:15:00",
      },
    ]);
  });

  it("takes the reviewer's id, never the reviewee's (the agent's own id sits beside it)", () => {
    const page = parseZillowPage(capture.reviewsData, parseContext(ZUID, PAGE, { page: 1, token: null }));
    expect(page.reviews[0].author_id).not.toBe(ZUID);
  });
});
