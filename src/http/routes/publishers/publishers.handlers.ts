import type { Handler } from "hono";
import { listPublishers, type PublisherListing } from "../../../publishers/registry";
import type { AppEnv } from "../../context";
import { PUBLISHERS_CACHE_CONTROL } from "./publishers.routes";
import type { PublisherRow, PublishersResponse } from "./publishers.schemas";

function toRow(listing: PublisherListing): PublisherRow {
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
    support: listing.support,
    ...(listing.support === "dedicated" && listing.evidenceDate ? { evidence_date: listing.evidenceDate } : {}),
    ...(listing.note ? { note: listing.note } : {}),
  };
}

/** The registry is fixed for a deployment: built once per isolate. */
let body: PublishersResponse | undefined;

export const publishersHandler: Handler<AppEnv> = (c) => {
  body ??= (() => {
    const publishers = listPublishers().map(toRow);
    return { count: publishers.length, publishers };
  })();
  return c.json(body, 200, { "Cache-Control": PUBLISHERS_CACHE_CONTROL });
};
