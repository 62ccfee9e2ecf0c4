import { z } from "@hono/zod-openapi";
import { canonicalPublisherKey, isOnDomain } from "../../domain/publishers/canonical";
import { publisherRules } from "../../domain/publishers/rules";
import { MSG, drfBoolean, drfDict, drfList, drfObject, drfString, isHttpUrl } from "../validation";

export const MAX_PUBLISHERS = 25;
export const MAX_REVIEW_HASHES = 10_000;
export const MAX_COOKIES = 50;

export const CookieSchema = drfObject({
  name: drfString({ max: 4096 }),
  value: drfString({ max: 4096, allowBlank: true }),
  domain: drfString({ max: 255 }),
}).openapi("Cookie");

export const PersonaSchema = drfObject({
  additional_cookies: drfObject({
    login: drfList(CookieSchema, { max: MAX_COOKIES }).optional(),
  }).optional(),
}).openapi("Persona");

export const PublisherConfigSchema = drfObject({
  profile_key: drfString({ max: 2048, allowBlank: true }).optional().openapi({
    description: "Profile URL on the publisher's domain, or an id where the publisher's adapter can build the URL.",
  }),
  last_review_hashes: drfList(drfString({ max: 128 }), { max: MAX_REVIEW_HASHES }),
  first_page_only: drfBoolean().openapi({ type: "boolean" }),
  persona: PersonaSchema.optional(),
}).openapi("PublisherConfiguration", {
  example: { profile_key: "https://www.trustpilot.com/review/example.com", last_review_hashes: [], first_page_only: false },
});

export type PublisherConfig = z.output<typeof PublisherConfigSchema>;

export interface PublisherEntry {
  publisherKey: string;
  /** The resolved profile URL, or "" where the adapter looks the business up. */
  profileUrl: string;
  /** profile_key as the client sent it. */
  profileKey: string;
  config: PublisherConfig;
}

type Issue = { path: PropertyKey[]; message: string };

/** Checks a profile_key against its publisher; returns the profile URL or an error message. */
function resolveProfile(publisherKey: string, profileKey: string | undefined): { url: string } | { error: string } {
  const rules = publisherRules(publisherKey);
  const key = profileKey?.trim() ?? "";
  if (!key) return rules.lookup ? { url: "" } : { error: MSG.required };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(key)) {
    const url = isHttpUrl(key);
    if (!url) return { error: MSG.url };
    if (!isOnDomain(url.hostname, publisherKey)) return { error: `Enter a URL on ${publisherKey} or one of its subdomains.` };
    return { url: url.toString() };
  }
  if (rules.profileUrlFromId) return { url: rules.profileUrlFromId(key) };
  return { error: MSG.url };
}

/** Validates one publisher entry beyond its shape: profile_key and the login cookies it needs. */
function publisherIssues(publisherKey: string, config: PublisherConfig): { issues: Issue[]; profileUrl: string } {
  const issues: Issue[] = [];
  const profile = resolveProfile(publisherKey, config.profile_key);
  if ("error" in profile) issues.push({ path: ["profile_key"], message: profile.error });
  if (publisherRules(publisherKey).loginRequired) {
    const persona = config.persona;
    if (!persona) issues.push({ path: ["persona"], message: MSG.required });
    else if (!persona.additional_cookies) issues.push({ path: ["persona", "additional_cookies"], message: MSG.required });
    else if (!persona.additional_cookies.login) issues.push({ path: ["persona", "additional_cookies", "login"], message: MSG.required });
    else if (persona.additional_cookies.login.length === 0) {
      issues.push({ path: ["persona", "additional_cookies", "login"], message: MSG.emptyList });
    }
  }
  return { issues, profileUrl: "error" in profile ? "" : profile.url };
}

/**
 * The publishers map: keys are domains (canonicalized), values publisher configurations. Every
 * entry is checked and all failures are reported under the entry's canonical key (or, for a key
 * that is not a domain, the key as sent).
 */
export const PublishersSchema = drfDict()
  .transform((map, ctx): PublisherEntry[] => {
    const entries = Object.entries(map);
    if (entries.length === 0) ctx.addIssue({ code: "custom", path: [], message: MSG.emptyDict });
    if (entries.length > MAX_PUBLISHERS) ctx.addIssue({ code: "custom", path: [], message: MSG.maxItems(MAX_PUBLISHERS) });
    const seen = new Set<string>();
    const out: PublisherEntry[] = [];
    for (const [rawKey, value] of entries) {
      const publisherKey = canonicalPublisherKey(rawKey);
      if (!publisherKey) {
        ctx.addIssue({ code: "custom", path: [rawKey], message: MSG.domain });
        continue;
      }
      if (seen.has(publisherKey)) {
        ctx.addIssue({ code: "custom", path: [rawKey], message: `Duplicate publisher: "${rawKey}" is the same publisher as "${publisherKey}".` });
        continue;
      }
      seen.add(publisherKey);
      const parsed = PublisherConfigSchema.safeParse(value);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          ctx.addIssue({ code: "custom", path: [publisherKey, ...issue.path], message: issue.message });
        }
        continue;
      }
      const { issues, profileUrl } = publisherIssues(publisherKey, parsed.data);
      for (const issue of issues) ctx.addIssue({ code: "custom", path: [publisherKey, ...issue.path], message: issue.message });
      out.push({ publisherKey, profileUrl, profileKey: parsed.data.profile_key ?? "", config: parsed.data });
    }
    return out;
  })
  .openapi({
    type: "object",
    description: `Map from publisher domain (e.g. "yelp.com") to its configuration; at most ${MAX_PUBLISHERS} entries. Keys are lower-cased and a leading "www." is removed.`,
    additionalProperties: { $ref: "#/components/schemas/PublisherConfiguration" },
  });
