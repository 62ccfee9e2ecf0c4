import { z } from "@hono/zod-openapi";
import { canonicalPublisherKey, isOnDomain } from "../../core/publishers/canonical";
import { COOKIE_MSG, CookieSchema } from "../../core/cookies";
import { publisherFor } from "../../publishers/registry";
import { REVIEW_SORTS, parseSince } from "../../core/tasks/collection";
import {
  MSG,
  drfBoolean,
  drfChoice,
  drfInteger,
  drfDict,
  drfList,
  drfObject,
  drfString,
  isPlainObject,
} from "../../core/validation";

export const MAX_PUBLISHERS = 25;
export const MAX_REVIEW_HASHES = 10_000;
export const MAX_COOKIES = 50;

export const PersonaSchema = drfObject({
  additional_cookies: drfObject({
    login: drfList(CookieSchema, { max: MAX_COOKIES }).optional(),
  }).optional(),
}).openapi("Persona");

/** DRF's wording for a date-time in the wrong format, with the forms `since` takes. */
export const SINCE_MSG =
  "Datetime has wrong format. Use one of these formats instead: YYYY-MM-DD, YYYY-MM-DDThh:mm[:ss[.uuu]][+HH:MM|-HH:MM|Z].";

/** `since` as sent (an ISO 8601 date or date-time) → milliseconds since the epoch, UTC. */
const SinceSchema = drfString({ max: 64 })
  .transform((text, ctx) => {
    const since = parseSince(text);
    if (since === null) {
      ctx.addIssue({ code: "custom", message: SINCE_MSG });
      return z.NEVER;
    }
    return since;
  })
  .openapi({
    type: "string",
    description:
      "Collect only reviews posted at or after this moment: an ISO 8601 date (`2026-01-31`, UTC midnight) or date-time (`2026-01-31T08:00:00Z`, `…+01:00`; without an offset it is UTC). A newest-first walk stops at the first older review; with another `sort` older reviews are left out but the walk goes on. Not part of `review_hash`.",
    example: "2026-01-01",
  });

/** The collection options submit and monitors share (docs/api.md, "Collection options"). */
const collectionOptions = {
  since: SinceSchema.optional(),
  max_reviews: drfInteger({ min: 1 }).optional().openapi({
    type: "integer",
    minimum: 1,
    description:
      "Collect at most this many reviews: the first the walk meets (the newest, newest first). The walk fetches no page past the one that reaches it.",
  }),
  sort: drfChoice(REVIEW_SORTS).optional().openapi({
    description:
      "The order the publisher is walked in: `newest` (the default), `relevant` (the publisher's own ranking), `highest` or `lowest` rating first. Only the sorts `GET /publishers` lists for the publisher are accepted. `max_reviews` then keeps the first reviews in that order; retrieve still lists them newest first.",
  }),
};

export const PublisherConfigSchema = drfObject({
  profile_key: drfString({ max: 2048, allowBlank: true }).optional().openapi({
    description:
      "Profile URL on the publisher's domain, or an id where the publisher's adapter can build the URL.",
  }),
  last_review_hashes: drfList(drfString({ max: 128 }), { max: MAX_REVIEW_HASHES }),
  first_page_only: drfBoolean().openapi({ type: "boolean" }),
  persona: PersonaSchema.optional(),
  ...collectionOptions,
}).openapi("PublisherConfiguration", {
  example: {
    profile_key: "https://www.trustpilot.com/review/example.com",
    last_review_hashes: [],
    first_page_only: false,
  },
});

export type PublisherConfig = z.output<typeof PublisherConfigSchema>;

/**
 * A review monitor's publisher configuration: the submit one without `last_review_hashes` (the
 * monitor keeps its own), without `first_page_only` (the monitor decides how far each run walks) and
 * `sort` only as `newest` (a monitor's runs stop at the newest review they know, which needs newest first).
 */
export const MonitorPublisherConfigSchema = PublisherConfigSchema.omit({
  last_review_hashes: true,
  first_page_only: true,
}).openapi("MonitorPublisherConfiguration", {
  example: { profile_key: "https://www.trustpilot.com/review/example.com" },
});

