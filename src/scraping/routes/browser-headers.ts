/**
 * The header set the `direct` route sends: one consistent desktop Chrome (version, platform and
 * client hints agree with each other and with the User-Agent), instead of a self-declared bot
 * agent that bot walls refuse by policy. A navigation and an API call differ as they do in Chrome
 * (Sec-Fetch-*, Accept, Upgrade-Insecure-Requests). The adapter's own headers (Accept, Referer,
 * Content-Type, API headers) are applied over these by the client.
 */
const CHROME_MAJOR = "131";
const USER_AGENT = `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${CHROME_MAJOR}.0.0.0 Safari/537.36`;
const SEC_CH_UA = `"Google Chrome";v="${CHROME_MAJOR}", "Chromium";v="${CHROME_MAJOR}", "Not_A Brand";v="24"`;

/** Per publisher, what differs from the default profile (the language a publisher serves by). */
const PUBLISHER_OVERRIDES: Record<string, Record<string, string>> = {
  // Google serves its consent interstitial less often to an English browser; the jar keeps the
  // consent cookie once it is set.
  "maps.google.com": { "Accept-Language": "en-US,en;q=0.9" },
  "booking.com": { "Accept-Language": "en-GB,en;q=0.9" },
};

export function browserHeaders(publisherKey: string, api: boolean): Record<string, string> {
  const common: Record<string, string> = {
    "User-Agent": USER_AGENT,
    "Accept-Language": "en-US,en;q=0.9",
    "Accept-Encoding": "gzip, deflate, br",
    "sec-ch-ua": SEC_CH_UA,
    "sec-ch-ua-mobile": "?0",
    "sec-ch-ua-platform": '"Windows"',
  };
  const kind: Record<string, string> = api
    ? { Accept: "*/*", "Sec-Fetch-Dest": "empty", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin" }
    : {
        Accept:
          "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8",
        "Sec-Fetch-Dest": "document",
        "Sec-Fetch-Mode": "navigate",
        "Sec-Fetch-Site": "none",
        "Sec-Fetch-User": "?1",
        "Upgrade-Insecure-Requests": "1",
      };
  return { ...common, ...kind, ...(PUBLISHER_OVERRIDES[publisherKey.toLowerCase()] ?? {}) };
}
