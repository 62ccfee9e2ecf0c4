import { declareProfile } from "../kit/profile";
import { locationPage, TRIPADVISOR_DOMAINS } from "./urls";

const HOTEL = "Hotel_Review-g60713-d1001-Reviews-Blue_Door_Inn-San_Francisco_California.html";

/**
 * profile_key: the location page's URL on any Tripadvisor site (the location id, `-d<id>-`, is
 * global), its review offset, query and fragment dropped; without one the business is looked up.
 */
export const tripadvisorProfile = declareProfile({
  hosts: TRIPADVISOR_DOMAINS,
  urls: [(url) => locationPage(url)?.url ?? null],
  examples: [
    { input: `https://www.tripadvisor.com/${HOTEL}`, url: `https://www.tripadvisor.com/${HOTEL}` },
    {
      input: `https://www.tripadvisor.de/${HOTEL.replace("-Reviews-", "-Reviews-or20-")}?m=1#REVIEWS`,
      url: `https://www.tripadvisor.de/${HOTEL}`,
    },
    {
      input: "https://www.tripadvisor.com/Tourism-g60713-San_Francisco_California-Vacations.html",
      error: "Enter the URL of a profile on tripadvisor.com.",
    },
    {
      input: `https://www.example.com/${HOTEL}`,
      publisher: "tripadvisor.co.uk",
      error: "Enter a URL on tripadvisor.co.uk or one of its subdomains.",
    },
    { input: "d1001", publisher: "tripadvisor.de", error: "Enter a valid URL." },
  ],
});
