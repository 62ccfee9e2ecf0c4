import { declareProfile } from "../kit/profile";

const PAGE = "https://tabelog.com/tokyo/A1301/A130101/13001234/";
const NOT_A_PROFILE = "Enter the URL of a profile on tabelog.com.";
/** `{prefecture}/{A4}/{A6}/{id}`: the path every Tabelog restaurant page and subpage starts with. */
const PLACE = String.raw`(?<pref>[a-z]{2,20})\/(?<area>A\d{4})\/(?<sub>A\d{6})\/(?<id>\d{6,10})`;

/**
 * profile_key: a restaurant's page or any of its subpages (`/tokyo/A1301/A130101/13001234/`,
 * `…/dtlrvwlst/`, `…/dtlmenu/`), on the Japanese site or a language site (`/en/`, `/kr/`, `/cn/`,
 * `/tw/`) or the mobile host `s.tabelog.com`; or the path `tokyo/A1301/A130101/13001234` as text.
 * The walk reads the Japanese site (where the reviews are). A bare restaurant number is not taken:
 * the area path is needed to open it, and only a redirect (not established for plain requests)
 * would give it.
 */
export const tabelogProfile = declareProfile({
  urls: [{ path: new RegExp(String.raw`^\/(?:(?:en|kr|cn|tw)\/)?${PLACE}(?:\/|$)`) }],
  ids: [new RegExp(`^${PLACE}\\/?$`)],
  page: "https://tabelog.com/{pref}/{area}/{sub}/{id}/",
  key: (g) => `${g.pref}/${g.area}/${g.sub}/${g.id}`,
  examples: [
    { input: PAGE, url: PAGE },
    { input: "https://tabelog.com/tokyo/A1301/A130101/13001234", url: PAGE },
    { input: "https://tabelog.com/tokyo/A1301/A130101/13001234/dtlrvwlst/?PG=3", url: PAGE },
    { input: "https://tabelog.com/en/tokyo/A1301/A130101/13001234/", url: PAGE },
    { input: "https://s.tabelog.com/tokyo/A1301/A130101/13001234/dtlrvwlst/B412345678/", url: PAGE },
    { input: "osaka/A2701/A270101/27001234", url: "https://tabelog.com/osaka/A2701/A270101/27001234/" },
    { input: "https://tabelog.com/tokyo/A1301/rstLst/", error: NOT_A_PROFILE },
    { input: "https://tabelog.com/rvwr/abc123/", error: NOT_A_PROFILE },
    {
      input: "https://www.yelp.com/biz/sushi-tokyo",
      error: "Enter a URL on tabelog.com or one of its subdomains.",
    },
    { input: "13001234", error: "Enter a valid URL." },
  ],
});
