/**
 * ratemds.com: a doctor's patient ratings from the JSON the rating page itself answers with
 * `?page=N` (no key): Django-style pages, `results[]` with `comment`, `created` and
 * `average` (the mean of the staff, punctuality, helpfulness and knowledge marks, 1–5), and
 * `total_pages`. Which key holds a rating's id is not shown by any public client: `id` is assumed
 * (README "Assumed"). No lookup: the module takes a doctor's rating page URL.
 */
import { jsonApiPublisher } from "../kit/json-api";

const PAGE = "https://www.ratemds.com/doctor-ratings/424258/Dr-W-McAlpine-Savannah-GA.html";

export const ratemds = jsonApiPublisher({
  name: "ratemds",
  displayName: "RateMDs",
  kind: "health",
  domains: ["ratemds.com"],
  ratingScale:
    "1–5 stars: the average of staff, punctuality, helpfulness and knowledge, rounded half up to whole stars",
  evidenceDate: "2026-01",
  summaryFields: ["review_count"],
  queue: { note: "ratemds.com: a doctor's rating page as JSON (?json=true), paged by number." },
  // A doctor's rating page: /doctor-ratings/<id>/<slug>.html, with or without a trailing slash.
  profile: {
    urls: [
      {
        path: /^\/doctor-ratings\/(?<id>\d{1,12})\/(?<slug>[A-Za-z0-9][\w+%'.-]{0,150}?)\.html(?:\/|$)/,
      },
    ],
    page: "https://www.ratemds.com/doctor-ratings/{id}/{slug}.html",
    key: "{id}/{slug}",
    examples: [
      { input: PAGE, url: PAGE },
      { input: `${PAGE}/?page=3`, url: PAGE },
      {
        input: "https://ratemds.com/doctor-ratings/40769/Dr-Kathleen+C.-Kobashi-Seattle-WA.html",
        url: "https://www.ratemds.com/doctor-ratings/40769/Dr-Kathleen+C.-Kobashi-Seattle-WA.html",
      },
      {
        input: "https://www.ratemds.com/best-doctors/ga/savannah/",
        error: "Enter the URL of a profile on ratemds.com.",
      },
      {
        input: "https://www.healthgrades.com/physician/dr-w-mcalpine-xyz",
        error: "Enter a URL on ratemds.com or one of its subdomains.",
      },
      { input: "Dr W McAlpine", error: "Enter a valid URL." },
    ],
  },
  api: {
    what: "RateMDs ratings",
    // The key is `<id>/<slug>` from a bounded pattern, so it goes into the path as it is.
    request: (key, { page }) => `https://www.ratemds.com/doctor-ratings/${key}.html/?json=true&page=${page}`,
    reviews: "results",
    total: "count?",
    pages: "total_pages",
    review: { id: "id", rating: "average", text: "comment", date: "created" },
  },
});