type ConfigSchema = typeof PublisherConfigSchema | typeof MonitorPublisherConfigSchema;

export interface PublisherEntry<C = PublisherConfig> {
  publisherKey: string;
  /** The resolved profile URL, or "" where the adapter looks the business up. */
  profileUrl: string;
  /** profile_key as the client sent it. */
  profileKey: string;
  config: C;
}

type Issue = { path: readonly PropertyKey[]; message: string };

/**
 * Checks a profile_key against its publisher's module; returns the profile URL ("" where the module
 * looks the business up) or an error message.
 */
function resolveProfile(
  publisherKey: string,
  profileKey: string | undefined,
): { url: string } | { error: string } {
  const publisher = publisherFor(publisherKey);
  const key = profileKey?.trim() ?? "";
  if (!key) return publisher.lookup ? { url: "" } : { error: MSG.required };
  return publisher.resolveProfileKey(key);
}

type Persona = z.output<typeof PersonaSchema>;

const CookieDomainField = CookieSchema.shape.domain;

/**
 * A cookie set for another site would never be sent (and a client's cookies for one site must not
 * be handed to another): its domain must be the publisher's, a subdomain (".m.yelp.com") or a
 * parent (".google.com" for maps.google.com). Read from the raw persona so that it is reported, under
 * the cookie's own index, beside any other failure of the same list.
 */
function cookieDomainIssues(publisherKey: string, persona: unknown): Issue[] {
  const cookies =
    isPlainObject(persona) && isPlainObject(persona.additional_cookies)
      ? persona.additional_cookies.login
      : undefined;
  if (!Array.isArray(cookies) || cookies.length > MAX_COOKIES) return [];
  const issues: Issue[] = [];
  cookies.forEach((cookie, index) => {
    const parsed = isPlainObject(cookie) ? CookieDomainField.safeParse(cookie.domain) : null;
    if (!parsed?.success) return; // its own message says what is wrong
    const domain = parsed.data.toLowerCase().replace(/^\./, "").replace(/\.$/, "");
    if (!isOnDomain(domain, publisherKey) && !isOnDomain(publisherKey, domain)) {
      issues.push({
        path: ["persona", "additional_cookies", "login", index, "domain"],
        message: COOKIE_MSG.domain(publisherKey),
      });
    }
  });
  return issues;
}

/** The login cookies a publisher needs; reported at the first level of the persona that is missing. */
function loginIssues(persona: Persona | undefined): Issue[] {
  if (!persona) return [{ path: ["persona"], message: MSG.required }];
  if (!persona.additional_cookies)
    return [{ path: ["persona", "additional_cookies"], message: MSG.required }];
  const login = persona.additional_cookies.login;
  if (!login) return [{ path: ["persona", "additional_cookies", "login"], message: MSG.required }];
  if (login.length === 0)
    return [{ path: ["persona", "additional_cookies", "login"], message: MSG.emptyList }];
  return [];
}

const ProfileKeyField = PublisherConfigSchema.shape.profile_key;
const PersonaField = PublisherConfigSchema.shape.persona;
const SortField = PublisherConfigSchema.shape.sort;

/** A sort the publisher cannot give: refused, never silently ignored. */
const SORT_MSG = (publisherKey: string, sort: string, sorts: readonly string[]) =>
  `${publisherKey} cannot be walked in the "${sort}" order; it offers: ${sorts.join(", ")}.`;

const MONITOR_SORT_MSG =
  'A monitor walks newest first (each run stops at the newest review it knows): sort must be "newest".';

/**
 * Validates one publisher entry: its shape, then the rules of its publisher (profile_key versus
 * lookup, required login cookies). The rules run on every field whose own shape is valid, even when
 * a sibling field failed, so one answer lists every failing field.
 */
