/**
 * Pure parsers for facebook.com page reviews ("recommendations"), as the logged-in web app (Comet)
 * serves them:
 *
 * - The reviews tab (`/<page>/reviews`) embeds its first reviews in `<script type="application/json"
 *   data-sjs>` blocks: `{"require": [["ScheduledServerJS", "handle", null, [{"__bbox": {"require":
 *   [["RelayPrefetchedStreamCache", "next", [], ["<query>", {"__bbox": {"result": {"data": …}}}]]]}}]]]}`,
 *   where `data.user.ratings_list_feed_units.reviews_feed` holds `edges` and `page_info`. The page's id
 *   is in `<meta property="al:android:url" content="fb://profile/<id>">` (or the tab's `userID` prop),
 *   the request tokens in the `DTSGInitialData` and `LSD` definitions.
 * - Older reviews come from POST /api/graphql/ (`ProfileCometReviewsFeedRefetchQuery`, a `doc_id`, and
 *   `variables` with the page `id` and the previous `end_cursor` as `cursor`). The answer is JSON lines
 *   (Relay @stream/@defer): the first line holds `data.node.ratings_list_feed_units.reviews_feed`, each
 *   further edge arrives as a line whose `data` is the edge (`{node, cursor}`), and `page_info` comes
 *   last as `{"data": {"page_info": …}}`.
 *
 * A review is a story node: `post_id`; `comet_sections.content.story` with `actors[0]` (id, name, url),
 * `message.text` and `wwwURL`; `comet_sections.context_layout.story.comet_sections` with `title.story
 * .title.text` ("<name> recommends <page>." or "doesn't recommend") and `metadata[].story.creation_time`
 * (epoch seconds); comments under `comet_sections.feedback.story.story_ufi_container.story
 * .feedback_context.feedback_target_with_context.comment_list_renderer.feedback
 * .comment_rendering_instance_for_feed_location.comments.edges[].node` (author, body.text,
 * created_time, legacy_fbid). The page's own comment is its reply.
 */
import type { RawReview } from "../../core/reviews";
import { permanentError } from "../../scraping/errors";
import { elementAttributes, scriptTexts, valueAfter } from "../kit/html-scan";
import { MAX_WALK_DEPTH, WorkBudget } from "../kit/work-budget";

type Json = unknown;
type Obj = Record<string, Json>;

const isObj = (value: Json): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Follows a path of keys; undefined as soon as one is missing. */
function at(value: Json, ...path: (string | number)[]): Json {
  let node = value;
  for (const key of path) {
    if (typeof key === "number") node = Array.isArray(node) ? node[key] : undefined;
    else node = isObj(node) ? node[key] : undefined;
  }
  return node;
}

const str = (value: Json): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

export interface FeedChunk {
  /** Story nodes in the order the feed gives them (newest first). */
  nodes: Obj[];
  /** Whether a reviews feed was present at all (an empty feed is a real, empty profile). */
  sawFeed: boolean;
  pageInfo: { hasNextPage: boolean; endCursor: string | null } | null;
}

function emptyChunk(): FeedChunk {
  return { nodes: [], sawFeed: false, pageInfo: null };
}

function readPageInfo(value: Json): FeedChunk["pageInfo"] {
  if (!isObj(value) || typeof value.has_next_page !== "boolean") return null;
  return { hasNextPage: value.has_next_page, endCursor: str(value.end_cursor) ?? null };
}

/** Adds one Relay payload's `data` (first result, a streamed edge, or the deferred page_info). */
function addPayload(chunk: FeedChunk, data: Json): void {
  if (!isObj(data)) return;
  for (const owner of [data.user, data.node]) {
    const feed = at(owner, "ratings_list_feed_units", "reviews_feed");
    if (!isObj(feed)) continue;
    chunk.sawFeed = true;
    const edges = Array.isArray(feed.edges) ? feed.edges : [];
    for (const edge of edges) if (isObj(at(edge, "node"))) chunk.nodes.push(at(edge, "node") as Obj);
    chunk.pageInfo = readPageInfo(feed.page_info) ?? chunk.pageInfo;
    return;
  }
  // A streamed edge: `data` is the edge itself.
  if (isObj(data.node) && str(data.node.post_id)) chunk.nodes.push(data.node);
  const info = readPageInfo(data.page_info);
  if (info) {
    chunk.sawFeed = true;
    chunk.pageInfo = info;
  }
}

