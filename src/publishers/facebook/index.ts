import { resolveProfile } from "../kit/profile";
import { definePublisher } from "../types";
import { facebookAdapter } from "./adapter";

/** First path segments that are Facebook's own sections, never a page. */
const NOT_PAGES = new Set([
  "login",
  "login.php",
  "groups",
  "events",
  "watch",
  "marketplace",
  "gaming",
  "share",
  "sharer",
  "sharer.php",
  "story.php",
  "permalink.php",
  "photo",
  "photo.php",
  "help",
  "settings",
  "search",
  "hashtag",
  "checkpoint",
  "reel",
  "stories",
  "friends",
  "messages",
  "notifications",
  "bookmarks",
]);
const PAGE_SLUG = /^[A-Za-z0-9][A-Za-z0-9.\-_]*$/;

const reviewsTab = (page: string) => `https://www.facebook.com/${encodeURIComponent(page)}/reviews`;

/**
 * A page URL in any of Facebook's forms → the page's reviews tab on www: `/<vanity>[/…]`,
 * `/pages/<name>/<id>`, `/profile.php?id=<id>`.
 */
function fromUrl(url: URL): string | null {
  const segments = url.pathname.split("/").filter(Boolean);
  if (segments[0] === "profile.php") {
    const id = url.searchParams.get("id");
    return id && /^\d+$/.test(id) ? `https://www.facebook.com/profile.php?id=${id}&sk=reviews` : null;
  }
  if (segments[0] === "pages") {
    const id = segments.slice(1).find((segment) => /^\d+$/.test(segment));
    return id ? reviewsTab(id) : null;
  }
  const page = segments[0];
  return page && PAGE_SLUG.test(page) && !NOT_PAGES.has(page.toLowerCase()) ? reviewsTab(page) : null;
}

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
  resolveProfileKey: (profileKey, publisherKey) =>
    resolveProfile(profileKey, publisherKey, {
      fromUrl,
      fromId: (id) => (PAGE_SLUG.test(id) && !NOT_PAGES.has(id.toLowerCase()) ? reviewsTab(id) : null),
    }),
  // The newest real evidence checked: see README.md "Evidence".
  evidenceDate: "2026-04",
  adapter: facebookAdapter,
});
