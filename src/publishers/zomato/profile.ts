import { permanentError } from "../../scraping/errors";
import { declareProfile } from "../kit/profile";
import type { ScrapeContext } from "../types";

const PAGE = "https://www.zomato.com/ncr/the-chinese-thai-restaurant-safdarjung-new-delhi";

/**
 * City-level pages that share the `/<city>/<slug>` shape with restaurant pages: refused at submit
 * rather than failing later on a page without a restaurant id.
 */
const LISTINGS = "restaurants|delivery|dine-out|drinks-and-nightlife|nightlife|collections|events|directory";
/** A restaurant page and its tabs (`/reviews`, `/order`, …), as Zomato links them. */
const TABS = "reviews|info|order|menu|photos|book";

/**
 * profile_key: a restaurant's page on zomato.com (`/<city>/<slug>`, any of its tabs, query dropped).
 * The walk's key is `<city>/<slug>`; the restaurant's numeric id (`res_id`), which the review route
 * needs and no URL carries, is read from the page when the walk opens.
 */
export const zomatoProfile = declareProfile({
  urls: [
    {
      path: new RegExp(
        `^/(?<city>[a-z][a-z0-9-]{0,59})/(?!(?:${LISTINGS})(?:/|$))(?<slug>[a-z0-9][a-z0-9-]{0,149})(?:/(?:${TABS}))?/?$`,
      ),
    },
  ],
  page: "https://www.zomato.com/{city}/{slug}",
  key: "{city}/{slug}",
  examples: [
    { input: PAGE, url: PAGE },
    {
      input: "https://zomato.com/chennai/secret-story-nungambakkam/reviews?sort=dd",
      url: "https://www.zomato.com/chennai/secret-story-nungambakkam",
    },
    {
      input: "https://www.zomato.com/dubai/operation-falafel-jumeirah/order/",
      url: "https://www.zomato.com/dubai/operation-falafel-jumeirah",
    },
    { input: "https://www.zomato.com/ncr/restaurants", error: "Enter the URL of a profile on zomato.com." },
    { input: "https://www.zomato.com/ncr", error: "Enter the URL of a profile on zomato.com." },
    {
      input: "https://www.swiggy.com/restaurants/acme-123",
      error: "Enter a URL on zomato.com or one of its subdomains.",
    },
    { input: "the chinese thai restaurant", error: "Enter a valid URL." },
  ],
});

/**
 * The restaurant id in the page: the first `"resId":<digits>` of its state, which Zomato writes as
 * an escaped JSON string (`\"resId\":308020`); both public clients take the first. Only the first
 * few megabytes are searched, with `indexOf` (no regex over the page).
 */
export function restaurantIdOf(html: string): string {
  const text = html.slice(0, 4_000_000);
  let from = 0;
  for (let hit = 0; hit < 50; hit++) {
    const at = text.indexOf("resId", from);
    if (at < 0) break;
    from = at + 5;
    const id = /^\\?"\s*:\s*(\d{1,12})(?!\d)/.exec(text.slice(from, from + 40))?.[1];
    if (id) return id;
  }
  throw permanentError(
    "publisher_error",
    "zomato restaurant page: no restaurant id (resId) in the page; where the page keeps it is not established",
  );
}

/** Reads the restaurant page once for its id; the walk's key becomes the `res_id`. */
export async function openZomatoProfile(
  _key: string,
  profileUrl: string,
  ctx: ScrapeContext,
): Promise<{ pageUrl: string; key: string }> {
  const page = await ctx.client.request(profileUrl);
  return { pageUrl: profileUrl, key: restaurantIdOf(page.text) };
}
