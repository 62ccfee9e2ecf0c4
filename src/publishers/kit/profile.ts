/**
 * profile_key rules. A module declares them (`declareProfile`): the URL forms of a profile as
 * patterns with named groups, the bare ids it takes, how the groups become the canonical profile
 * URL and the walk's key, and examples of what each input resolves to. The contract test
 * (test/publishers/contract.test.ts) submits every example through the registry, the path submit
 * uses, so the rules and their cases live in one place.
 */
import { isOnDomain } from "../../core/publishers/canonical";
import { MSG, isHttpUrl } from "../../core/validation";
import type { ModuleProfile, ProfileExample, ProfileResolution } from "../types";

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Looks like a URL (a scheme), as opposed to a bare id or slug. */
export function looksLikeUrl(profileKey: string): boolean {
  return HAS_SCHEME.test(profileKey);
}

export interface ProfileRules {
  /** Hosts (and their subdomains) where the publisher serves profiles; the publisher key is always one. */
  hosts?: readonly string[];
  /** Builds the profile URL from an id or slug; absent where only URLs are accepted. */
  fromId?: (id: string) => string | null;
  /** Checks (and may rewrite) a URL on one of the hosts; null refuses it as not a profile. */
  fromUrl?: (url: URL) => string | null;
}

/**
 * The usual profile_key rules: a URL on the publisher's domain (or one of its profile hosts), or an
 * id the module can build a URL from. Messages are the ones docs/api.md names.
 */
export function resolveProfile(
  profileKey: string,
  publisherKey: string,
  rules: ProfileRules = {},
): ProfileResolution {
  if (looksLikeUrl(profileKey)) {
    const url = isHttpUrl(profileKey);
    if (!url) return { error: MSG.url };
    const hosts = [publisherKey, ...(rules.hosts ?? [])];
    if (!hosts.some((host) => isOnDomain(url.hostname, host)))
      return { error: `Enter a URL on ${publisherKey} or one of its subdomains.` };
    const resolved = rules.fromUrl ? rules.fromUrl(url) : url.toString();
    return resolved ? { url: resolved } : { error: `Enter the URL of a profile on ${publisherKey}.` };
  }
  const built = rules.fromId?.(profileKey);
  return built ? { url: built } : { error: MSG.url };
}

/** The named groups of a matched form (`(?<merchant>…)`), with the profile's defaults filled in. */
export type ProfileGroups = Readonly<Record<string, string>>;

/**
 * A profile URL or key from the groups: a template (`https://www.feefo.com/en-GB/reviews/{merchant}`,
 * values inserted as matched, so patterns must bound their characters) or a function. Besides the
 * groups a template may use `{site}` (the publisher key submitted under) and, in a URL form's own
 * `page`, `{origin}` and `{path}` of the given URL.
 */
export type Build = string | ((groups: ProfileGroups, site: string) => string | null);

/** One URL form of a profile: every part given must match, and their named groups name the profile. */
export interface UrlPattern {
  /** Only on this host and its subdomains (default: any host the profile is accepted on). */
  host?: string;
  path?: RegExp;
  /** Query parameters that must be present, each value matched whole (trimmed) by its pattern. */
  query?: Readonly<Record<string, RegExp>>;
  /** This form's profile URL, where it differs from the profile's `page`. */
  page?: Build;
}

export interface ProfileSpec {
  /** Hosts besides the publisher key where profiles are served (country sites, an old domain). */
  hosts?: readonly string[];
  /**
   * URL forms, tried in order: patterns, or custom rules (a function from the URL to the profile
   * URL, or null). A URL on the right host that no form takes is refused as not a profile.
   */
  urls: readonly (UrlPattern | ((url: URL) => string | null))[];
  /** Bare ids, tried in order: whole-string patterns with named groups, or custom rules. */
  ids?: readonly (RegExp | ((id: string, site: string) => string | null))[];
  /** Group values a form may leave out (`{ storefront: "us" }`). */
  defaults?: ProfileGroups;
  /** The canonical profile URL from the groups of a pattern (required when a form is a pattern). */
  page?: Build;
  /** The walk's key from the groups of a URL pattern; by default the value of the only group. */
  key?: Build;
  /** Inputs and what each resolves to: run by the contract test through the registry. */
  examples: readonly ProfileExample[];
}

export interface DeclaredProfile extends ModuleProfile {
  /** The walk's key of a profile URL (any accepted form), or null when no URL pattern matches it. */
  keyOf: (url: URL) => string | null;
}

const TEMPLATE_VAR = /\{(\w+)\}/g;

function build(how: Build, groups: ProfileGroups, site: string): string | null {
  if (typeof how === "function") return how(groups, site);
  return how.replace(TEMPLATE_VAR, (_, name: string) => {
    const value = name === "site" ? site : groups[name];
    if (value === undefined) throw new Error(`Profile template ${how} names {${name}}, which no group gives`);
    return value;
  });
}

function groupsOf(match: RegExpExecArray | null): Record<string, string> | null {
  if (!match) return null;
  const groups: Record<string, string> = {};
  for (const [name, value] of Object.entries(match.groups ?? {}))
    if (value !== undefined) groups[name] = value;
  return groups;
}

