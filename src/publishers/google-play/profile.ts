import { declareProfile } from "../kit/profile";
import { formatPlayKey, parsePlayKey, type PlayKey } from "./rpc";

/** An Android package name, e.g. com.example.app. */
const PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+$/;
const LANGUAGE = /^[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?$/;
const COUNTRY = /^[a-z]{2}$/i;

export function detailsUrl(key: PlayKey): string {
  const url = new URL("https://play.google.com/store/apps/details");
  url.searchParams.set("id", key.appId);
  url.searchParams.set("hl", key.hl);
  url.searchParams.set("gl", key.gl);
  return url.toString();
}

/** The app, language and country of a details page URL (defaults: en, us), or null. */
export function playKeyOf(url: URL): string | null {
  if (url.pathname !== "/store/apps/details") return null;
  const appId = url.searchParams.get("id") ?? "";
  if (appId.length > 200 || !PACKAGE.test(appId)) return null;
  const hl = url.searchParams.get("hl") ?? "";
  const gl = url.searchParams.get("gl") ?? "";
  return formatPlayKey({
    appId,
    hl: LANGUAGE.test(hl) ? hl : "en",
    gl: COUNTRY.test(gl) ? gl.toLowerCase() : "us",
  });
}

const PAGE = "https://play.google.com/store/apps/details?id=com.acme.notes&hl=en&gl=us";
const NOT_A_PROFILE = "Enter the URL of a profile on play.google.com.";

/**
 * profile_key: the app's details page (its `hl` and `gl` pick the language and country whose
 * reviews Google Play shows; en and us when absent), or the bare package name. Custom rules: the
 * query's optional parts fall back to defaults rather than refusing the URL.
 */
export const googlePlayProfile = declareProfile({
  urls: [
    (url) => {
      const key = playKeyOf(url);
      return key ? detailsUrl(parsePlayKey(key)) : null;
    },
  ],
  ids: [
    (id) => (id.length <= 200 && PACKAGE.test(id) ? detailsUrl({ appId: id, hl: "en", gl: "us" }) : null),
  ],
  examples: [
    { input: "https://play.google.com/store/apps/details?id=com.acme.notes", url: PAGE },
    {
      input: "https://play.google.com/store/apps/details?id=com.acme.notes&hl=de&gl=AT&showAllReviews=true",
      url: "https://play.google.com/store/apps/details?id=com.acme.notes&hl=de&gl=at",
    },
    { input: "com.acme.notes", url: PAGE },
    { input: "https://play.google.com/store/apps/developer?id=Acme", error: NOT_A_PROFILE },
    { input: "https://play.google.com/store/apps/details?id=not%20a%20package", error: NOT_A_PROFILE },
    {
      input: "https://apps.apple.com/us/app/id1001",
      error: "Enter a URL on play.google.com or one of its subdomains.",
    },
    { input: "acme notes", error: "Enter a valid URL." },
  ],
});
