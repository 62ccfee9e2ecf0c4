import { resolveProfile } from "../kit/profile";
import { definePublisher } from "../types";
import { glassdoorAdapter, pageUrl, reviewsBase } from "./adapter";

/**
 * glassdoor.com: employer reviews from the Apollo cache of its reviews pages. profile_key is an
 * employer's reviews or overview URL, or its employer id (digits).
 */
export const glassdoor = definePublisher({
  name: "glassdoor",
  displayName: "Glassdoor",
  kind: "employer",
  domains: ["glassdoor.com"],
  loginRequired: false,
  ratingScale: "1–5 stars (overall rating), kept as is",
  resolveProfileKey: (profileKey, publisherKey) =>
    resolveProfile(profileKey, publisherKey, {
      fromUrl: (url) => {
        const base = reviewsBase(url);
        return base ? pageUrl({ base, page: 1 }) : null;
      },
      fromId: (id) =>
        /^\d{1,12}$/.test(id)
          ? pageUrl({ base: `https://www.glassdoor.com/Reviews/Employer-Reviews-E${id}`, page: 1 })
          : null,
    }),
  // The newest real evidence checked: see README.md "Evidence".
  evidenceDate: "2026-05-14",
  adapter: glassdoorAdapter,
});
