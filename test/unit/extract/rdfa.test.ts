import { describe, expect, it } from "vitest";
import { extractStructuredData } from "../../../src/scraping/extract";

const PAGE = "https://www.example.net/hotel/7";

describe("RDFa reviews", () => {
  it("reads typeof/property with vocab, nested Person and Rating", async () => {
    const html = `<html lang="fr"><body vocab="https://schema.org/">
      <div typeof="Hotel">
        <h1 property="name">Hôtel du Lac</h1>
        <div property="review" typeof="Review" resource="#rev-1">
          <div property="author" typeof="Person"><span property="name">Émile</span></div>
          <div property="reviewRating" typeof="Rating">
            <span property="ratingValue">9</span>/<span property="bestRating">10</span>
          </div>
          <span property="datePublished" content="2024-05-01">1 mai 2024</span>
          <p property="reviewBody">Vue magnifique &eacute;poustouflante.</p>
        </div>
        <div property="review" typeof="Review">
          <span property="author">Fanny</span>
          <span property="reviewRating" typeof="Rating"><meta property="ratingValue" content="4"></span>
          <time property="datePublished" datetime="2024-04-20">20 avril</time>
        </div>
      </div>
    </body></html>`;
    const { reviews, pageLanguage } = await extractStructuredData(html, PAGE);
    expect(reviews).toEqual([
      {
        id: "#rev-1",
        author_name: "Émile",
        rating: { value: "9", best: "10" },
        text: "Vue magnifique époustouflante.",
        date: "2024-05-01",
      },
      { author_name: "Fanny", rating: { value: "4" }, date: "2024-04-20" },
    ]);
    expect(pageLanguage).toBe("fr");
  });

  it("reads schema: prefixed terms and ignores other vocabularies", async () => {
    const html = `<div prefix="schema: https://schema.org/ og: http://ogp.me/ns#" typeof="schema:Review">
      <span property="schema:author og:title">Gil</span>
      <span property="og:description">Not the review body</span>
      <span property="schema:reviewRating" typeof="schema:Rating"><span property="schema:ratingValue">3</span></span>
      <span property="http://schema.org/reviewBody">Fine.</span>
    </div>`;
    const { reviews } = await extractStructuredData(html, PAGE);
    expect(reviews).toEqual([{ author_name: "Gil", rating: { value: "3" }, text: "Fine." }]);
  });
});
