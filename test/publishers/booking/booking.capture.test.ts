/**
 * booking.com on a real capture: 30 review cards of Booking's ReviewList answers, as
 * scrapfly-scrapers saved them (see ./SOURCE.md). Expected values were read from the file by hand.
 */
import { describe, expect, it } from "vitest";
import raw from "./capture-hotel_review.json?raw";
import { parseReviewListResponse, toRawReview } from "../../../src/publishers/booking/reviews";

const capture = JSON.parse(raw) as unknown[];

describe("booking on a real capture (scrapfly-scrapers results/hotel_review.json, 2025-12)", () => {
  const list = parseReviewListResponse({
    data: { reviewListFrontend: { reviewsCount: capture.length, reviewCard: capture } },
  });
  const reviews = list.cards.map(toRawReview);

  it("reads the guests' own photos at their largest size, beside the text", () => {
    const withPhotos = reviews.filter((r) => r.photos);
    expect(withPhotos).toHaveLength(2);
    expect(withPhotos[0].photos).toHaveLength(3);
    expect(withPhotos[0].photos![0]).toBe(
      "https://q-xx.bstatic.com/xdata/images/xphoto/max1280x900/634208906.jpg?k=75813c538d38fd74048d6064d9dc211a0c632603848b9f4804dc80fb83cd0711&o=",
    );
    for (const url of withPhotos.flatMap((r) => r.photos!)) expect(url).toMatch(/\/xphoto\/max1280x900\//);
  });

  it("reads every card and maps three exactly", () => {
    expect(list.reviewsCount).toBe(30);
    expect(reviews).toHaveLength(30);
    expect(reviews[0]).toEqual({
      id: "42e1dfde2a3bf242",
      rating: { value: 7, best: 10, worst: 1 },
      text: "Liked: Lovely quiet location. Short distance from tube station. Easy check-in. Average value for money.\n\nDisliked: Room very warm - unable to turn radiators down. Noisiest shower ever! Two twin beds pushed together was fine, but duvet didn't fit the new layout! Continental breakfast was not 'exquisite' as advertised.... Very basic. Small dining room which gets very busy.",
      date: "2025-12-14T21:46:52.000Z",
      author_name: "Robert",
      // Booking's own code for text it could not tag; passed through (the core decides what counts as a language).
      language: "xu",
      reply_text:
        "Dear Robert, Thank you for sharing your detailed feedback. We are glad you enjoyed the quiet location, proximity to the tube station, and smooth check-in. We apologize for the issues with the room temperature, noisy shower, and the twin bed arrangement. We also appreciate your comments on the breakfast and dining area and will review them to see where improvements can be made. Your feedback helps us provide a better experience for future guests. Thank you. Best Regards, Anuja",
      author_country: "gb",
      visit_date: "2025-12-13",
      // helpfulVotesCount; no title and no photos on this card.
      likes: 0,
    });
    // Only what the guest disliked; no partner reply.
    expect(reviews[1]).toEqual({
      id: "9ea9077eef53bd14",
      rating: { value: 7, best: 10, worst: 1 },
      text: "Disliked: There was a lot of noise coming from the room above and next to us at night.",
      date: "2025-12-10T16:00:03.000Z",
      author_name: "Leyla",
      language: "en",
      author_country: "dk",
      visit_date: "2025-11-29",
      likes: 0,
    });
    expect(reviews[2]).toMatchObject({
      id: "a52e18f319b4d29a",
      rating: { value: 8, best: 10, worst: 1 },
      text: "Liked: Great location and nice staff\n\nDisliked: The bedroom was a bit tight and sometimes too hot, even with the heating off. Other than that, would recommend anytime!",
      date: "2025-12-10T00:03:40.000Z",
      author_name: "Maria",
      author_country: "pt",
      visit_date: "2025-12-06",
    });
    expect(reviews.filter((r) => r.likes === 1).map((r) => r.id)).toHaveLength(2);
    expect(reviews.filter((r) => r.title).length).toBeGreaterThan(0);
    expect(reviews.find((r) => r.title)?.title).toBe(
      "Generally really good hotel, if you are there to explore the city",
    );
    expect(reviews[2].reply_text).toMatch(
      /^Dear Maria, Thank you for your kind review\..*\n\nBest Regards,\nJessica$/s,
    );
  });
});
