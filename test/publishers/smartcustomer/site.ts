/**
 * Fixture smartcustomer.com (and sitejabber.com, which serves the same paths): a business's
 * server-rendered review pages, `/reviews/<domain>` then `?page=N`, 20 reviews a page, newest first.
 *
 * Two page forms, each following named evidence (no raw page is public; see README.md):
 * - JSON-LD: an `Organization` with `aggregateRating` {`ratingValue`, `reviewCount`} and `review` as
 *   schema.org `Review` nodes (`url` the permalink with a `#review-<id>` anchor, `headline`,
 *   `reviewBody`, `datePublished`, `author` {`name`, `url`}, `reviewRating.ratingValue`): the field
 *   names the 2026 Apify actors output (jovial_leopardfrog/sitejabber-reviews-scraper: headline,
 *   reviewBody, datePublished, the review id from the permalink anchor, aggregateRating).
 * - Markup: `div.review` cards with `h3.review__title`, `div.review__body`, filled stars
 *   `i.star--filled` in `div.review__rating`, `time.review__date[datetime]`,
 *   `span.review__author-name`, as lennarddaw/review-scraper
 *   `src/scrapers/review_platforms/sitejabber.py` @62d7d513 (2026-01-13) reads them.
 * The reviews are invented.
 *
 * Businesses: rover.com (45 reviews in JSON-LD: 20, 20, 5; one in Japanese, one without a rating),
 * blue-door.com (25 reviews in markup only: 20, 5), quiet.com (none), renamed.com (Reviews whose
 * rating moved to `rating`), redesign.com (neither JSON-LD nor cards), walled.com (Cloudflare's
 * challenge), anything else 404.
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export const PER_PAGE = 20;

export interface SmartCustomerFixtureReview {
  id: string;
  rating: number | null;
  headline: string;
  body: string;
  date: string;
  author: string;
}

const JAPANESE = "注文した商品はとても早く届きました。梱包も丁寧で、また利用したいと思います。";

function review(business: string, i: number): SmartCustomerFixtureReview {
  return {
    id: `${business === "rover.com" ? 81 : 92}${String(23_456 - i).padStart(6, "0")}`,
    rating: business === "rover.com" && i === 30 ? null : 5 - (i % 5),
    headline: i === 2 ? "丁寧な対応" : `Sitter ${i}`,
    body:
      i === 0
        ? "  Our walker came every day on time and sent photos.  "
        : i === 2
          ? JAPANESE
          : `Stay ${i} went well.`,
    date: new Date(Date.UTC(2026, 9, 31) - i * 86_400_000).toISOString().slice(0, 10),
    author: i === 1 ? "Priya S." : `Owner ${i}`,
  };
}

export const ROVER = Array.from({ length: 45 }, (_, i) => review("rover.com", i));
export const BLUE_DOOR = Array.from({ length: 25 }, (_, i) => review("blue-door.com", i));

const page = (status: number, body: string): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body,
});

const ldJson = (data: unknown) =>
  `<script type="application/ld+json">${JSON.stringify(data).replace(/</g, "\\u003c")}</script>`;

function jsonLdReview(business: string, r: SmartCustomerFixtureReview, renamed: boolean) {
  const rating = { "@type": "Rating", ratingValue: r.rating, bestRating: 5, worstRating: 1 };
  return {
    "@type": "Review",
    url: `https://www.smartcustomer.com/reviews/${business}#review-${r.id}`,
    headline: r.headline,
    reviewBody: r.body,
    datePublished: r.date,
    author: { "@type": "Person", name: r.author, url: `https://www.smartcustomer.com/users/${r.id}` },
    ...(r.rating === null ? {} : renamed ? { rating } : { reviewRating: rating }),
  };
}

function card(r: SmartCustomerFixtureReview): string {
  const stars = Array.from(
    { length: 5 },
    (_, s) => `<i class="star${s < (r.rating ?? 0) ? " star--filled" : ""}"></i>`,
  );
  return `<div class="review" id="review-${r.id}">
  <div class="review__rating">${stars.join("")}</div>
  <h3 class="review__title">${r.headline}</h3>
  <div class="review__body"><p>${r.body}</p></div>
  <span class="review__author-name">${r.author}</span>
  <time class="review__date" datetime="${r.date}T00:00:00Z">${r.date}</time>
</div>`;
}

function reviewPage(
  business: string,
  all: SmartCustomerFixtureReview[],
  n: number,
  form: "ld" | "markup" | "renamed",
) {
  const shown = all.slice((n - 1) * PER_PAGE, n * PER_PAGE);
  const organization = {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: business,
    url: `https://${business}`,
    aggregateRating: {
      "@type": "AggregateRating",
      ratingValue: "4.3",
      reviewCount: all.length,
      bestRating: 5,
    },
    ...(form === "markup" ? {} : { review: shown.map((r) => jsonLdReview(business, r, form === "renamed")) }),
  };
  const breadcrumbs = { "@context": "https://schema.org", "@type": "BreadcrumbList", itemListElement: [] };
  return page(
    200,
    `<!doctype html><html lang="en"><head><title>${business} Reviews | SmartCustomer</title>
${ldJson(breadcrumbs)}${ldJson(organization)}</head>
<body><h1>${business}</h1>${form === "markup" ? shown.map(card).join("\n") : ""}</body></html>`,
  );
}

const CHALLENGE =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="challenge-platform"></div></body></html>';

function reviews(business: string, url: URL): FixtureResponse {
  const n = Number(url.searchParams.get("page") ?? "1");
  if (!Number.isInteger(n) || n < 1) return page(404, "<h1>Not found</h1>");
  switch (business) {
    case "rover.com":
      return reviewPage(business, ROVER, n, "ld");
    case "blue-door.com":
      return reviewPage(business, BLUE_DOOR, n, "markup");
    case "quiet.com":
      return reviewPage(business, [], n, "ld");
    case "renamed.com":
      return reviewPage(business, ROVER.slice(0, 3), n, "renamed");
    case "redesign.com":
      return page(200, "<!doctype html><main><h1>redesign.com</h1><p>Reviews load here.</p></main>");
    case "walled.com":
      return page(200, CHALLENGE);
    default:
      return page(404, "<h1>We couldn't find that business</h1>");
  }
}

const fixture: PublisherFixture = {
  domains: ["smartcustomer.com", "sitejabber.com"],
  site: ({ url, method }) => {
    if (method !== "GET") return page(405, "");
    const match = /^\/reviews\/([a-z0-9.-]+)$/.exec(url.pathname);
    if (match) return reviews(match[1], url);
    return page(404, "<h1>Not found</h1>");
  },
};

export default fixture;
