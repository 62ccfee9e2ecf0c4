import { declareProfile } from "../kit/profile";
import { pageUrl, reviewsBase } from "./adapter";

const SORT = "?sort.sortType=RD&sort.ascending=false";
const ACME = `https://www.glassdoor.com/Reviews/Acme-Widgets-Reviews-E4242.htm${SORT}`;

/**
 * profile_key: an employer's reviews or overview URL, or its employer id (digits); custom rules
 * (./adapter.ts reads the employer from either page).
 */
export const glassdoorProfile = declareProfile({
  urls: [
    (url) => {
      const base = reviewsBase(url);
      return base ? pageUrl({ base, page: 1 }) : null;
    },
  ],
  ids: [
    (id) =>
      /^\d{1,12}$/.test(id)
        ? pageUrl({ base: `https://www.glassdoor.com/Reviews/Employer-Reviews-E${id}`, page: 1 })
        : null,
  ],
  examples: [
    {
      input: "https://www.glassdoor.com/Reviews/Acme-Widgets-Reviews-E4242_P7.htm?filter.iso3Language=eng",
      url: ACME,
    },
    { input: "https://www.glassdoor.com/Overview/Working-at-Acme-Widgets-EI_IE4242.11,23.htm", url: ACME },
    { input: "4242", url: `https://www.glassdoor.com/Reviews/Employer-Reviews-E4242.htm${SORT}` },
    {
      input: "https://www.glassdoor.com/Salary/Acme-Widgets-Salaries-E4242.htm",
      error: "Enter the URL of a profile on glassdoor.com.",
    },
    { input: "acme-widgets", error: "Enter a valid URL." },
  ],
});