/**
 * Every `__bbox.result.data` inside a data-sjs block, in document order. Iterative (an explicit
 * stack, no recursion to overflow) and bounded: more steps than the budget allows fail the page
 * with `publisher_error`, and nothing deeper than MAX_WALK_DEPTH is walked (the results sit about a
 * dozen levels down; deeper parts of a block, real or hostile, are not ours to read and are skipped
 * rather than failing a page whose reviews were found).
 */
export function bboxResults(value: Json, budget = new WorkBudget("Facebook reviews tab")): Json[] {
  const found: Json[] = [];
  // Children are pushed in reverse so that they are visited in document order.
  const stack: { node: Json; depth: number }[] = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    budget.spend();
    if (depth > MAX_WALK_DEPTH) continue;
    const children = Array.isArray(node) ? node : isObj(node) ? Object.values(node) : null;
    if (!children) continue;
    if (isObj(node)) {
      const result = at(node, "__bbox", "result");
      if (isObj(result) && Object.hasOwn(result, "data")) found.push(result.data);
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], depth: depth + 1 });
  }
  return found;
}

export interface ReviewsTab {
  pageId: string | null;
  fbDtsg: string | null;
  lsd: string | null;
  feed: FeedChunk;
}

/**
 * Reads the reviews tab's HTML: page id, request tokens and the first reviews. The data-sjs blocks
 * and meta tags are read with HTMLRewriter and the inline definitions from short slices after their
 * markers: no regex runs over the page.
 */
export async function parseReviewsTab(
  html: string,
  budget = new WorkBudget("Facebook reviews tab"),
): Promise<ReviewsTab> {
  const feed = emptyChunk();
  for (const text of await scriptTexts(html, "script[data-sjs]")) {
    let block: Json;
    try {
      block = JSON.parse(text);
    } catch {
      continue; // Not every data-sjs block is ours to read; a broken one is skipped.
    }
    for (const data of bboxResults(block, budget)) addPayload(feed, data);
  }
  const metas = await elementAttributes(html, 'meta[content^="fb://"]', ["content"]);
  const meta = metas
    .map((m) => /^fb:\/\/(?:profile|page)\/(\d{1,25})$/.exec(m.content ?? "")?.[1])
    .find(Boolean);
  const prop = valueAfter(html, '"ProfileCometReviewsTabRoot.react"},"props":{"userID"', {
    maxLength: 25,
    bare: /$^/,
  });
  return {
    pageId: meta ?? (prop && /^\d+$/.test(prop) ? prop : null),
    fbDtsg: valueAfter(html, '["DTSGInitialData",[],{"token"', { maxLength: 512, bare: /$^/ }),
    lsd: valueAfter(html, '["LSD",[],{"token"', { maxLength: 512, bare: /$^/ }),
    feed,
  };
}

/** Facebook's answer to a request that needs a session: `for (;;);{"error":1357001,…}`. */
const LOGIN_ERRORS = new Set([1357001, 1357004]);

/** Reads a GraphQL answer (JSON lines). Throws login_required/blocked/publisher_error for error answers. */
export function parseGraphqlAnswer(text: string): FeedChunk {
  const body = text.replace(/^for \(;;\);/, "");
  const chunk = emptyChunk();
  for (const line of body.split("\n")) {
    if (!line.trim()) continue;
    let payload: Json;
    try {
      payload = JSON.parse(line);
    } catch {
      throw permanentError("publisher_error", "Reviews GraphQL answer is not JSON lines");
    }
    const error = at(payload, "error");
    if (typeof error === "number") {
      if (LOGIN_ERRORS.has(error))
        throw permanentError("login_required", `Reviews GraphQL answer asks to log in (error ${error})`);
      throw permanentError("blocked", `Reviews GraphQL answer refused the request (error ${error})`);
    }
    const errors = at(payload, "errors");
    if (Array.isArray(errors) && errors.length > 0 && !isObj(at(payload, "data"))) {
      const message = str(at(errors, 0, "message")) ?? "unknown error";
      throw permanentError("publisher_error", `Reviews GraphQL answered errors: ${message}`);
    }
    addPayload(chunk, at(payload, "data"));
  }
  return chunk;
}

/**
 * The review's `recommendation_type` (POSITIVE → 5, NEGATIVE → 1), as 2026 clients read it: the
 * first such field in the story node, looked for breadth first within MAX_WALK_DEPTH levels and the
 * work budget (its exact place in the node is not pinned down by the clients, which search for it).
 * Null when the node carries none.
 */
