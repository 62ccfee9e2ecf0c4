import { declareProfile } from "../kit/profile";

const PROFILE = "https://www.bbb.org/us/ca/san-diego/profile/roofing-contractors/acme-roofing-1126-1000001";
const PAGE = `${PROFILE}/customer-reviews`;

/**
 * profile_key: a business profile URL on bbb.org (any tab of it): `/<country>/<state>/<city>/
 * profile/<category>/<slug>-<bbbId>-<businessId>`, then optionally `/addressId/<n>`,
 * `/customer-reviews` or another tab. BBB's ids alone name no page. The profile's customer-reviews
 * page is the canonical profile URL; the walk's key is `<bbbId>-<businessId>`.
 */
export const bbbProfile = declareProfile({
  urls: [
    {
      path: /^(?<profile>\/[a-z]{2}\/[^/]{1,100}\/[^/]{1,100}\/profile\/[^/]{1,200}\/[^/]{0,200}-(?<bbbId>\d{3,6})-(?<businessId>\d{1,12}))(?:\/|$)/,
    },
  ],
  page: "https://www.bbb.org{profile}/customer-reviews",
  key: "{bbbId}-{businessId}",
  examples: [
    { input: PROFILE, url: PAGE },
    { input: `${PROFILE}/customer-reviews?page=2`, url: PAGE },
    { input: `${PROFILE}/addressId/123456`, url: PAGE },
    {
      input:
        "https://bbb.org/us/ca/san-diego/profile/roofing-contractors/acme-roofing-1126-1000001/complaints",
      url: PAGE,
    },
    {
      input: "https://www.bbb.org/search?find_text=roofing",
      error: "Enter the URL of a profile on bbb.org.",
    },
    {
      input: "https://www.yelp.com/biz/acme-roofing",
      error: "Enter a URL on bbb.org or one of its subdomains.",
    },
    { input: "1126-1000001", error: "Enter a valid URL." },
  ],
});
