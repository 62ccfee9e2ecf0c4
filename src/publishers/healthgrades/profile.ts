import { declareProfile } from "../kit/profile";

const PAGE = "https://www.healthgrades.com/physician/dr-jane-doe-x2y3z";
const NOT_A_PROFILE = "Enter the URL of a profile on healthgrades.com.";

/**
 * profile_key: a provider's profile URL on healthgrades.com, `/<kind>/<slug>-<pwid>`
 * (`/physician/dr-jane-doe-xy3bz`, `/dentist/…`, `/providers/…`, any tab after it; query dropped),
 * where the provider's id (pwid) ends the slug. Most pwids have 5 characters; a 2025 search page
 * also links `/physician/dr-samantha-prats-z5ppnnj580` with `"pwid":"Z5PPNNJ580"` in its data, so 5
 * to 12 are taken. A 5-character id may be letters only (`XWHBY` in the same page's list); every
 * longer id seen carries a digit, which keeps a surname such as `…-johnson` from passing for one.
 * The walk's key is the pwid upper-case, as the comments API takes it.
 */
export const healthgradesProfile = declareProfile({
  urls: [
    {
      path: /^\/(?<kind>physician|dentist|providers?)\/(?<slug>[a-z0-9][a-z0-9-]{0,150}-(?<pwid>[a-z0-9]{5}|(?=[a-z]{0,11}\d)[a-z0-9]{6,12}))(?:\/|$)/i,
    },
  ],
  page: (g) => `https://www.healthgrades.com/${g.kind.toLowerCase()}/${g.slug.toLowerCase()}`,
  key: (g) => g.pwid.toUpperCase(),
  examples: [
    { input: PAGE, url: PAGE },
    { input: "https://www.healthgrades.com/physician/Dr-Jane-Doe-X2Y3Z?tab=reviews#ratings", url: PAGE },
    {
      input: "https://healthgrades.com/dentist/dr-sam-lee-ab12c/reviews",
      url: "https://www.healthgrades.com/dentist/dr-sam-lee-ab12c",
    },
    // A 10-character pwid, as a real 2025 search page links it (see README.md).
    {
      input: "https://www.healthgrades.com/physician/dr-samantha-prats-z5ppnnj580#reviews",
      url: "https://www.healthgrades.com/physician/dr-samantha-prats-z5ppnnj580",
    },
    {
      input: "https://www.healthgrades.com/physician/dr-amy-roe-xwhby",
      url: "https://www.healthgrades.com/physician/dr-amy-roe-xwhby",
    },
    { input: "https://www.healthgrades.com/find-a-doctor", error: NOT_A_PROFILE },
    // No id: the last part is a surname (longer ids always carry a digit), or too short, or too long.
    { input: "https://www.healthgrades.com/physician/dr-jane-johnson", error: NOT_A_PROFILE },
    { input: "https://www.healthgrades.com/physician/dr-jane-doe", error: NOT_A_PROFILE },
    { input: "https://www.healthgrades.com/physician/dr-jane-doe-x2y3z4a5b6c7d", error: NOT_A_PROFILE },
    { input: "x2y3z", error: "Enter a valid URL." },
  ],
});

/** The provider's pwid (upper-case, as the comments API takes it) of a profile URL, or null. */
export const pwidOf = healthgradesProfile.keyOf;
