import { declareProfile } from "../kit/profile";

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

const BLUE_DOOR = "https://www.facebook.com/bluedoorcafe/reviews";
const BY_ID = "https://www.facebook.com/104729361234567/reviews";
const NOT_A_PROFILE = "Enter the URL of a profile on facebook.com.";

/** profile_key: a page URL in any of Facebook's forms, or the page's vanity name or id. */
export const facebookProfile = declareProfile({
  urls: [fromUrl],
  ids: [(id) => (PAGE_SLUG.test(id) && !NOT_PAGES.has(id.toLowerCase()) ? reviewsTab(id) : null)],
  examples: [
    { input: "bluedoorcafe", url: BLUE_DOOR },
    { input: "Blue.Door.Cafe", url: "https://www.facebook.com/Blue.Door.Cafe/reviews" },
    { input: "104729361234567", url: BY_ID },
    { input: "https://www.facebook.com/bluedoorcafe", url: BLUE_DOOR },
    { input: "https://m.facebook.com/bluedoorcafe/reviews/?ref=page_internal", url: BLUE_DOOR },
    { input: "https://www.facebook.com/pages/Blue-Door-Cafe/104729361234567", url: BY_ID },
    {
      input: "https://www.facebook.com/profile.php?id=104729361234567",
      url: "https://www.facebook.com/profile.php?id=104729361234567&sk=reviews",
    },
    { input: "https://www.facebook.com/", error: NOT_A_PROFILE },
    { input: "https://www.facebook.com/groups/123", error: NOT_A_PROFILE },
    { input: "https://www.facebook.com/profile.php", error: NOT_A_PROFILE },
    { input: "https://www.facebook.com/pages/Blue-Door-Cafe", error: NOT_A_PROFILE },
    {
      input: "https://www.yelp.com/biz/blue-door",
      error: "Enter a URL on facebook.com or one of its subdomains.",
    },
    { input: "blue door cafe", error: "Enter a valid URL." },
    { input: "login", error: "Enter a valid URL." },
  ],
});