export function recommendationType(node: Obj, budget = new WorkBudget("Facebook review node")): 1 | 5 | null {
  let level: Json[] = [node];
  for (let depth = 0; depth <= MAX_WALK_DEPTH && level.length > 0; depth++) {
    const next: Json[] = [];
    for (const item of level) {
      budget.spend();
      // Pushed one by one: spreading a huge array as arguments would overflow the stack.
      const children = Array.isArray(item) ? item : isObj(item) ? Object.values(item) : [];
      if (isObj(item)) {
        const type = Object.hasOwn(item, "recommendation_type") ? item.recommendation_type : undefined;
        if (type === "POSITIVE") return 5;
        if (type === "NEGATIVE") return 1;
      }
      for (const child of children) next.push(child);
    }
    level = next;
  }
  return null;
}

/** recommends → 5, doesn't recommend → 1, from the English title (older pages, no recommendation_type). */
export function recommendationRating(title: string): 1 | 5 | null {
  // Real titles are one short sentence; a longer one is cut before any pattern reads it.
  const text = title.slice(0, 1000).replace(/[’‘]/g, "'").toLowerCase();
  if (/\b(doesn't|does not) recommend\b/.test(text)) return 1;
  if (/\brecommends\b/.test(text)) return 5;
  return null;
}

const iso = (seconds: Json): string | undefined =>
  typeof seconds === "number" && Number.isFinite(seconds)
    ? new Date(seconds * 1000).toISOString()
    : undefined;

/** The first metadata entry that carries the story's creation time. */
function creationTime(sections: Json): Json {
  const metadata = at(sections, "metadata");
  if (!Array.isArray(metadata)) return undefined;
  for (const item of metadata) {
    const time = at(item, "story", "creation_time");
    if (typeof time === "number") return time;
  }
  return undefined;
}

/** The page's own comment on a review (its public reply), if any. */
function ownerReply(node: Obj, pageId: string): { text: string; date?: string } | null {
  const comments = at(
    node,
    "comet_sections",
    "feedback",
    "story",
    "story_ufi_container",
    "story",
    "feedback_context",
    "feedback_target_with_context",
    "comment_list_renderer",
    "feedback",
    "comment_rendering_instance_for_feed_location",
    "comments",
    "edges",
  );
  if (!Array.isArray(comments)) return null;
  for (const edge of comments) {
    const comment = at(edge, "node");
    const authorId = str(at(comment, "author", "id")) ?? str(at(comment, "user", "id"));
    const text = str(at(comment, "body", "text")) ?? str(at(comment, "body_renderer", "text"));
    if (authorId === pageId && text) return { text, date: iso(at(comment, "created_time")) };
  }
  return null;
}

/** One story node → a RawReview. Throws publisher_error naming what is missing. */
export function reviewFromNode(node: Obj, pageId: string): RawReview {
  const id = str(node.post_id);
  if (!id) throw permanentError("publisher_error", "Review node without post_id");
  const story = at(node, "comet_sections", "content", "story");
  const actor = at(story, "actors", 0);
  const name = str(at(actor, "name"));
  if (!name)
    throw permanentError(
      "publisher_error",
      `Review ${id} without comet_sections.content.story.actors[0].name`,
    );
  const context = at(node, "comet_sections", "context_layout", "story", "comet_sections");
  const title = str(at(context, "title", "story", "title", "text"));
  // recommendation_type reads the same in every interface language; the English title is the fallback.
  const rating = recommendationType(node) ?? (title ? recommendationRating(title) : null);
  if (rating === null)
    throw permanentError(
      "publisher_error",
      title
        ? `Review ${id} has no recommendation_type and its title says neither recommends nor doesn't recommend: "${title.slice(0, 200)}"`
        : `Review ${id} without recommendation_type nor its title (comet_sections.context_layout…title.text)`,
    );
  const date = iso(creationTime(context));
  if (!date) throw permanentError("publisher_error", `Review ${id} without metadata[].story.creation_time`);
  const text = str(at(story, "message", "text"));
  const url = str(at(story, "wwwURL")) ?? str(at(story, "url"));
  const reply = ownerReply(node, pageId);
  return {
    id,
    author_name: name,
    ...(str(at(actor, "id")) ? { author_id: str(at(actor, "id")) } : {}),
    ...(str(at(actor, "url")) ? { author_url: str(at(actor, "url")) } : {}),
    rating: { value: rating, best: 5, worst: 1 },
    ...(text ? { text } : {}),
    ...(url ? { url } : {}),
    date,
    ...(reply ? { reply_text: reply.text, ...(reply.date ? { reply_date: reply.date } : {}) } : {}),
  };
}
