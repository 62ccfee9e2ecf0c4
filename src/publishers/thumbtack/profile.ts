import { declareProfile } from "../kit/profile";

const PAGE =
  "https://www.thumbtack.com/nc/charlotte/affordable-plumbing-services/mr-rooter-charlotte-nc/service/394335517902585861";
const NOT_A_PROFILE = "Enter the URL of a profile on thumbtack.com.";

/**
 * profile_key: a pro's service page, `/<state>/<city>/<category>/<slug>/service/<servicePk>` (the
 * form the pages' own JSON-LD `url` and `@id` carry; query and fragment dropped). The walk's key is
 * the servicePk, the pro's stable id. A bare servicePk is not taken: the page's path is needed to
 * open it, and no public source shows a short form that redirects to it.
 */
export const thumbtackProfile = declareProfile({
  urls: [
    {
      path: /^\/(?<state>[a-z]{2})\/(?<city>[a-z0-9][a-z0-9-]{0,100})\/(?<category>[a-z0-9][a-z0-9-]{0,100})\/(?<slug>[a-z0-9][a-z0-9-]{0,150})\/service\/(?<pk>\d{6,25})\/?$/i,
    },
  ],
  page: (g) =>
    `https://www.thumbtack.com/${g.state.toLowerCase()}/${g.city.toLowerCase()}/${g.category.toLowerCase()}/${g.slug.toLowerCase()}/service/${g.pk}`,
  key: (g) => g.pk,
  examples: [
    { input: PAGE, url: PAGE },
    { input: `${PAGE}/?utm_source=share#reviews`, url: PAGE },
    {
      input:
        "https://thumbtack.com/NC/Charlotte/house-cleaning/andreias-cleaning-llc/service/491089546672373766",
      url: "https://www.thumbtack.com/nc/charlotte/house-cleaning/andreias-cleaning-llc/service/491089546672373766",
    },
    { input: "https://www.thumbtack.com/k/plumbers/near-me?zip_code=28270", error: NOT_A_PROFILE },
    {
      input: "https://www.thumbtack.com/nc/charlotte/plumbing/mr-rooter/service/not-a-number",
      error: NOT_A_PROFILE,
    },
    {
      input: "https://www.yelp.com/biz/mr-rooter-charlotte",
      error: "Enter a URL on thumbtack.com or one of its subdomains.",
    },
    { input: "394335517902585861", error: "Enter a valid URL." },
  ],
});
