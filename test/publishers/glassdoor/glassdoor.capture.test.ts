/**
 * glassdoor.com on a real capture: 15 reviews of Glassdoor's employer-reviews JSON call (eBay), as
 * scrapfly-scrapers saved them (see ./SOURCE.md). Expected values were read from the file by hand.
 */
import { describe, expect, it } from "vitest";
import raw from "./capture-reviews.json?raw";
import { rawReview, type JsonObject } from "../../../src/publishers/glassdoor/apollo";
import { parseEmployerReviewsAnswer } from "../../../src/publishers/glassdoor/graph";

const capture = JSON.parse(raw) as JsonObject[];

describe("glassdoor on a real capture (scrapfly-scrapers results/reviews.json, 2026-01)", () => {
  it("maps every review of the capture, and three exactly", () => {
    const reviews = capture.map((review, index) => rawReview(review, index, "capture"));
    expect(reviews).toHaveLength(15);
    expect(reviews[0]).toEqual({
      id: "97772209",
      author_name: "MTS-2 Software Engineer",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Best place to work\n\nPros:\neBay offers a great work-life balance, with wonderful people to collaborate with. The leaders are knowledgeable, supportive, and truly understanding. They give you the space and encouragement to grow, both personally and professionally. It feels like a second home, and I genuinely love being part of the eBay family.\n\nCons:\nI haven\uFFFDt experienced any downsides here. It\uFFFDs a great place to work.\n\nAdvice to Management:\nIntroducing complimentary meals or refreshments could further enhance the workplace environment.",
      url: "https://www.glassdoor.com/Reviews/Employee-Review-eBay-RVW97772209.htm",
      date: "2025-06-02T16:45:56.643Z",
      language: "en",
      title: "Best place to work",
      // Glassdoor sends these as 5 or 5.0 alike.
      sub_ratings: {
        work_life_balance: 5,
        culture_and_values: 5,
        diversity_and_inclusion: 5,
        senior_leadership: 5,
        career_opportunities: 5,
        compensation_and_benefits: 5,
      },
    });
    expect(reviews[1]).toEqual({
      id: "102534137",
      author_name: "MTS1 Software Engineer",
      rating: { value: 4, best: 5, worst: 1 },
      text: "Pay\n\nPros:\nEveryone is pretty easygoing and helpful\n\nCons:\nLimited PTO and sick time.\n\nAdvice to Management:\nProvide unlimited PTO/sick time.",
      url: "https://www.glassdoor.com/Reviews/Employee-Review-eBay-RVW102534137.htm",
      date: "2026-01-28T12:25:53.547Z",
      language: "en",
      title: "Pay",
      sub_ratings: {
        work_life_balance: 4,
        culture_and_values: 4,
        diversity_and_inclusion: 5,
        senior_leadership: 4,
        career_opportunities: 4,
        compensation_and_benefits: 4,
      },
    });
    // A reviewer who rated no aspect: Glassdoor sends each as 0 (or 0.0), so there are none.
    expect(reviews[6]).toMatchObject({ id: "102098840", title: "Much worse than before" });
    expect(reviews[6]).not.toHaveProperty("sub_ratings");
    // A reviewer who gave no job title: Glassdoor's own label.
    expect(reviews[3]).toMatchObject({ id: "102344472", author_name: "Anonymous Employee" });
  });

  it("reads the capture through the JSON call's reader, paging by the page asked for", () => {
    const result = parseEmployerReviewsAnswer(
      { data: { employerReviews: { reviews: capture, filteredReviewsCount: 15 } } },
      1,
    );
    expect(result).toMatchObject({ currentPage: 1, numberOfPages: 2, allReviewsCount: null });
    expect(result.reviews[2]).toMatchObject({ reviewId: 102351056, summary: "My opinion", ratingOverall: 4 });
  });
});