function checkEntry<S extends ConfigSchema>(
  configSchema: S,
  publisherKey: string,
  value: unknown,
): { issues: Issue[]; entry?: PublisherEntry<z.output<S>> } {
  const parsed = configSchema.safeParse(value);
  if (!isPlainObject(value)) return { issues: parsed.success ? [] : parsed.error.issues };
  const issues: Issue[] = parsed.success ? [] : [...parsed.error.issues];
  const failed = new Set(issues.map((issue) => issue.path[0]));
  let profileUrl = "";
  const profileKey = ProfileKeyField.safeParse(value.profile_key);
  if (!failed.has("profile_key") && profileKey.success) {
    const profile = resolveProfile(publisherKey, profileKey.data);
    if ("error" in profile) issues.push({ path: ["profile_key"], message: profile.error });
    else profileUrl = profile.url;
  }
  const sort = SortField.safeParse(value.sort);
  if (!failed.has("sort") && sort.success && sort.data !== undefined && sort.data !== "newest") {
    const sorts = publisherFor(publisherKey).sorts;
    if (configSchema === MonitorPublisherConfigSchema)
      issues.push({ path: ["sort"], message: MONITOR_SORT_MSG });
    else if (!sorts.includes(sort.data))
      issues.push({ path: ["sort"], message: SORT_MSG(publisherKey, sort.data, sorts) });
  }
  const persona = PersonaField.safeParse(value.persona);
  if (!failed.has("persona") && persona.success && publisherFor(publisherKey).loginRequired)
    issues.push(...loginIssues(persona.data));
  issues.push(...cookieDomainIssues(publisherKey, value.persona));
  if (issues.length > 0 || !parsed.success) return { issues };
  return {
    issues,
    entry: {
      publisherKey,
      profileUrl,
      profileKey: parsed.data.profile_key ?? "",
      config: parsed.data as z.output<S>,
    },
  };
}

/**
 * The publishers map: keys are domains (canonicalized), values publisher configurations. Every
 * entry is checked and all failures are reported under the entry's canonical key (or, for a key
 * that is not a domain, the key as sent). Submit and review monitors share it with their own
 * configuration schema.
 */
function publishersMap<S extends ConfigSchema>(configSchema: S, configRef: string) {
  return drfDict()
    .transform((map, ctx): PublisherEntry<z.output<S>>[] => {
      const entries = Object.entries(map);
      if (entries.length === 0) ctx.addIssue({ code: "custom", path: [], message: MSG.emptyDict });
      // The count first: tens of thousands of entries (they fit in a 1 MiB body) must not each be
      // validated and reported; one message says what is wrong.
      if (entries.length > MAX_PUBLISHERS) {
        ctx.addIssue({ code: "custom", path: [], message: MSG.maxItems(MAX_PUBLISHERS) });
        return [];
      }
      const seen = new Set<string>();
      const out: PublisherEntry<z.output<S>>[] = [];
      for (const [rawKey, value] of entries) {
        const publisherKey = canonicalPublisherKey(rawKey);
        if (!publisherKey) {
          ctx.addIssue({ code: "custom", path: [rawKey], message: MSG.domain });
          continue;
        }
        if (seen.has(publisherKey)) {
          ctx.addIssue({
            code: "custom",
            path: [rawKey],
            message: `Duplicate publisher: "${rawKey}" is the same publisher as "${publisherKey}".`,
          });
          continue;
        }
        seen.add(publisherKey);
        const { issues, entry } = checkEntry(configSchema, publisherKey, value);
        for (const issue of issues)
          ctx.addIssue({ code: "custom", path: [publisherKey, ...issue.path], message: issue.message });
        if (entry) out.push(entry);
      }
      return out;
    })
    .openapi({
      type: "object",
      description: `Map from publisher domain (e.g. "yelp.com") to its configuration; at most ${MAX_PUBLISHERS} entries. Keys are lower-cased and a leading "www." is removed.`,
      additionalProperties: { $ref: `#/components/schemas/${configRef}` },
    });
}

export const PublishersSchema = publishersMap(PublisherConfigSchema, "PublisherConfiguration");

/** A monitor's publishers: the submit map without last_review_hashes and first_page_only. */
export const MonitorPublishersSchema = publishersMap(
  MonitorPublisherConfigSchema,
  "MonitorPublisherConfiguration",
);
