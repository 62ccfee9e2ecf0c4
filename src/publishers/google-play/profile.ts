import { resolveProfile } from "../kit/profile";
import type { ProfileResolution } from "../types";
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

/**
 * profile_key: the app's details page (its `hl` and `gl` pick the language and country whose
 * reviews Google Play shows; en and us when absent), or the bare package name.
 */
export function resolveGooglePlayProfile(profileKey: string, publisherKey: string): ProfileResolution {
  return resolveProfile(profileKey, publisherKey, {
    fromId: (id) =>
      id.length <= 200 && PACKAGE.test(id) ? detailsUrl({ appId: id, hl: "en", gl: "us" }) : null,
    fromUrl: (url) => {
      const key = playKeyOf(url);
      return key ? detailsUrl(parsePlayKey(key)) : null;
    },
  });
}
