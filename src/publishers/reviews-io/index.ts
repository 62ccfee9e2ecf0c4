/**
 * reviews.io (formerly reviews.co.uk): a store's company reviews from the public merchant reviews API (no
 * key), newest first, 100 a page from page 0, dates as printed ("2026-11-20 09:14:03", no zone). No lookup.
 */
import { jsonApiPublisher } from "../kit/json-api";

const PAGE = "https://www.reviews.io/company-reviews/store/big-store";

export const reviewsIo = jsonApiPublisher({
  name: "reviews-io",
  displayName: "REVIEWS.io",
  kind: "consumer",
  domains: ["reviews.io", "reviews.co.uk"],
  ratingScale: "1–5 stars, kept as is",
  summaryFields: ["review_count"],
  evidenceDate: "2026-09",
  queue: { note: "reviews.io: the public merchant reviews API (no key), paged by number." },
  // A store's company-reviews page, or its store id: a slug (`hp-cookers`) or a domain (`www.solean.com`).
  profile: {
    urls: [{ path: /^\/company-reviews\/store\/(?<store>[A-Za-z0-9][\w.-]{0,99})(?:\/|$)/ }],
    ids: [/^(?<store>[A-Za-z0-9][\w.-]{0,99})$/],
    page: "https://www.reviews.io/company-reviews/store/{store}",
    examples: [
      { input: PAGE, url: PAGE },
      { input: "https://www.reviews.co.uk/company-reviews/store/big-store/?page=2", url: PAGE },
      { input: "big-store", url: PAGE },
      { input: "www.solean.com", url: "https://www.reviews.io/company-reviews/store/www.solean.com" },
      { input: "https://reviews.io/front/pricing", error: "Enter the URL of a profile on reviews.io." },
      {
        input: "https://feefo.com/reviews/big-store",
        error: "Enter a URL on reviews.io or one of its subdomains.",
      },
      { input: "big store", error: "Enter a valid URL." },
    ],
  },
  api: {
    what: "REVIEWS.io reviews",
    // Newest first, asked for explicitly: no client shows the API's default order to be by date, and
    // incremental runs stop at the first known review on that assumption (a public client sends it).
    request: "https://api.reviews.io/merchant/reviews?store={key}&per_page=100&page={page}&sort=date_created",
    firstPage: 0,
    reviews: "reviews",
    total: "stats.total_reviews",
    pages: "total_pages",
    review: {
      id: "store_review_id",
      rating: "rating",
      text: "comments",
      date: "date_created",
      author: ["reviewer.first_name", "reviewer.last_name"],
    },
  },
});
