/**
 * bestbuy.com: a product's customer reviews from the JSON the product page's review section reads,
 * `GET /ugc/v2/reviews?page=&pageSize=20&sku=&sort=MOST_RECENT` (no key): `topics[]` with `id`,
 * `rating`, `title`, `text`, `author`, `submissionTime`, and `totalPages`. The site sits behind a
 * bot wall (the public client goes through an anti-bot proxy), so the queue is slow. No lookup.
 */
import { jsonApiPublisher } from "../kit/json-api";

const PAGE = "https://www.bestbuy.com/site/6565065.p?skuId=6565065";

export const bestbuy = jsonApiPublisher({
  name: "bestbuy",
  displayName: "Best Buy",
  kind: "retail",
  domains: ["bestbuy.com"],
  ratingScale: "1–5 stars, kept as is",
  evidenceDate: "2026-05-21",
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 120,
    note: "bestbuy.com: the product reviews JSON (ugc/v2), 20 a page; behind a bot wall, so one at a time.",
  },
  // A product page (`/site/<slug>/<sku>.p?skuId=<sku>`), its reviews page (`/site/reviews/<slug>/<sku>`),
  // or the bare SKU.
  profile: {
    urls: [
      { path: /^\/site\/(?:[\w-]{1,200}\/)?(?<sku>\d{4,10})\.p(?:\/|$)/ },
      { path: /^\/site\/reviews\/[\w-]{1,200}\/(?<sku>\d{4,10})(?:\/|$)/ },
    ],
    ids: [/^(?<sku>\d{4,10})$/],
    page: "https://www.bestbuy.com/site/{sku}.p?skuId={sku}",
    examples: [
      { input: PAGE, url: PAGE },
      {
        input: "https://www.bestbuy.com/site/sony-playstation-5-slim-console-white/6565065.p?skuId=6565065",
        url: PAGE,
      },
      { input: "https://www.bestbuy.com/site/reviews/sony-playstation-5-slim-console/6565065", url: PAGE },
      { input: "6565065", url: PAGE },
      {
        input: "https://www.bestbuy.com/site/electronics/top-deals/pcmcat1563299784494.c",
        error: "Enter the URL of a profile on bestbuy.com.",
      },
      {
        input: "https://www.walmart.com/ip/6565065",
        error: "Enter a URL on bestbuy.com or one of its subdomains.",
      },
      { input: "PS5 slim", error: "Enter a valid URL." },
    ],
  },
  api: {
    what: "Best Buy reviews",
    request: "https://www.bestbuy.com/ugc/v2/reviews?page={page}&pageSize=20&sku={key}&sort=MOST_RECENT",
    reviews: "topics",
    pages: "totalPages",
    review: {
      id: "id",
      rating: "rating",
      text: ["title", "text"],
      date: "submissionTime",
      author: "author",
    },
  },
});
