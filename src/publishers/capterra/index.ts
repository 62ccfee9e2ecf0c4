import { definePublisher } from "../types";
import { capterraAdapter } from "./adapter";
import { capterraProfile } from "./profile";

/**
 * capterra.com: software product reviews from the JSON endpoint the product pages load them from,
 * paged by offset. profile_key is a product URL or the numeric product id. Software has no street
 * address, so there is no lookup.
 */
export const capterra = definePublisher({
  name: "capterra",
  displayName: "Capterra",
  kind: "software",
  domains: ["capterra.com"],
  loginRequired: false,
  ratingScale: "1–5 stars (overall rating), kept as is",
  summaryFields: ["review_count"],
  profile: capterraProfile,
  queue: { note: "capterra.com: product page once, then the reviews JSON endpoint; behind bot protection." },
  adapter: capterraAdapter,
});
