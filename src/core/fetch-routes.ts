/**
 * What FETCH_ROUTES may name, and what each provider needs (a pure module: settings.ts parses the
 * setting with these schemas, so it imports nothing that does I/O).
 */
import { z } from "zod";

/** The unblocking providers built in, with the Worker secret holding each one's key. */
export const PROVIDERS = {
  zyte: { secret: "ZYTE_API_KEY", origin: "https://api.zyte.com", needs: [] },
  brightdata: {
    secret: "BRIGHTDATA_API_KEY",
    origin: "https://api.brightdata.com",
    needs: ["BRIGHTDATA_ZONE"],
  },
  scrapfly: { secret: "SCRAPFLY_API_KEY", origin: "https://api.scrapfly.io", needs: [] },
} as const satisfies Record<string, { secret: string; origin: string; needs: readonly string[] }>;

export type ProviderName = keyof typeof PROVIDERS;
export const PROVIDER_NAMES = Object.keys(PROVIDERS) as ProviderName[];

export type RouteName = "direct" | "browser" | `provider:${ProviderName}`;
/** What a route is counted as: `requests: {"direct": n, "browser": n, "provider": n}`. */
export type RouteKind = "direct" | "browser" | "provider";

export function isProviderName(name: string): name is ProviderName {
  return Object.hasOwn(PROVIDERS, name);
}

export function routeKind(route: RouteName): RouteKind {
  return route === "direct" || route === "browser" ? route : "provider";
}

export function providerOf(route: RouteName): ProviderName | null {
  return route.startsWith("provider:") ? (route.slice("provider:".length) as ProviderName) : null;
}

const RouteNameSchema = z.string().transform((name, ctx): RouteName => {
  if (name === "direct" || name === "browser") return name;
  if (name.startsWith("provider:")) {
    const provider = name.slice("provider:".length);
    if (isProviderName(provider)) return `provider:${provider}`;
    ctx.addIssue({
      code: "custom",
      message: `unknown provider "${provider}" (known: ${PROVIDER_NAMES.join(", ")})`,
    });
    return z.NEVER;
  }
  ctx.addIssue({
    code: "custom",
    message: `unknown route "${name}" (routes: direct, browser, provider:<${PROVIDER_NAMES.join("|")}>)`,
  });
  return z.NEVER;
});

/** Publisher key (as in GET /publishers, or "*" for every other publisher) → routes tried in order. */
export const FetchRoutesSchema = z
  .record(z.string().min(1), z.array(RouteNameSchema).min(1, "needs at least one route"))
  .transform((routes) => {
    const lower: Record<string, RouteName[]> = {};
    for (const [publisher, list] of Object.entries(routes))
      lower[publisher.trim().toLowerCase()] = [...new Set(list)];
    if (!lower["*"]) lower["*"] = ["direct"];
    return lower;
  });
export type FetchRoutes = z.output<typeof FetchRoutesSchema>;

export const ProviderOriginsSchema = z
  .record(z.string(), z.url())
  .transform((origins, ctx): Partial<Record<ProviderName, string>> => {
    for (const name of Object.keys(origins)) {
      if (!isProviderName(name))
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: `unknown provider "${name}" (known: ${PROVIDER_NAMES.join(", ")})`,
        });
    }
    return origins;
  });

/** The routes for a publisher: its own list, else the "*" list. */
export function routesFor(routes: FetchRoutes, publisherKey: string): RouteName[] {
  return routes[publisherKey.toLowerCase()] ?? routes["*"] ?? ["direct"];
}

/**
 * What is missing for the configured routes to work: a provider named without its secret (or, for
 * Bright Data, without its zone). `isSet` answers whether a Worker secret is set, never its value.
 */
export function routeProblems(
  routes: FetchRoutes,
  brightdataZone: string,
  isSet: (secret: string) => boolean,
): string[] {
  const problems: string[] = [];
  const named = new Set(
    Object.values(routes)
      .flat()
      .map(providerOf)
      .filter((p) => p !== null),
  );
  for (const provider of named) {
    const { secret, needs } = PROVIDERS[provider];
    if (!isSet(secret))
      problems.push(
        `route provider:${provider} needs the Worker secret ${secret} (wrangler secret put ${secret}; locally a line in .dev.vars)`,
      );
    for (const setting of needs) {
      if (setting === "BRIGHTDATA_ZONE" && !brightdataZone)
        problems.push(`route provider:${provider} needs the setting ${setting} (the Web Unlocker zone name)`);
    }
  }
  return problems;
}
