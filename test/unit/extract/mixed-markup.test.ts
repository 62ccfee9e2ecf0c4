import { describe, expect, it } from "vitest";
import { normalizeReviews } from "../../../src/core/reviews";
import { extractStructuredData } from "../../../src/scraping/extract";

const PAGE = "https://example.com/biz/blue-door";

describe("pages mixing syntaxes", () => {
  it("reads the same review once when it is in JSON-LD and microdata, combining their fields", async () => {
    const html = `<html lang="en"><head><script type="application/ld+json">${JSON.stringify({
      "@type": "LocalBusiness",
      name: "Blue Door",
      review: [
        {
          "@type": "Review",
          "@id": "#r-1",
          author: { name: "Ann" },
          reviewRating: { ratingValue: 5 },
          reviewBody: "Great  coffee.",
        },
      ],
    })}</script></head><body>
      <div itemscope itemtype="https://schema.org/Review">
        <span itemprop="author">Ann</span><meta itemprop="datePublished" content="2024-03-03">
        <span itemprop="reviewRating" itemscope itemtype="https://schema.org/Rating"><span itemprop="ratingValue">5</span></span>
        <p itemprop="reviewBody">Great coffee.</p>
      </div>
      <div itemscope itemtype="https://schema.org/Review">
        <span itemprop="author">Bo</span>
        <span itemprop="reviewRating" itemscope itemtype="https://schema.org/Rating"><span itemprop="ratingValue">4</span></span>
        <p itemprop="reviewBody">Only in the HTML.</p>
      </div></body></html>`;
    const { reviews } = await extractStructuredData(html, PAGE);
    expect(reviews).toEqual([
      { id: "#r-1", author_name: "Ann", rating: { value: "5" }, text: "Great  coffee.", date: "2024-03-03" },
      { author_name: "Bo", rating: { value: "4" }, text: "Only in the HTML." },
    ]);
  });

  it("drops an @id that several different reviews share, or that is the page's own URL", async () => {
    const review = (author: string, id: string) => ({
      "@type": "Review",
      "@id": id,
      author,
      reviewRating: 4,
      reviewBody: `From ${author}`,
    });
    const html = `<script type="application/ld+json">${JSON.stringify([review("A", "#review"), review("B", "#review"), review("C", PAGE), review("D", "#d")])}</script>`;
    const { reviews } = await extractStructuredData(html, PAGE);
    expect(reviews.map((r) => [r.author_name, r.id])).toEqual([
      ["A", undefined],
      ["B", undefined],
      ["C", undefined],
      ["D", "#d"],
    ]);
  });

  it("keeps microdata and RDFa on the same elements apart", async () => {
    const html = `<div vocab="https://schema.org/">
      <div itemscope itemtype="https://schema.org/Review" typeof="Review">
        <span itemprop="author" property="author">Cy</span>
        <span itemprop="reviewRating" itemscope itemtype="https://schema.org/Rating" property="reviewRating" typeof="Rating">
          <span itemprop="ratingValue" property="ratingValue">3</span>
        </span>
        <p itemprop="reviewBody" property="reviewBody">Both syntaxes <svg><path d="M0 0"/></svg>on one element.</p>
      </div>
      <div itemscope itemtype="https://schema.org/Review">
        <span itemprop="author">Di</span><span itemprop="reviewRating">5</span>
        <p itemprop="reviewBody">Unclosed at the end of the page
    `;
    const { reviews } = await extractStructuredData(html, PAGE);
    expect(reviews).toEqual([
      { author_name: "Cy", rating: { value: "3" }, text: "Both syntaxes on one element." },
      { author_name: "Di", rating: { value: "5" }, text: "Unclosed at the end of the page" },
    ]);
  });

  it("feeds normalization end to end", async () => {
    const html = `<html lang="en-US"><head><link rel="next" href="/biz/blue-door?page=2"></head><body>
      <div itemscope itemtype="https://schema.org/LocalBusiness"><span itemprop="name">Blue Door</span>
        <div itemprop="review" itemscope itemtype="https://schema.org/Review">
          <span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Jörg</span></span>
          <span itemprop="reviewRating" itemscope itemtype="https://schema.org/Rating"><span itemprop="ratingValue">8</span>/<span itemprop="bestRating">10</span></span>
          <span itemprop="datePublished">3 weeks ago</span>
          <div itemprop="reviewBody">(Translated by Google) Very good cake &amp; coffee, we will come again.<br><br>(Original)<br>Sehr guter Kuchen &amp; Kaffee, wir kommen gerne wieder.</div>
        </div>
        <div itemprop="review" itemscope itemtype="https://schema.org/Review"><span itemprop="author">Nobody rated</span><p itemprop="reviewBody">No rating here.</p></div>
      </div></body></html>`;
    const scrapedAt = Date.UTC(2025, 5, 15, 10, 30);
    const page = await extractStructuredData(html, PAGE);
    expect(page.nextUrl).toBe("https://example.com/biz/blue-door?page=2");
    const reviews = normalizeReviews(page.reviews, {
      publisherKey: "example.com",
      pageUrl: PAGE,
      scrapedAt,
      pageLanguage: page.pageLanguage,
    });
    expect(reviews).toHaveLength(1);
    expect(reviews[0]).toMatchObject({
      author_name: "Jörg",
      author_id: null,
      rating: 4,
      text: "Sehr guter Kuchen & Kaffee, wir kommen gerne wieder.",
      url: PAGE,
      posted_at: scrapedAt - 21 * 86_400_000,
      language: "de",
      source_date: "3 weeks ago",
      scraped_at: scrapedAt,
    });
    expect(reviews[0].review_id).toMatch(/^gen_[0-9a-f]{32}$/);
  });
});
