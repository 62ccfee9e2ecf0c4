/**
 * DealerRater's dealer review pages, `/dealer/<Slug>-review-<id>/page<N>/`, are server-rendered: one
 * `div.review-entry` per review, newest first, with
 * - `<a name="r8764447">`: the review's id;
 * - `.review-date div.italic`: the date as printed ("October 14, 2021");
 * - `.dealership-rating .rating-static.rating-50`: the overall rating in tenths of a star (50 = 5.0);
 * - `h3`: the title, in quotes, often cut short with "..." by the site;
 * - `span.italic.notranslate`: "- <reviewer>";
 * - `p.review-content`: the text;
 * - `.review-ratings-all`: rows of a label (`div.lt-grey`) and `div.rating-static-indv.rating-NN`
 *   (Customer Service, Quality of Work, Friendliness, Pricing, Overall Experience; `rating-00` when
 *   not rated) and a "Recommend Dealer" Yes/No row;
 * - `.employees-wrapper`: the employees the reviewer worked with.
 * Pages link to the next one (`…/page<N+1>/`). Structure as the markup PranavHerur/fake_review_analyser
 * test_review_html.py copies from the site (README.md, "Evidence").
 */
import { decodeHTML, decodeHTMLAttribute } from "entities";
import type { RawReview } from "../../core/reviews/raw-review";
import type { PageSummary } from "../../core/tasks/publisher-summary";
import { collectJsonLd } from "../../scraping/extract/json-ld";
import { permanentError } from "../../scraping/errors";
import { htmlPass } from "../kit/html-pass";
import { countOf, type WalkPage, type WalkPosition } from "../kit/json-walk";
import type { WorkBudget } from "../kit/work-budget";
import { printedDate } from "../kit/printed-date";

export const WHAT = "DealerRater review page";

/** The sub-ratings a review shows, by their printed label, as the keys `sub_ratings` uses. */
const SUB_RATINGS: Readonly<Record<string, string>> = {
  "customer service": "customer_service",
  "quality of work": "quality_of_work",
  friendliness: "friendliness",
  pricing: "pricing",
  "overall experience": "overall_experience",
};

/** "October 14, 2021" → "2021-10-14" (the kit's printedDate), re-exported for this module's tests. */
export { printedDate };

/** `rating-50` among an element's classes → 5 (tenths of a star); null when absent or not 1–5. */
export function ratingOfClass(classes: string | null): number | null {
  const match = /(?:^|\s)rating-(\d{1,3})(?:\s|$)/.exec(classes ?? "");
  const value = match ? Number(match[1]) / 10 : NaN;
  return value >= 1 && value <= 5 ? value : null;
}

interface Entry {
  id: string | null;
  date: string;
  rating: number | null;
  title: string;
  author: string;
  text: string;
  label: string | null;
  sub: Record<string, number>;
}

const clean = (s: string) => decodeHTML(s).replace(/\s+/g, " ").trim();

/** The page as read: its review entries, its links to numbered pages, its JSON-LD items. */
export interface DealerPage {
  entries: Entry[];
  hrefs: string[];
  jsonLd: unknown[];
}

