import { resolveProfile } from "../kit/profile";
import type { ProfileResolution } from "../types";
import { appStoreKey } from "./feed";

/** `/<cc>/app/<slug>/id<n>`, `/app/id<n>`, with or without the storefront and the slug. */
const APP_PATH = /^\/(?:([a-z]{2})\/)?app\/(?:[^/]{1,200}\/)?id(\d{1,12})\/?$/i;
const DEFAULT_STOREFRONT = "us";

export function appPageUrl(storefront: string, appId: string): string {
  return `https://apps.apple.com/${storefront}/app/id${appId}`;
}

/** `<cc>:<id>` of an app page URL; the storefront defaults to the US one, as Apple's links do. */
export function appKeyOf(url: URL): string | null {
  const match = APP_PATH.exec(url.pathname);
  return match ? appStoreKey((match[1] ?? DEFAULT_STOREFRONT).toLowerCase(), match[2]) : null;
}

/**
 * profile_key: an app page on apps.apple.com or itunes.apple.com (its storefront, `/gb/`, picks the
 * country whose reviews are read), or the numeric app id with or without `id` (US storefront).
 */
export function resolveAppStoreProfile(profileKey: string, publisherKey: string): ProfileResolution {
  return resolveProfile(profileKey, publisherKey, {
    hosts: ["apps.apple.com", "itunes.apple.com"],
    fromId: (id) =>
      /^(?:id)?\d{1,12}$/.test(id) ? appPageUrl(DEFAULT_STOREFRONT, id.replace(/^id/, "")) : null,
    fromUrl: (url) => {
      const key = appKeyOf(url);
      if (!key) return null;
      const [storefront, appId] = key.split(":");
      return appPageUrl(storefront, appId);
    },
  });
}
