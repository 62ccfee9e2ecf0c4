import type { RawRating, RawReview } from "../../core/reviews/raw-review";
import type { WorkBudget } from "../../publishers/kit/work-budget";
import {
  firstLiteral,
  hasType,
  isNode,
  ITEM_LANGUAGE,
  literal,
  nodeId,
  typesOf,
  valuesOf,
  type SchemaNode,
} from "./schema-node";

const REVIEW_TYPES = new Set(["Review", "UserReview", "CriticReview", "EmployerReview"]);
const REPLY_TYPES = new Set(["Comment", "Answer"]);
const PERSON_TYPES = new Set(["Person"]);

/** Walks every node, however deeply nested, once; `@id` references are resolved through `index`. */
class NodeGraph {
  private readonly index = new Map<string, SchemaNode>();
  readonly all: SchemaNode[] = [];

  constructor(roots: SchemaNode[], budget: WorkBudget) {
    const seen = new Set<SchemaNode>();
    // Nesting is bounded where items are read (MAX_JSON_LD_DEPTH, MAX_ITEM_DEPTH); every node is
    // visited once, and each visit is counted so the walk stays linear in the page.
    const visit = (value: unknown) => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (!isNode(value) || seen.has(value)) return;
      budget.spend(1);
      seen.add(value);
      this.all.push(value);
      const id = nodeId(value);
      const known = id ? this.index.get(id) : undefined;
      // The fullest description of an id wins over bare references to it.
      if (id && (!known || Object.keys(value).length > Object.keys(known).length)) this.index.set(id, value);
      for (const [key, child] of Object.entries(value)) if (key !== "@id" && key !== "@type") visit(child);
    };
    roots.forEach(visit);
  }

  /** The node itself, or the node a bare `{"@id": ...}` reference points to. */
  resolve(value: unknown): unknown {
    if (!isNode(value)) return value;
    const id = nodeId(value);
    return id && Object.keys(value).length === 1 ? (this.index.get(id) ?? value) : value;
  }

  first(node: SchemaNode, property: string): unknown {
    return this.resolve(valuesOf(node, property)[0]);
  }
}

function absoluteUrl(value: string | undefined, baseUrl: string): string | undefined {
  if (!value) return undefined;
  return URL.parse(value.trim(), baseUrl)?.toString() ?? undefined;
}

function identifier(node: SchemaNode): string | undefined {
  const value = valuesOf(node, "identifier")[0];
  return literal(value) ?? (isNode(value) ? firstLiteral(value, "value", "@value") : undefined);
}

function rating(graph: NodeGraph, review: SchemaNode): RawRating | undefined {
  const given = graph.first(review, "reviewRating") ?? graph.first(review, "rating");
  if (isNode(given)) {
    const value = firstLiteral(given, "ratingValue", "value");
    if (value === undefined) return undefined;
    const best = firstLiteral(given, "bestRating");
    const worst = firstLiteral(given, "worstRating");
    return { value, ...(best === undefined ? {} : { best }), ...(worst === undefined ? {} : { worst }) };
  }
  const value = literal(given) ?? firstLiteral(review, "ratingValue");
  return value === undefined ? undefined : { value };
}

function author(
  graph: NodeGraph,
  review: SchemaNode,
  baseUrl: string,
): Pick<RawReview, "author_name" | "author_id" | "author_url"> {
  const given = graph.first(review, "author") ?? graph.first(review, "creator");
  if (!isNode(given)) return { author_name: literal(given) };
  const fullName = [firstLiteral(given, "givenName"), firstLiteral(given, "familyName")]
    .filter(Boolean)
    .join(" ");
  const url = absoluteUrl(firstLiteral(given, "url"), baseUrl);
  return {
    author_name: firstLiteral(given, "name", "alternateName") ?? (fullName || undefined),
    author_id: identifier(given) ?? (nodeId(given) !== url ? nodeId(given) : undefined),
    author_url: url,
  };
}

/**
 * The review's own language: `inLanguage` (any syntax), else the `lang` attribute of a microdata or
 * RDFa review's element or of the element holding its text (ITEM_LANGUAGE; never `<html lang>`).
 */
function language(graph: NodeGraph, review: SchemaNode): string | undefined {
  const given = graph.first(review, "inLanguage");
  const stated = isNode(given) ? firstLiteral(given, "alternateName", "name") : literal(given);
  return stated ?? literal(review[ITEM_LANGUAGE]);
}

/**
 * The owner's public answer: a comment on the review written by an organisation rather than a
 * person (schema.org has no dedicated property; this is how sites that publish replies mark them).
 */
function replyText(graph: NodeGraph, review: SchemaNode): string | undefined {
  for (const value of valuesOf(review, "comment")) {
    const comment = graph.resolve(value);
    if (!isNode(comment) || !hasType(comment, REPLY_TYPES)) continue;
    const by = graph.first(comment, "author");
    if (isNode(by) && typesOf(by).length && !hasType(by, PERSON_TYPES))
      return firstLiteral(comment, "text", "reviewBody", "description");
  }
  return undefined;
}

function toRawReview(graph: NodeGraph, review: SchemaNode, baseUrl: string): RawReview {
  const raw: RawReview = {
    id: identifier(review) ?? nodeId(review),
    ...author(graph, review, baseUrl),
    rating: rating(graph, review),
    text: firstLiteral(review, "reviewBody", "text", "description"),
    url: absoluteUrl(firstLiteral(review, "url"), baseUrl),
    date: firstLiteral(review, "datePublished", "dateCreated", "dateModified"),
    language: language(graph, review),
    reply_text: replyText(graph, review),
  };
  return Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
}

/**
 * The review count an AggregateRating states (`reviewCount`, not `ratingCount`: ratings without a
 * text never appear as reviews), when the page states exactly one; a page listing several
 * businesses' counts states none for the profile.
 */
function statedReviewCount(graph: NodeGraph): number | null {
  const counts = new Set<number>();
  for (const node of graph.all) {
    if (!hasType(node, AGGREGATE_TYPES)) continue;
    const text = firstLiteral(node, "reviewCount")?.trim().replace(/[,\s]/g, "");
    if (text === undefined || text.length > 12 || !/^\d+$/.test(text)) continue;
    counts.add(Number(text));
  }
  return counts.size === 1 ? [...counts][0] : null;
}

const AGGREGATE_TYPES = new Set(["AggregateRating"]);

export interface SchemaReviews {
  reviews: RawReview[];
  /** The page's stated review count, or null. */
  reviewCount: number | null;
}

/** Every schema.org Review among the items of a page (nested anywhere), in document order, and the stated review count. */
export function reviewsFromItems(roots: SchemaNode[], baseUrl: string, budget: WorkBudget): SchemaReviews {
  const graph = new NodeGraph(roots, budget);
  return {
    reviews: graph.all.filter((n) => hasType(n, REVIEW_TYPES)).map((n) => toRawReview(graph, n, baseUrl)),
    reviewCount: statedReviewCount(graph),
  };
}
