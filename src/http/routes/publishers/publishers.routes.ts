import { createRoute } from "@hono/zod-openapi";
import { errorResponse, internalError } from "../../schemas/common";
import { z } from "@hono/zod-openapi";
import { PublisherSchema, PublishersResponseSchema } from "./publishers.schemas";

/** The registry changes only with a deploy, but each entry's health changes with every task: a minute. */
export const PUBLISHERS_CACHE_CONTROL = "public, max-age=60";

export const publishersRoute = createRoute({
  method: "get",
  path: "/publishers",
  tags: ["Publishers"],
  summary: "List the known publishers",
  description:
    "Every publisher the service knows, with the module that scrapes it, whether submit needs login cookies or accepts an empty profile_key (lookup), its rating scale, and its coverage: the collection options and sorts it takes (`collection_options`, `sorts`), the parts of `publisher_summary` it reads and the optional review fields it fills (`review_fields`). Any other domain is accepted by submit too and scraped by the generic module. Each entry has its `health` (docs/health.md). No API key is needed; the answer is cacheable (`Cache-Control: public, max-age=60`, `ETag`). Also served at `/publishers/`.",
  responses: {
    200: {
      description: "The publisher registry.",
      content: { "application/json": { schema: PublishersResponseSchema } },
    },
    405: errorResponse("Any method but GET or HEAD.", { error: 'Method "POST" not allowed.' }),
    500: internalError,
  },
});

export const publisherRoute = createRoute({
  method: "get",
  path: "/publishers/{domain}",
  tags: ["Publishers"],
  summary: "One publisher and its health",
  description:
    "The entry of `GET /publishers` for one domain or alias (any case, a leading `www.` dropped), with its health and its coverage (`collection_options`, `sorts`, `publisher_summary`, `review_fields`). No API key.",
  request: { params: z.object({ domain: z.string().openapi({ example: "yelp.com" }) }) },
  responses: {
    200: { description: "The publisher.", content: { "application/json": { schema: PublisherSchema } } },
    404: errorResponse("No publisher with that domain is listed.", {
      error: "Not found",
      details: {
        domain: ['No publisher "example.org" is listed; submit still accepts any domain (generic module).'],
      },
    }),
    405: errorResponse("Any method but GET or HEAD.", { error: 'Method "POST" not allowed.' }),
    500: internalError,
  },
});
