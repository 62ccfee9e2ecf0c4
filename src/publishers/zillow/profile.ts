import { permanentError } from "../../scraping/errors";
import { declareProfile } from "../kit/profile";
import type { ScrapeContext } from "../types";

/** Zillow's encoded user ids (`X1-ZUytm150b2rcax_3s95i`). */
const ENCODED_ZUID = /^X1-[A-Za-z0-9_]{4,60}$/;
const PAGE = "https://www.zillow.com/profile/Jane-Realtor-CA/";

/**
 * profile_key: an agent's profile URL on zillow.com (`/profile/<screen name>/`), or the screen name
 * as Zillow writes them in profile URLs (`Stephanie-Younger-CA`, `jsmith_realty`).
 */
export const zillowProfile = declareProfile({
  urls: [{ path: /^\/profile\/(?<name>[A-Za-z0-9][A-Za-z0-9_.-]{0,99})(?:\/|$)/ }],
  ids: [/^(?<name>[A-Za-z0-9][A-Za-z0-9_.-]{0,99})$/],
  page: "https://www.zillow.com/profile/{name}/",
  examples: [
    { input: PAGE, url: PAGE },
    { input: "https://zillow.com/profile/Jane-Realtor-CA?tab=reviews", url: PAGE },
    { input: "Jane-Realtor-CA", url: PAGE },
    {
      input: "https://www.zillow.com/homedetails/1-Main-St/123_zpid/",
      error: "Enter the URL of a profile on zillow.com.",
    },
    { input: "jane realtor", error: "Enter a valid URL." },
  ],
});

const NEXT_DATA_OPEN = '<script id="__NEXT_DATA__" type="application/json"';

/** The text of the page's `__NEXT_DATA__` script, found by its markers (no regex over the page). */
export function nextDataOf(html: string): string | null {
  const start = html.indexOf(NEXT_DATA_OPEN);
  if (start < 0) return null;
  const open = html.indexOf(">", start);
  const close = open < 0 ? -1 : html.indexOf("</script>", open);
  return close < 0 ? null : html.slice(open + 1, close);
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/**
 * The agent's encodedZuid from the profile page's Next.js data: `props.pageProps.profileDisplay.
 * profileInfo.encodedZuid` (two public clients read it there). Reviewers' ids elsewhere on the page
 * are never taken for the agent's.
 */
export function encodedZuidOf(html: string): string {
  const text = nextDataOf(html);
  if (text === null)
    throw permanentError("publisher_error", "Zillow profile: the page has no __NEXT_DATA__ script");
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw permanentError("publisher_error", "Zillow profile: __NEXT_DATA__ is not JSON");
  }
  const zuid = field(
    field(field(field(field(data, "props"), "pageProps"), "profileDisplay"), "profileInfo"),
    "encodedZuid",
  );
  if (typeof zuid !== "string" || !ENCODED_ZUID.test(zuid)) {
    throw permanentError(
      "publisher_error",
      "Zillow profile: no props.pageProps.profileDisplay.profileInfo.encodedZuid",
    );
  }
  return zuid;
}

/** Opens the profile page once and takes the agent's encodedZuid, the key the reviews API pages by. */
export async function openZillowProfile(
  _screenName: string,
  profileUrl: string,
  ctx: ScrapeContext,
): Promise<{ pageUrl: string; key: string }> {
  const page = await ctx.client.request(profileUrl);
  return { pageUrl: profileUrl, key: encodedZuidOf(page.text) };
}
