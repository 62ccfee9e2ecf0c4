import { permanentError, transientError } from "../../scraping/errors";
import { jsonLdAggregate, pageJsonLdItems } from "../kit/json-ld-items";
import { declareProfile } from "../kit/profile";
import { WorkBudget } from "../kit/work-budget";
import type { ScrapeContext } from "../types";

const PAGE = "https://www.houzz.com/professionals/roofing-and-gutters/jetroof-pfvwus-pf~1991096372";
const PATH =
  /^\/professionals\/(?<category>[a-z0-9][a-z0-9-]{0,100})\/(?<slug>[a-z0-9][a-z0-9-]{0,200}?)-pfvw(?<cc>[a-z]{2})-pf~(?<id>\d{1,15})\/?$/i;

/**
 * profile_key: a pro's profile page, `/professionals/<category>/<slug>-pfvwus-pf~<id>` (`pfvwgb`…) on houzz.com
 * or houzz.co.uk (the form the pages' canonical links carry; query and fragment dropped), kept on
 * its own site. The walk's key is the `pf~` id; the ids the reviews call needs are read from the page.
 */
export const houzzProfile = declareProfile({
  hosts: ["houzz.com", "houzz.co.uk"],
  urls: [
    {
      host: "houzz.co.uk",
      path: PATH,
      page: "https://www.houzz.co.uk/professionals/{category}/{slug}-pfvw{cc}-pf~{id}",
    },
    { host: "houzz.com", path: PATH },
  ],
  page: "https://www.houzz.com/professionals/{category}/{slug}-pfvw{cc}-pf~{id}",
  key: "{id}",
  examples: [
    { input: PAGE, url: PAGE },
    { input: `${PAGE}?utm_source=share#reviews`, url: PAGE },
    {
      input: "https://houzz.co.uk/professionals/kitchen-and-bath-designers/acme-kitchens-pfvwgb-pf~12345/",
      publisher: "houzz.co.uk",
      url: "https://www.houzz.co.uk/professionals/kitchen-and-bath-designers/acme-kitchens-pfvwgb-pf~12345",
    },
    {
      input: "https://www.houzz.co.uk/professionals/kitchen-and-bath-designers",
      publisher: "houzz.co.uk",
      error: "Enter the URL of a profile on houzz.co.uk.",
    },
    {
      input: "https://www.houzz.com/photos/kitchen-ideas-phbr0-bp~t_709",
      error: "Enter the URL of a profile on houzz.com.",
    },
    {
      input: "https://www.yelp.com/biz/jetroof",
      error: "Enter a URL on houzz.com or one of its subdomains.",
    },
    { input: "1991096372", error: "Enter a valid URL." },
  ],
});

/** How much of the page is searched: the page state sits well inside the first megabytes. */
const SEARCHED = 4_000_000;
/** The pro's user id in the page state's UserProfileStore (within this many characters of its name). */
const USER_ID = /"data":\{"user":\{"id":[^,{}]{0,100},"userId":"?(\d{1,15})"?,"userName"/;
const PRO_ID = /"professional":\{"id":"?(\d{1,15})"?,"proType"/;
const NEAR = 5_000;
/** What bot walls print instead of the page (vendor not named by the evidence; README). */
const CHALLENGE =
  /captcha|access denied|are you a robot|verify you are (?:a )?human|pardon our interruption/i;

/** The pro's `userId` and `proId` from the page state, or null for each one missing. */
export function houzzIds(html: string): { userId: string | null; proId: string | null } {
  const text = html.slice(0, SEARCHED);
  const store = text.indexOf('"UserProfileStore":{"prereqs":');
  const userId = store < 0 ? null : (USER_ID.exec(text.slice(store, store + NEAR))?.[1] ?? null);
  return { userId, proId: PRO_ID.exec(text)?.[1] ?? null };
}

/**
 * Reads the profile page once: the two ids its reviews call takes, and the count and average of its
 * JSON-LD. The walk's key becomes `<userId>/<proId>/<count>/<average>` ("-" for one not stated), so
 * page 1 can report what the page stated without reading it again. A page without the ids is a bot
 * wall when it looks like one (`blocked`), else `publisher_error` naming what is missing.
 */
export async function openHouzzProfile(
  _key: string,
  profileUrl: string,
  ctx: ScrapeContext,
): Promise<{ pageUrl: string; key: string }> {
  const page = await ctx.client.request(profileUrl);
  const { userId, proId } = houzzIds(page.text);
  if (!userId || !proId) {
    if (CHALLENGE.test(page.text.slice(0, 50_000)))
      throw transientError("blocked", "Houzz answered the profile page with a bot check");
    const missing = [userId ? null : "userId (UserProfileStore)", proId ? null : "professional.id"];
    throw permanentError(
      "publisher_error",
      `Houzz profile page: no ${missing.filter(Boolean).join(" and ")} in the page state`,
    );
  }
  const budget = new WorkBudget("Houzz profile page");
  const { total, rating } = jsonLdAggregate(
    await pageJsonLdItems(page.text, budget, "Houzz profile page"),
    budget,
  );
  return { pageUrl: profileUrl, key: `${userId}/${proId}/${total ?? "-"}/${rating ?? "-"}` };
}
