import type { Handler } from "hono";
import { loadHealth, UNKNOWN_HEALTH, type HealthView } from "../../../app/health/read";
import { COLLECTION_OPTIONS } from "../../../core/tasks/collection";
import { listPublishers, type PublisherListing } from "../../../publishers/registry";
import type { AppEnv } from "../../context";
import { PUBLISHERS_CACHE_CONTROL } from "./publishers.routes";
import type { PublisherRow, PublishersResponse } from "./publishers.schemas";

type StaticRow = Omit<PublisherRow, "health">;

function toRow(listing: PublisherListing): StaticRow {
  return {
    domain: listing.domain,
    aliases: [...listing.aliases],
    display_name: listing.displayName,
    kind: listing.kind,
    module: listing.module,
    dedicated: listing.dedicated,
    login_required: listing.loginRequired,
    // Submit asks for login cookies exactly where the publisher needs a signed-in visitor.
    cookies_required: listing.loginRequired,
    lookup: listing.lookup,
    rating_scale: listing.ratingScale,
    sorts: [...listing.sorts],
    publisher_summary: [...listing.summaryFields],
    // Every publisher takes both: the pipeline applies them to any module's newest-first pages.
    collection_options: [...COLLECTION_OPTIONS],
    review_fields: [...listing.reviewFields],
    support: listing.support,
    ...(listing.support === "dedicated" && listing.evidenceDate
      ? { evidence_date: listing.evidenceDate }
      : {}),
    ...(listing.note ? { note: listing.note } : {}),
  };
}

/** The registry is fixed for a deployment: its rows are built once per isolate; health is read per request. */
let rows: StaticRow[] | undefined;

function withHealth(row: StaticRow, health: Map<string, HealthView>): PublisherRow {
  return { ...row, health: health.get(row.domain)?.health ?? UNKNOWN_HEALTH };
}

export const publishersHandler: Handler<AppEnv> = async (c) => {
  rows ??= listPublishers().map(toRow);
  const health = await loadHealth(c.env, Date.now());
  const body: PublishersResponse = {
    count: rows.length,
    publishers: rows.map((row) => withHealth(row, health)),
  };
  return c.json(body, 200, { "Cache-Control": PUBLISHERS_CACHE_CONTROL });
};

/** GET /publishers/{domain}: one publisher by its domain or an alias (any case, `www.` dropped). */
export const publisherHandler: Handler<AppEnv> = async (c) => {
  rows ??= listPublishers().map(toRow);
  // Hono has decoded the path parameter already (and left a malformed escape as written): decoding
  // it again would turn `%25` into a malformed escape and a URIError.
  const key = (c.req.param("domain") ?? "").toLowerCase().replace(/^www\./, "");
  const row = rows.find((r) => r.domain === key || r.aliases.includes(key));
  if (!row)
    return c.json(
      {
        error: "Not found",
        details: {
          domain: [`No publisher "${key}" is listed; submit still accepts any domain (generic module).`],
        },
      },
      404,
    );
  const health = await loadHealth(c.env, Date.now());
  return c.json(withHealth(row, health), 200, { "Cache-Control": PUBLISHERS_CACHE_CONTROL });
};
