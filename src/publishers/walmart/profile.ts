import { declareProfile } from "../kit/profile";

const PAGE = "https://www.walmart.com/reviews/product/5129928603";

/**
 * profile_key: a product, as its product page (`/ip/<slug>/<usItemId>` or `/ip/<usItemId>`), its
 * reviews page (`/reviews/product/<usItemId>`) or the bare usItemId (the number the site's own URLs
 * carry). It becomes the reviews page; the walk's key is the usItemId.
 */
export const walmartProfile = declareProfile({
  urls: [
    { path: /^\/reviews\/product\/(?<item>\d{4,14})\/?$/ },
    { path: /^\/ip\/(?:[^/]{1,300}\/)?(?<item>\d{4,14})\/?$/ },
  ],
  ids: [/^(?<item>\d{4,14})$/],
  page: "https://www.walmart.com/reviews/product/{item}",
  examples: [
    { input: PAGE, url: PAGE },
    { input: `${PAGE}?page=3&sort=helpful`, url: PAGE },
    {
      input: "https://www.walmart.com/ip/Great-Value-Electric-Kettle-1-7-L/5129928603?classType=REGULAR",
      url: PAGE,
    },
    { input: "https://walmart.com/ip/5129928603", url: PAGE },
    { input: "5129928603", url: PAGE },
    { input: "https://www.walmart.com/search?q=kettle", error: "Enter the URL of a profile on walmart.com." },
    {
      input: "https://www.walmart.com/ip/Great-Value-Electric-Kettle/not-a-number",
      error: "Enter the URL of a profile on walmart.com.",
    },
    {
      input: "https://www.bestbuy.com/site/6565065.p?skuId=6565065",
      error: "Enter a URL on walmart.com or one of its subdomains.",
    },
    { input: "electric kettle", error: "Enter a valid URL." },
  ],
});
