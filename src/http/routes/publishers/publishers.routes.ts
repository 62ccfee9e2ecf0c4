import { createRoute } from "@hono/zod-openapi";
import { errorResponse, internalError } from "../../schemas/common";
import { PublishersResponseSchema } from "./publishers.schemas";

/** The registry changes only with a deploy; an hour keeps clients and caches from asking every time. */
export const PUBLISHERS_CACHE_CONTROL = "public, max-age=3600";

export const publishersRoute = createRoute({
  method: "get",
  path: "/publishers",
  tags: ["Publishers"],
  summary: "List the known publishers",
  description:
    "Every publisher the service knows, with the module that scrapes it, whether submit needs login cookies or accepts an empty profile_key (lookup), and its rating scale. Any other domain is accepted by submit too and scraped by the generic module. No API key is needed; the answer is cacheable (`Cache-Control: public, max-age=3600`, `ETag`). Also served at `/publishers/`.",
  responses: {
    200: { description: "The publisher registry.", content: { "application/json": { schema: PublishersResponseSchema } } },
    405: errorResponse("Any method but GET or HEAD.", { error: 'Method "POST" not allowed.' }),
    500: internalError,
  },
});
