/**
 * Fixture thumbtack.com: pro service pages `/<st>/<city>/<category>/<slug>/service/<servicePk>`
 * whose JSON-LD `@graph` holds one business node typed by trade, with `aggregateRating` and
 * `review` as an array of arrays of `Review` nodes (`datePublished` "Aug 29, 2022", `description`,
 * `author.name`, `reviewRating.ratingValue`), as the MIT-licensed capture in chrischall/thumbtack-mcp
 * shows it (./captures/SOURCE.md).
 *
 * Pros by servicePk: 394335517902585861 (the real capture, byte for byte: 2 of 111 reviews),
 * 100000000001 (an invented painter whose page shows all 3 of its reviews, one of them without a
 * rating object, and a second JSON-LD block for the breadcrumbs), 100000000404 (404),
 * 100000000500 (a page without JSON-LD, as a redesign would leave it).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import capture from "./captures/pro-plumber.html?raw";

export const CAPTURED_PATH =
  "/nc/charlotte/affordable-plumbing-services/mr-rooter-charlotte-nc/service/394335517902585861";
export const PAINTER_PATH = "/ca/oakland/house-painting/bay-area-painters/service/100000000001";

const review = (date: string, text: string, name: string, rating?: number) => ({
  "@type": "Review",
  datePublished: date,
  description: text,
  author: { "@type": "Person", name },
  ...(rating === undefined ? {} : { reviewRating: { "@type": "Rating", ratingValue: rating } }),
});

const painter = {
  "@context": "http://schema.org",
  "@graph": [
    {
      "@context": "http://schema.org",
      "@type": "HousePainter",
      name: "Bay Area Painters",
      aggregateRating: {
        "@type": "AggregateRating",
        ratingValue: 4.5,
        reviewCount: 3,
        bestRating: 5,
        worstRating: 0,
      },
      url: `https://www.thumbtack.com${PAINTER_PATH}`,
      review: [
        [review("Nov 2, 2026", "  Clean lines, finished a day early.  ", "Dana K.", 5)],
        [review("Oct 15, 2026", "Good work; left some paint on the floor.", "Lee M.", 4)],
        [review("Sep 1, 2026", "Review without stars.", "Sam P.")],
      ],
    },
  ],
};
const breadcrumbs = { "@context": "http://schema.org", "@type": "BreadcrumbList", itemListElement: [] };

const html = (body: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body,
});
const ldJson = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;

const fixture: PublisherFixture = {
  domains: ["thumbtack.com"],
  site: ({ url }) => {
    if (url.pathname === CAPTURED_PATH) return html(capture);
    if (url.pathname === PAINTER_PATH)
      return html(
        `<!doctype html><html><head>${ldJson(breadcrumbs)}${ldJson(painter)}</head><body></body></html>`,
      );
    if (url.pathname.endsWith("/service/100000000500"))
      return html("<!doctype html><html><head><title>Pro</title></head><body>Reviews</body></html>");
    return html("<!doctype html><html><title>Page not found</title></html>", 404);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: {
    profileUrl:
      "https://www.thumbtack.com/nc/charlotte/affordable-plumbing-services/mr-rooter-charlotte-nc/service/394335517902585861",
  },
};

export default fixture;