function matchUrl(pattern: UrlPattern, url: URL): Record<string, string> | null {
  if (pattern.host && !isOnDomain(url.hostname, pattern.host)) return null;
  const groups = pattern.path ? groupsOf(pattern.path.exec(url.pathname)) : {};
  if (!groups) return null;
  for (const [name, re] of Object.entries(pattern.query ?? {})) {
    const found = groupsOf(re.exec(url.searchParams.get(name)?.trim() ?? ""));
    if (!found) return null;
    Object.assign(groups, found);
  }
  return groups;
}

function namesIn(re: RegExp): string[] {
  return [...re.source.matchAll(/\(\?<(\w+)>/g)].map((m) => m[1]);
}

/** Declaration-time check: every template names groups each pattern gives (else a 5xx at submit). */
function checkTemplates(spec: ProfileSpec): void {
  const defaults = Object.keys(spec.defaults ?? {});
  const needs = (how: Build | undefined, names: readonly string[], what: string) => {
    if (typeof how !== "string") return;
    for (const [, name] of how.matchAll(TEMPLATE_VAR))
      if (!names.includes(name)) throw new Error(`Profile ${what} template ${how}: no group {${name}}`);
  };
  for (const form of spec.urls) {
    if (typeof form === "function") continue;
    const groups = [form.path, ...Object.values(form.query ?? {})].flatMap((re) => (re ? namesIn(re) : []));
    needs(form.page ?? spec.page, [...groups, ...defaults, "site", "origin", "path"], "page");
    needs(spec.key, [...groups, ...defaults], "key");
    if (!spec.key && groups.length !== 1)
      throw new Error(`Profile URL pattern ${String(form.path)} needs a key: it has ${groups.length} groups`);
  }
  for (const form of spec.ids ?? [])
    if (typeof form !== "function") needs(spec.page, [...namesIn(form), ...defaults, "site"], "page");
}

/**
 * Declares a module's profile rules (see ProfileSpec): `resolve` for submit, `keyOf` for the walk,
 * `examples` for the contract test.
 */
export function declareProfile(spec: ProfileSpec): DeclaredProfile {
  const patterns = [...spec.urls, ...(spec.ids ?? [])].filter((form) => typeof form !== "function");
  if (!spec.page && patterns.some((form) => form instanceof RegExp || !form.page))
    throw new Error("A profile with patterns needs its page");
  checkTemplates(spec);
  const withDefaults = (groups: Record<string, string>) => ({ ...spec.defaults, ...groups });
  /** The profile URL of a URL, and the index of the form that took it. */
  const fromUrl = (url: URL, site: string): [string, number] | null => {
    for (const [i, form] of spec.urls.entries()) {
      if (typeof form === "function") {
        const page = form(url);
        if (page) return [page, i];
        continue;
      }
      const groups = matchUrl(form, url);
      if (!groups) continue;
      const extra = { origin: url.origin, path: url.pathname };
      const page = build(form.page ?? spec.page!, { ...extra, ...withDefaults(groups) }, site);
      if (page) return [page, i];
    }
    return null;
  };
  /** The profile URL of a bare id, and the index of the form that took it. */
  const fromId = (id: string, site: string): [string, number] | null => {
    for (const [i, form] of (spec.ids ?? []).entries()) {
      const groups = typeof form === "function" ? null : groupsOf(form.exec(id));
      const page =
        typeof form === "function" ? form(id, site) : groups && build(spec.page!, withDefaults(groups), site);
      if (page) return [page, i];
    }
    return null;
  };
  const describe = (form: UrlPattern | RegExp | ((...args: never[]) => unknown), i: number) =>
    typeof form === "function"
      ? `rule ${i + 1}`
      : form instanceof RegExp
        ? String(form)
        : [form.host, form.path && String(form.path), ...Object.keys(form.query ?? {}).map((q) => `?${q}=`)]
            .filter(Boolean)
            .join(" ");
  return {
    examples: spec.examples,
    resolve: (profileKey, publisherKey) =>
      resolveProfile(profileKey, publisherKey, {
        hosts: spec.hosts,
        fromUrl: (url) => fromUrl(url, publisherKey)?.[0] ?? null,
        fromId: (id) => fromId(id, publisherKey)?.[0] ?? null,
      }),
    untested: () => {
      const urls = new Set<number>();
      const ids = new Set<number>();
      for (const example of spec.examples) {
        if (!("url" in example)) continue;
        // Which form takes an input does not depend on the site (only the page built does).
        const site = example.publisher ?? "example.com";
        const url = looksLikeUrl(example.input) ? isHttpUrl(example.input) : null;
        const taken = url ? fromUrl(url, site) : fromId(example.input, site);
        if (taken) (url ? urls : ids).add(taken[1]);
      }
      return [
        ...spec.urls.flatMap((form, i) => (urls.has(i) ? [] : [`URL form ${describe(form, i)}`])),
        ...(spec.ids ?? []).flatMap((form, i) => (ids.has(i) ? [] : [`id form ${describe(form, i)}`])),
      ];
    },
    keyOf: (url) => {
      for (const form of spec.urls) {
        const groups = typeof form === "function" ? null : matchUrl(form, url);
        if (!groups) continue;
        const all = withDefaults(groups);
        return spec.key ? build(spec.key, all, url.hostname) : (Object.values(groups)[0] ?? null);
      }
      return null;
    },
  };
}
