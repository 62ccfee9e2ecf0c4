import { describe, expect, it } from "vitest";
import { extractStructuredData } from "../../../src/scraping/extract";

const PAGE = "https://reviews.example.org/place/42";

const html = `<!DOCTYPE html>
<html lang="de-AT">
<head><meta charset="utf-8"><title>Café Blau</title></head>
<body>
<div itemscope itemtype="https://schema.org/LocalBusiness">
  <h1 itemprop="name">Café Blau</h1>
  <div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">
    <span itemprop="ratingValue">4.0</span> / <span itemprop="reviewCount">2</span>
  </div>
  <ul class="reviews">
    <li itemprop="review" itemscope itemtype="https://schema.org/Review" itemid="https://reviews.example.org/r/1">
      <div itemprop="author" itemscope itemtype="https://schema.org/Person">
        <a itemprop="url" href="/u/anna"><span itemprop="name">Anna  K.</span></a>
      </div>
      <div itemprop="reviewRating" itemscope itemtype="https://schema.org/Rating">
        <meta itemprop="worstRating" content="1">
        <span itemprop="ratingValue" content="5">★★★★★</span> of <span itemprop="bestRating">5</span>
      </div>
      <meta itemprop="datePublished" content="2024-03-03">
      <meta itemprop="inLanguage" content="de">
      <div itemprop="reviewBody">
        <p>Sehr guter Kaffee &amp; Kuchen.
        <p>Gerne wieder!<br>Danke.
      </div>
      <link itemprop="url" href="/r/1">
    </li>
    <li itemprop="review" itemscope itemtype="http://schema.org/Review">
      <span itemprop="author">Bernd</span>
      <time itemprop="datePublished" datetime="2024-02-01T09:30:00Z">1. Februar</time>
      <div itemprop="reviewRating" itemscope itemtype="http://schema.org/Rating"><span itemprop="ratingValue">3</span></div>
      <div itemprop="itemReviewed" itemscope itemtype="http://schema.org/Organization"><span itemprop="name">Not the author</span></div>
      <p itemprop="description">Okay. <script>var tracking = "not review text";</script>Nichts besonderes.</p>
    </li>
  </ul>
</div>
<div itemscope itemtype="https://schema.org/Review">
  <span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Clara</span></span>
  <span itemprop="reviewRating" itemscope itemtype="https://schema.org/Rating"><meta itemprop="ratingValue" content="2"></span>
  <span itemprop="reviewBody">Top-level review, outside the business.</span>
</div>
</body></html>`;

describe("microdata reviews", () => {
  it("attributes every property to its own item, however nested", async () => {
    const { reviews, pageLanguage } = await extractStructuredData(html, PAGE);
    expect(reviews).toEqual([
      {
        id: "https://reviews.example.org/r/1",
        author_name: "Anna  K.",
        author_url: "https://reviews.example.org/u/anna",
        rating: { value: "5", best: "5", worst: "1" },
        text: "Sehr guter Kaffee & Kuchen.\n        \nGerne wieder!\nDanke.",
        url: "https://reviews.example.org/r/1",
        date: "2024-03-03",
        language: "de",
      },
      {
        author_name: "Bernd",
        rating: { value: "3" },
        text: "Okay. Nichts besonderes.",
        date: "2024-02-01T09:30:00Z",
      },
      {
        author_name: "Clara",
        rating: { value: "2" },
        text: "Top-level review, outside the business.",
      },
    ]);
    expect(pageLanguage).toBe("de-AT");
  });

  it("takes the visible text of a link given as author, and several property names at once", async () => {
    const { reviews } = await extractStructuredData(
      `<div itemscope itemtype="https://schema.org/Review">
         <a itemprop="author" href="/u/dora">Dora</a>
         <span itemprop="reviewRating" itemscope itemtype="https://schema.org/Rating"><span itemprop="ratingValue">4</span></span>
         <span itemprop="reviewBody description">Nice &lt;3</span>
       </div>`,
      PAGE,
    );
    expect(reviews).toEqual([{ author_name: "Dora", rating: { value: "4" }, text: "Nice <3" }]);
  });
});

describe("a long page", () => {
  it("reads every review whatever the parser's chunk boundaries", async () => {
    const body = "Lorem ipsum dolor sit amet &amp; consectetur. ".repeat(40);
    const items = Array.from(
      { length: 300 },
      (_, i) => `<article itemscope itemtype="https://schema.org/Review" itemid="#r${i}">
        <span itemprop="author" itemscope itemtype="https://schema.org/Person"><b itemprop="name">Author ${i}</b></span>
        <span itemprop="reviewRating" itemscope itemtype="https://schema.org/Rating"><span itemprop="ratingValue">${(i % 5) + 1}</span></span>
        <div itemprop="reviewBody">${i}: ${body}</div></article>`,
    );
    const { reviews } = await extractStructuredData(`<html><body>${items.join("\n")}</body></html>`, PAGE);
    expect(reviews).toHaveLength(300);
    const expectedText = (i: number) =>
      `${i}: ${"Lorem ipsum dolor sit amet & consectetur. ".repeat(40).trim()}`;
    reviews.forEach((review, i) => {
      expect(review).toEqual({
        id: `#r${i}`,
        author_name: `Author ${i}`,
        rating: { value: String((i % 5) + 1) },
        text: expectedText(i),
      });
    });
  });
});
