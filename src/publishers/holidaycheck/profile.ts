import { declareProfile } from "../kit/profile";

/** HolidayCheck's German-speaking sites; hotel ids (UUIDs) are the same on all of them. */
export const HOLIDAYCHECK_DOMAINS = ["holidaycheck.de", "holidaycheck.at", "holidaycheck.ch"] as const;

const VENIQUI = "4e19fc5c-2279-36f0-b4ff-69fd37b3e7df";
const PAGE = `https://www.holidaycheck.de/hi/x/${VENIQUI}`;

/** The hotel's page by id: `/hi/x/<uuid>` redirects to its named page, so the slug is not needed. */
export function holidaycheckPageUrl(site: string, uuid: string): string {
  return `https://www.${site}/hi/x/${uuid.toLowerCase()}`;
}

/**
 * profile_key: a hotel page or its reviews page on a HolidayCheck site (`/hi/<slug>/<uuid>`,
 * `/hr/<slug>/<uuid>`, any tab after it), or the hotel's UUID on the site submitted under.
 */
export const holidaycheckProfile = declareProfile({
  urls: [
    {
      path: /^\/(?:hi|hr)\/[^/]{1,200}\/(?<uuid>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\/|$)/i,
    },
  ],
  ids: [/^(?<uuid>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i],
  page: (g, site) => holidaycheckPageUrl(site, g.uuid),
  key: (g) => g.uuid.toLowerCase(),
  examples: [
    { input: `https://www.holidaycheck.de/hi/hotel-veniqui/${VENIQUI}`, url: PAGE },
    {
      input: `https://www.holidaycheck.de/hr/bewertungen-hotel-veniqui/${VENIQUI.toUpperCase()}?p=2`,
      url: PAGE,
    },
    { input: VENIQUI, publisher: "holidaycheck.at", url: `https://www.holidaycheck.at/hi/x/${VENIQUI}` },
    {
      input: `https://www.holidaycheck.ch/hi/hotel-veniqui/${VENIQUI}`,
      publisher: "holidaycheck.ch",
      url: `https://www.holidaycheck.ch/hi/x/${VENIQUI}`,
    },
    {
      input: "https://www.holidaycheck.de/dh/hotels-rhodos/abc",
      error: "Enter the URL of a profile on holidaycheck.de.",
    },
    { input: "hotel veniqui", error: "Enter a valid URL." },
  ],
});