/** Reads the page in one HTMLRewriter pass, every element and text chunk counted against `budget`. */
export async function readDealerPage(html: string, budget: WorkBudget): Promise<DealerPage> {
  const entries: Entry[] = [];
  const hrefs: string[] = [];
  const current = () => entries[entries.length - 1];
  // Text fields collect chunks until the element closes; `field` names the one being read.
  let field: "date" | "title" | "author" | "text" | "label" | null = null;
  const into = (name: NonNullable<typeof field>): HTMLRewriterElementContentHandlers => ({
    element: (el) => {
      const entry = current();
      if (!entry) return;
      // A label row starts a new label; of the other fields only the entry's first element counts
      // (a second h3 or paragraph is not the title or the text).
      if (name === "label") entry.label = "";
      else if (entry[name] !== "") return;
      field = name;
      el.onEndTag(() => {
        field = null;
        if (name === "label" && entry.label !== null) entry.label = clean(entry.label).toLowerCase();
      });
    },
    text: (chunk) => {
      const entry = current();
      if (!entry || field !== name) return;
      budget.spend();
      if (name === "label") entry.label = (entry.label ?? "") + chunk.text;
      else entry[name] += chunk.text;
    },
  });
  const rewriter = new HTMLRewriter()
    .on("*", { element: () => budget.spend() })
    .on("div.review-entry", {
      element() {
        entries.push({
          id: null,
          date: "",
          rating: null,
          title: "",
          author: "",
          text: "",
          label: null,
          sub: {},
        });
      },
    })
    .on("div.review-entry a[name]", {
      element(el) {
        const entry = current();
        const name = el.getAttribute("name") ?? "";
        if (entry && entry.id === null && /^r\d{1,12}$/.test(name)) entry.id = name.slice(1);
      },
    })
    .on("div.review-entry .review-date div.italic", into("date"))
    .on("div.review-entry .dealership-rating .rating-static", {
      element(el) {
        const entry = current();
        if (entry && entry.rating === null) entry.rating = ratingOfClass(el.getAttribute("class"));
      },
    })
    .on("div.review-entry h3", into("title"))
    .on("div.review-entry span.italic.notranslate", into("author"))
    .on("div.review-entry p.review-content", into("text"))
    .on("div.review-entry p.review-content br", {
      element() {
        const entry = current();
        if (entry) entry.text += "\n";
      },
    })
    .on("div.review-entry .review-ratings-all div.lt-grey", into("label"))
    .on("div.review-entry .review-ratings-all .rating-static-indv", {
      element(el) {
        const entry = current();
        const key = entry?.label ? SUB_RATINGS[entry.label] : undefined;
        const value = ratingOfClass(el.getAttribute("class"));
        if (entry && key && value !== null) entry.sub[key] = value;
      },
    })
    .on("a[href]", {
      element(el) {
        // Only page links are kept: a page's many other links (menus, shares, employees) must not
        // crowd them out of the bounded list.
        const href = decodeHTMLAttribute(el.getAttribute("href") ?? "");
        if (hrefs.length < 500 && /\/page\d{1,5}\//.test(href)) hrefs.push(href.slice(0, 500));
      },
    });
  const jsonLd = collectJsonLd(rewriter);
  await htmlPass(rewriter, html, budget);
  return { entries, hrefs, jsonLd: jsonLd() };
}

function rawReview(entry: Entry, pageUrl: string): RawReview | null {
  if (entry.rating === null) return null;
  // The title is printed in quotes: “"First time to finance…"”.
  const title = clean(entry.title)
    .replace(/^"(.*)"$/s, "$1")
    .trim();
  const author = clean(entry.author).replace(/^-\s*/, "").trim();
  const text = decodeHTML(entry.text)
    .split("\n")
    .map((line) => line.replace(/[ \t\r\f\v]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  const date = clean(entry.date);
  return {
    // The review's own address is the share link its page carries (`/consumer/social/<id>`).
    ...(entry.id
      ? { id: entry.id, url: `https://www.dealerrater.com/consumer/social/${entry.id}` }
      : { url: pageUrl }),
    ...(author ? { author_name: author } : {}),
    rating: { value: entry.rating, best: 5, worst: 1 },
    text,
    ...(title ? { title } : {}),
    ...(date ? { date: printedDate(date) } : {}),
    ...(Object.keys(entry.sub).length ? { sub_ratings: entry.sub } : {}),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The dealer's rating and review count from a JSON-LD `aggregateRating`, where the page carries one
 * (no public capture shows one: README.md, "Assumed"); null otherwise.
 */
function aggregateOf(
  items: unknown[],
  budget: WorkBudget,
): { total: number | null; summary: PageSummary } | null {
  for (const item of items) {
    budget.spend();
    const aggregate = isObject(item) && isObject(item.aggregateRating) ? item.aggregateRating : null;
    if (!aggregate) continue;
    const rating = Number(aggregate.ratingValue);
    return {
      total: countOf(aggregate.reviewCount) ?? countOf(aggregate.ratingCount),
      summary: { rating: Number.isFinite(rating) ? rating : null, ratingScale: "1-5" },
    };
  }
  return null;
}

/**
 * Reads one review page. The next page is the one the page links to (`…-<id>/page<N+1>/`); a page
 * with no review entries is publisher_error (a changed layout must never read as "no reviews"), and
 * so is a page whose every entry lacks its star rating.
 */
export function parseDealerPage(
  page: DealerPage,
  ctx: { key: string; pageUrl: string; position: WalkPosition; budget: WorkBudget },
): WalkPage {
  if (page.entries.length === 0)
    throw permanentError(
      "publisher_error",
      `${WHAT}: no div.review-entry blocks on page ${ctx.position.page}`,
    );
  const reviews: RawReview[] = [];
  for (const entry of page.entries) {
    ctx.budget.spend();
    const review = rawReview(entry, ctx.pageUrl);
    if (review) reviews.push(review);
  }
  if (reviews.length === 0)
    throw permanentError(
      "publisher_error",
      `${WHAT}: no review on page ${ctx.position.page} has its rating (.dealership-rating .rating-static.rating-NN)`,
    );
  const nextPage = ctx.position.page + 1;
  const linksNext = page.hrefs.some((href) => href.includes(`-${ctx.key}/page${nextPage}/`));
  const aggregate = ctx.position.page === 1 ? aggregateOf(page.jsonLd, ctx.budget) : null;
  return {
    reviews,
    next: linksNext ? { page: nextPage, token: null } : null,
    ...(aggregate ? { publisherTotal: aggregate.total, summary: aggregate.summary } : {}),
  };
}
