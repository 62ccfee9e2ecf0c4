import { declareProfile } from "../kit/profile";
import { appStoreKey } from "./feed";

const US_PAGE = "https://apps.apple.com/us/app/id1001";

/**
 * profile_key: an app page on apps.apple.com or itunes.apple.com (`/<cc>/app/<slug>/id<n>`, with or
 * without the storefront and the slug; the storefront, `/gb/`, picks the country whose reviews are
 * read and defaults to the US one, as Apple's links do), or the numeric app id with or without `id`
 * (US storefront). The walk's key is `<cc>:<id>`.
 */
export const appStoreProfile = declareProfile({
  hosts: ["apps.apple.com", "itunes.apple.com"],
  urls: [{ path: /^\/(?:(?<storefront>[a-z]{2})\/)?app\/(?:[^/]{1,200}\/)?id(?<appId>\d{1,12})\/?$/i }],
  ids: [/^(?:id)?(?<appId>\d{1,12})$/],
  defaults: { storefront: "us" },
  page: (g) => `https://apps.apple.com/${g.storefront.toLowerCase()}/app/id${g.appId}`,
  key: (g) => appStoreKey(g.storefront.toLowerCase(), g.appId),
  examples: [
    { input: "https://apps.apple.com/us/app/acme-notes/id1001", url: US_PAGE },
    {
      input: "https://apps.apple.com/gb/app/acme-notes/id1002?see-all=reviews",
      url: "https://apps.apple.com/gb/app/id1002",
    },
    { input: "https://apps.apple.com/app/id1001", url: US_PAGE },
    {
      input: "https://itunes.apple.com/de/app/acme-notes/id1001?mt=8",
      url: "https://apps.apple.com/de/app/id1001",
    },
    { input: "id1001", url: US_PAGE },
    { input: "1001", url: US_PAGE },
    {
      input: "https://apps.apple.com/us/developer/acme/id99",
      error: "Enter the URL of a profile on apps.apple.com.",
    },
    {
      input: "https://play.google.com/store/apps/details?id=com.acme",
      error: "Enter a URL on apps.apple.com or one of its subdomains.",
    },
    { input: "acme notes", error: "Enter a valid URL." },
  ],
});
