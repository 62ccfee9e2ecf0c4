import { definePublisher } from "../types";
import { facebookAdapter } from "./adapter";
import { facebookProfile } from "./profile";

/**
 * facebook.com page reviews ("recommendations"), read as the logged-in web app shows them: the
 * reviews tab's embedded first page, then the reviews feed's GraphQL pages. Login cookies required.
 */
export const facebook = definePublisher({
  name: "facebook",
  displayName: "Facebook",
  kind: "social",
  domains: ["facebook.com"],
  loginRequired: true,
  ratingScale: "Recommends → 5, doesn't recommend → 1",
  profile: facebookProfile,
  // The newest real evidence checked: see README.md "Evidence".
  evidenceDate: "2026-04",
  queue: {
    concurrency: 1,
    retries: 3,
    retryDelay: 300,
    note: "facebook.com: recommendations with login cookies; the most block-prone, one at a time.",
  },
  adapter: facebookAdapter,
});
