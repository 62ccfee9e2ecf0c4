import { declareProfile } from "../kit/profile";

const ANGI_PAGE =
  "https://www.angi.com/companylist/us/il/barrington/all-affordable-plumbing-inc-reviews-6480784.htm";
const HOMEADVISOR_PAGE = "https://www.homeadvisor.com/rated.AllAffordablePlumbing.158720676.html";

/** Angi's profile path (also on angieslist.com, its former name): `/companylist/us/<st>/<city>/<slug>-reviews-<id>.htm`. */
const ANGI_PATH =
  /^\/companylist\/(?<country>us)\/(?<state>[a-z]{2})\/(?<city>[a-z0-9][a-z0-9%.'-]{0,100})\/(?<slug>[a-z0-9][a-z0-9%.,'&+-]{0,200}?)-reviews-(?<id>\d{1,12})\.htm\/?$/i;

/**
 * profile_key for both keys of the module. On angi.com and angieslist.com: a company's profile page
 * (`/companylist/us/il/barrington/acme-reviews-6480784.htm`), made an angi.com URL; the walk's key is
 * `angi:<id>`. On homeadvisor.com: a pro's `rated.<Name>.<spId>.html` page; the walk's key is
 * `homeadvisor:<spId>`. The route follows the URL's host, so a HomeAdvisor page submitted under
 * angi.com (one owner, one module) is read as HomeAdvisor. No bare ids: no public source shows a
 * short form that opens a profile.
 */
export const angiProfile = declareProfile({
  hosts: ["angi.com", "angieslist.com", "homeadvisor.com"],
  urls: [
    { host: "angi.com", path: ANGI_PATH },
    { host: "angieslist.com", path: ANGI_PATH },
    {
      host: "homeadvisor.com",
      path: /^\/rated\.(?<name>[A-Za-z0-9][A-Za-z0-9_-]{0,150})\.(?<spid>\d{1,12})\.html$/,
    },
  ],
  page: (g) =>
    g.spid
      ? `https://www.homeadvisor.com/rated.${g.name}.${g.spid}.html`
      : `https://www.angi.com/companylist/${g.country.toLowerCase()}/${g.state.toLowerCase()}/${g.city}/${g.slug}-reviews-${g.id}.htm`,
  key: (g) => (g.spid ? `homeadvisor:${g.spid}` : `angi:${g.id}`),
  examples: [
    { input: ANGI_PAGE, url: ANGI_PAGE },
    { input: `${ANGI_PAGE}?utm_source=share#reviews`, url: ANGI_PAGE },
    {
      input:
        "https://www.angieslist.com/companylist/us/IL/grayslake/mario-and-sons-sewer%2C-llc-reviews-10869080.htm",
      publisher: "angieslist.com",
      url: "https://www.angi.com/companylist/us/il/grayslake/mario-and-sons-sewer%2C-llc-reviews-10869080.htm",
    },
    { input: HOMEADVISOR_PAGE, publisher: "homeadvisor.com", url: HOMEADVISOR_PAGE },
    {
      input: "https://homeadvisor.com/rated.AllAffordablePlumbing.158720676.html?sort=newest",
      publisher: "homeadvisor.com",
      url: HOMEADVISOR_PAGE,
    },
    { input: "https://www.angi.com/nearme/plumbing/", error: "Enter the URL of a profile on angi.com." },
    {
      input: "https://www.homeadvisor.com/c.Plumbing.Chicago.IL.-12060.html",
      publisher: "homeadvisor.com",
      error: "Enter the URL of a profile on homeadvisor.com.",
    },
    {
      input: "https://www.yelp.com/biz/all-affordable-plumbing",
      error: "Enter a URL on angi.com or one of its subdomains.",
    },
    { input: "6480784", error: "Enter a valid URL." },
  ],
});
