/**
 * feefo.com: a merchant's service reviews from Feefo's public Reviews API (no key; feefo.readme.io
 * "Reviews API Response"), all time, newest first (the default order is the latest change first),
 * 100 a page. A product-only review has no `service` part and is skipped; `created_at` is epoch ms or
 * an ISO timestamp. No lookup: the API finds no merchant by name or address.
 */
import { jsonApiPublisher } from "../kit/json-api";

const PAGE = "https://www.feefo.com/en-GB/reviews/acme-travel";

export const feefo = jsonApiPublisher({
  name: "feefo",
  displayName: "Feefo",
  kind: "consumer",
  domains: ["feefo.com"],
  ratingScale: "1–5 stars (service rating), kept as is",
  summaryFields: ["review_count"],
  evidenceDate: "2026-09-24",
  queue: { note: "feefo.com: the public Reviews API (no key), 100 reviews a page." },
  // A merchant's review page (under a locale or not), or its merchant identifier.
  profile: {
    urls: [{ path: /^\/(?:[a-z]{2}[-_][A-Za-z]{2}\/)?reviews\/(?<id>[A-Za-z0-9][\w-]{0,99})(?:\/|$)/ }],
    ids: [/^(?<id>[A-Za-z0-9][\w-]{0,99})$/],
    page: "https://www.feefo.com/en-GB/reviews/{id}",
    examples: [
      { input: PAGE, url: PAGE },
      { input: "https://www.feefo.com/en_GB/reviews/acme-travel/?displayFeedbackType=SERVICE", url: PAGE },
      { input: "https://www.feefo.com/reviews/acme-travel", url: PAGE },
      { input: "acme-travel", url: PAGE },
      {
        input: "https://feefo.com/en-GB/business/pricing",
        error: "Enter the URL of a profile on feefo.com.",
      },
      {
        input: "https://trustpilot.com/review/acme.com",
        error: "Enter a URL on feefo.com or one of its subdomains.",
      },
      { input: "acme travel", error: "Enter a valid URL." },
    ],
  },
  api: {
    what: "Feefo reviews",
    request:
      "https://api.feefo.com/api/10/reviews/service?merchant_identifier={key}" +
      "&since_period=ALL&sort=-created_date&page_size=100&page={page}",
    reviews: "reviews",
    total: "summary.meta.count",
    pages: "summary.meta.pages",
    review: {
      id: "service.id",
      rating: "service.rating.rating",
      text: ["service.title", "service.review"],
      date: "service.created_at",
      author: "customer.display_name",
      url: "url",
    },
  },
});
