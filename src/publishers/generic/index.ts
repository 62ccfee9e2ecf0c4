import { declareProfile } from "../kit/profile";
import { definePublisher } from "../types";
import { genericAdapter } from "./adapter";

/**
 * Every domain no dedicated module claims: schema.org reviews (JSON-LD, microdata, RDFa) and review
 * records in the page's own JSON (docs/generic-reader.md) on the profile page, older pages through
 * `rel="next"` or a `?page=N` link. Its cursor is the next page's URL.
 */
export const generic = definePublisher({
  name: "generic",
  displayName: "Any site with schema.org review markup or review records in its page data",
  kind: "generic",
  domains: [],
  loginRequired: false,
  ratingScale:
    "reviewRating mapped linearly from [worstRating, bestRating] (default 1–5) onto 1–5; page data on the scale its records state, else 1–5, 1–10 or 0–100 by their largest rating",
  // Any page on the publisher's domain, as given; no ids.
  profile: declareProfile({
    urls: [(url) => url.toString()],
    examples: [
      {
        input: "https://www.example.com/reviews?page=2",
        publisher: "example.com",
        url: "https://www.example.com/reviews?page=2",
      },
      {
        input: "https://shop.example.com/p/1",
        publisher: "example.com",
        url: "https://shop.example.com/p/1",
      },
      {
        input: "https://www.example.org/reviews",
        publisher: "example.com",
        error: "Enter a URL on example.com or one of its subdomains.",
      },
      { input: "acme", publisher: "example.com", error: "Enter a valid URL." },
    ],
  }),
  queue: {
    concurrency: 4,
    retryDelay: 30,
    note: "Generic structured-data adapter: any domain without a module of its own; pages are cheap plain GETs.",
  },
  adapter: genericAdapter,
});
