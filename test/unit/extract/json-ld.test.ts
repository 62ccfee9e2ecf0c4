import { describe, expect, it } from "vitest";
import { extractStructuredData } from "../../../src/scraping/extract";

const PAGE = "https://example.com/biz/blue-door";
const page = (...blocks: string[]) =>
  `<!doctype html><html lang="en"><head><title>Blue Door</title>${blocks.map((b) => `<script type="application/ld+json">${b}</script>`).join("\n")}</head><body><h1>Blue Door</h1></body></html>`;

describe("JSON-LD reviews", () => {
  it("reads reviews nested in a LocalBusiness", async () => {
    const html = page(
      JSON.stringify({
        "@context": "https://schema.org",
        "@type": "Restaurant",
        name: "Blue Door Cafe",
        aggregateRating: {
          "@type": "AggregateRating",
          ratingValue: "4.5",
          reviewCount: "2",
          bestRating: "5",
        },
        review: [
          {
            "@type": "Review",
            "@id": "https://example.com/biz/blue-door#review-101",
            author: { "@type": "Person", name: "Ann Smith", url: "/users/ann" },
            datePublished: "2024-03-03",
            inLanguage: "en-US",
            reviewRating: { "@type": "Rating", ratingValue: 5, bestRating: 5, worstRating: 1 },
            reviewBody: "Best coffee in town.",
          },
          {
            "@type": "Review",
            author: { "@type": "Person", givenName: "Bo", familyName: "Lee" },
            datePublished: "2 weeks ago",
            reviewRating: { "@type": "Rating", ratingValue: "7", bestRating: "10" },
            description: "Good, a bit loud.",
            url: "https://example.com/reviews/102",
          },
        ],
      }),
    );
    const { reviews, pageLanguage, nextUrl } = await extractStructuredData(html, PAGE);
    expect(reviews).toEqual([
      {
        id: "https://example.com/biz/blue-door#review-101",
        author_name: "Ann Smith",
        author_url: "https://example.com/users/ann",
        rating: { value: "5", best: "5", worst: "1" },
        text: "Best coffee in town.",
        date: "2024-03-03",
        language: "en-US",
      },
      {
        author_name: "Bo Lee",
        rating: { value: "7", best: "10" },
        text: "Good, a bit loud.",
        url: "https://example.com/reviews/102",
        date: "2 weeks ago",
      },
    ]);
    expect(pageLanguage).toBe("en");
    expect(nextUrl).toBeNull();
  });

  it("reads an @graph with references by @id, prefixed and array types", async () => {
    const html = page(
      JSON.stringify({
        "@context": "https://schema.org",
        "@graph": [
          {
            "@type": "Organization",
            "@id": "#org",
            name: "Blue Door Cafe",
            review: [{ "@id": "#r1" }, { "@id": "#r2" }],
          },
          { "@type": "Person", "@id": "#p1", name: "Cara", identifier: "user-9" },
          {
            "@type": ["Review", "CreativeWork"],
            "@id": "#r1",
            author: { "@id": "#p1" },
            reviewRating: { "@id": "#rating1" },
            reviewBody: "Lovely staff.",
            itemReviewed: { "@id": "#org" },
          },
          { "@type": "Rating", "@id": "#rating1", ratingValue: 4 },
          {
            "@type": "schema:Review",
            "@id": "#r2",
            "schema:author": "Dan",
            "schema:reviewRating": 2,
            "schema:reviewBody": "Cold food.",
          },
        ],
      }),
    );
    const { reviews } = await extractStructuredData(html, PAGE);
    expect(reviews).toEqual([
      { id: "#r1", author_name: "Cara", author_id: "user-9", rating: { value: "4" }, text: "Lovely staff." },
      { id: "#r2", author_name: "Dan", rating: { value: "2" }, text: "Cold food." },
    ]);
  });

  it("reads standalone reviews with itemReviewed, and Product `reviews` arrays, across blocks", async () => {
    const html = page(
      JSON.stringify({
        "@context": "http://schema.org",
        "@type": "Review",
        itemReviewed: { "@type": "LocalBusiness", name: "Blue Door Cafe" },
        author: "Eve",
        reviewRating: { ratingValue: "3", bestRating: "5" },
        reviewBody: "Tom &amp; Jerry&#8217;s favourite<br/>Second line <b>bold</b>",
        identifier: { "@type": "PropertyValue", value: "rv-77" },
      }),
      JSON.stringify([
        {
          "@type": "Product",
          name: "Mug",
          reviews: [
            {
              "@type": "Review",
              author: { name: "Finn" },
              reviewRating: { ratingValue: 1 },
              reviewBody: "Broke.",
            },
          ],
        },
      ]),
    );
    const { reviews } = await extractStructuredData(html, PAGE);
    expect(reviews).toEqual([
      {
        id: "rv-77",
        author_name: "Eve",
        rating: { value: "3", best: "5" },
        text: "Tom & Jerry’s favourite\nSecond line bold",
      },
      { author_name: "Finn", rating: { value: "1" }, text: "Broke." },
    ]);
  });

  it("skips blocks that are not JSON and repairs raw line breaks inside strings", async () => {
    const html = page(
      "{ this is not json",
      `{"@type": "Review", "author": "Gus", "reviewRating": {"ratingValue": 4}, "reviewBody": "Line one
Line two"}`,
      `<!--{"@type": "Review", "author": "Hal", "reviewRating": 5, "reviewBody": "Wrapped"}-->`,
    );
    const html2 =
      html + `<script type="text/javascript">var x = {"@type": "Review", "author": "Not me"};</script>`;
    const { reviews } = await extractStructuredData(html2, PAGE);
    expect(reviews.map((r) => [r.author_name, r.text])).toEqual([
      ["Gus", "Line one\nLine two"],
      ["Hal", "Wrapped"],
    ]);
  });

  it("takes the owner's reply from a comment written by the business", async () => {
    const html = page(
      JSON.stringify({
        "@type": "Review",
        author: { "@type": "Person", name: "Ida" },
        reviewRating: { ratingValue: 2 },
        reviewBody: "Slow service.",
        comment: [
          { "@type": "Comment", author: { "@type": "Person", name: "Someone" }, text: "Agreed" },
          {
            "@type": "Comment",
            author: { "@type": "Organization", name: "Blue Door Cafe" },
            text: "Sorry, Ida, we have hired more staff.",
          },
        ],
      }),
    );
    const [review] = (await extractStructuredData(html, PAGE)).reviews;
    expect(review.reply_text).toBe("Sorry, Ida, we have hired more staff.");
  });

  it("reads a large block that reaches the parser in many chunks", async () => {
    const review = (i: number) => ({
      "@type": "Review",
      "@id": `#r${i}`,
      author: `Author ${i}`,
      reviewRating: (i % 5) + 1,
      reviewBody: `${i} ${"é€😀 ".repeat(100)}`,
    });
    const html = page(
      JSON.stringify({
        "@type": "LocalBusiness",
        name: "Big",
        review: Array.from({ length: 300 }, (_, i) => review(i)),
      }),
    );
    const { reviews } = await extractStructuredData(html, PAGE);
    expect(reviews).toHaveLength(300);
    reviews.forEach((r, i) =>
      expect(r).toEqual({
        id: `#r${i}`,
        author_name: `Author ${i}`,
        rating: { value: String((i % 5) + 1) },
        text: review(i).reviewBody,
      }),
    );
  });

  it("finds nothing on a page without structured data", async () => {
    const result = await extractStructuredData("<html><body><p>No reviews yet</p></body></html>", PAGE);
    expect(result).toEqual({ reviews: [], nextUrl: null, pageLanguage: null, reviewCount: null });
  });
});
