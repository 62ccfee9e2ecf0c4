/**
 * Tabelog's server-rendered review list, `GET https://tabelog.com/{pref}/{A4}/{A6}/{id}/dtlrvwlst/
 * ?smp=1&lc=0&rvw_part=all&srt=visit&sby=D&PG=N` (full texts, newest visit first), as the public
 * clients named in README.md read it. Each review is a card `div.rvw-item` whose `data-detail-url`
 * ends in the review's id (`/dtlrvwlst/B123456789/`), with the reviewer (`a.rvw-item__rvwr-name`,
 * `.rvw-item__rvwr-num`), the score on Tabelog's 1.0–5.0 scale (`.rvw-item__ratings-total
 * .c-rating-v3__val`, dinner first where both are given) and its aspects (`.c-rating-detail__item`:
 * `<span>料理・味</span><strong>3.5</strong>`), the visit month (`.rvw-item__date-inner span`,
 * "2025/03訪問"), the title (`.rvw-item__title-target`), the text (`.rvw-item__rvw-comment p`) and
 * photos (`a.js-imagebox-trigger`). The page header carries the restaurant's score
 * (`.rdheader-rating__score-val-dtl`) and review count (`.rstdtl-navi__total-count em`); a
 * `rel="next"` link says another page follows.
 */
import { decodeHTML } from "entities";
import type { RawReview } from "../../core/reviews";
import { eastAsianVisitDate } from "../../core/reviews/east-asian-dates";
import { permanentError } from "../../scraping/errors";
import { htmlPass } from "../kit/html-pass";
import type { ParseContext, WalkPage, WalkPosition } from "../kit/json-walk";
import type { WorkBudget } from "../kit/work-budget";

export const WHAT = "Tabelog review list";
const ORIGIN = "https://tabelog.com";

/** Page N of a restaurant's reviews, newest visit first, full texts; key is `{pref}/{A4}/{A6}/{id}`. */
export function tabelogReviewsUrl(key: string, position: WalkPosition): string {
  const url = new URL(`${ORIGIN}/${key}/dtlrvwlst/`);
  url.searchParams.set("smp", "1");
  url.searchParams.set("lc", "0");
  url.searchParams.set("rvw_part", "all");
  url.searchParams.set("srt", "visit");
  url.searchParams.set("sby", "D");
  url.searchParams.set("PG", String(position.page));
  return url.toString();
}

/** Tabelog's aspect labels → the API's aspect names; a label not listed is kept as printed. */
const ASPECTS: Record<string, string> = {
  "料理・味": "food",
  サービス: "service",
  雰囲気: "atmosphere",
  CP: "value",
  "酒・ドリンク": "drinks",
};

/** A card as the page pass collects it: raw text pieces, decoded and checked afterwards. */
interface Card {
  detailUrl: string | null;
  author: string;
  country: string;
  authorUrl: string | null;
  authorCount: string;
  ratings: string[];
  /** Aspect labels and values of the first ratings block (dinner where both are given). */
  aspects: { label: string; value: string }[];
  ratingBlocks: number;
  visit: string;
  visitSeen: boolean;
  title: string;
  comment: string;
  photos: string[];
}

/** What one page pass collects. */
export interface TabelogPage {
  cards: Card[];
  score: string;
  total: string;
  hasNext: boolean;
  /** The page is a Tabelog restaurant page (its header is there), whether or not it lists reviews. */
  restaurantHeader: boolean;
}

const MAX_PIECE = 60_000;
/** A text piece of the page, bounded: a hostile page cannot grow one field without limit. */
const add = (current: string, chunk: string) =>
  current.length >= MAX_PIECE ? current : current + chunk.slice(0, MAX_PIECE - current.length);

function newCard(detailUrl: string | null): Card {
  return {
    detailUrl,
    author: "",
    country: "",
    authorUrl: null,
    authorCount: "",
    ratings: [],
    aspects: [],
    ratingBlocks: 0,
    visit: "",
    visitSeen: false,
    title: "",
    comment: "",
    photos: [],
  };
}

/** One HTMLRewriter pass over a review list page; every element read spends the budget. */
export async function readTabelogPage(html: string, budget: WorkBudget): Promise<TabelogPage> {
  const page: TabelogPage = { cards: [], score: "", total: "", hasNext: false, restaurantHeader: false };
  const card = () => page.cards.at(-1);
  const text = (put: (c: Card, chunk: string) => void): HTMLRewriterElementContentHandlers => ({
    text(chunk) {
      const current = card();
      if (current) put(current, chunk.text);
    },
  });
  let totalSeen = false;
  const rewriter = new HTMLRewriter()
    .on("*", { element: () => budget.spend() })
    .on("div.rvw-item", {
      element(el) {
        page.cards.push(newCard(el.getAttribute("data-detail-url")));
      },
    })
    .on(".rvw-item__rvwr-name", {
      element(el) {
        const c = card();
        if (c && c.authorUrl === null) c.authorUrl = el.getAttribute("href");
      },
      ...text((c, t) => (c.author = add(c.author, t))),
    })
    .on(
      ".rvw-item__rvwr-name .rstdtl-rvw-country",
      text((c, t) => (c.country = add(c.country, t))),
    )
    .on(
      ".rvw-item__rvwr-num",
      text((c, t) => (c.authorCount = add(c.authorCount, t))),
    )
    .on(".rvw-item__ratings-total", {
      element() {
        const c = card();
        if (!c) return;
        c.ratingBlocks++;
        c.ratings.push("");
      },
    })
    .on(
      ".rvw-item__ratings-total .c-rating-v3__val",
      text((c, t) => (c.ratings[c.ratings.length - 1] = add(c.ratings.at(-1) ?? "", t))),
    )
    .on(".c-rating-detail__item", {
      element() {
        const c = card();
        if (c && c.ratingBlocks === 1) c.aspects.push({ label: "", value: "" });
      },
    })
    .on(
      ".c-rating-detail__item span",
      text((c, t) => {
        const aspect = c.ratingBlocks === 1 ? c.aspects.at(-1) : undefined;
        if (aspect) aspect.label = add(aspect.label, t);
      }),
    )
    .on(
      ".c-rating-detail__item strong",
      text((c, t) => {
        const aspect = c.ratingBlocks === 1 ? c.aspects.at(-1) : undefined;
        if (aspect) aspect.value = add(aspect.value, t);
      }),
    )
    .on(".rvw-item__date-inner span", {
      element() {
        const c = card();
        // The first span is the visit month; a second one is the visit count ("2回目").
        if (c && c.visit) c.visitSeen = true;
      },
      ...text((c, t) => {
        if (!c.visitSeen) c.visit = add(c.visit, t);
      }),
    })
    .on(
      ".rvw-item__title-target",
      text((c, t) => (c.title = add(c.title, t))),
    )
    .on(
      ".rvw-item__rvw-comment p",
      // Source line breaks are layout (a browser shows them as spaces); `<br>` is the reviewer's.
      text((c, t) => (c.comment = add(c.comment, t.replace(/\s+/g, " ")))),
    )
    .on(".rvw-item__rvw-comment br", {
      element() {
        const c = card();
        if (c) c.comment = add(c.comment, "\n");
      },
    })
    .on("a.js-imagebox-trigger", {
      element(el) {
        const href = el.getAttribute("href");
        const c = card();
        if (c && href && c.photos.length < 50) c.photos.push(href);
      },
    })
    .on(".rdheader-rating__score-val-dtl", {
      element() {
        page.restaurantHeader = true;
      },
      text(chunk) {
        page.score = add(page.score, chunk.text);
      },
    })
    .on(".rstdtl-navi__total-count em", {
      text(chunk) {
        if (!totalSeen) page.total = add(page.total, chunk.text);
        if (chunk.lastInTextNode) totalSeen = true;
      },
    })
    .on('a[rel="next"]', {
      element() {
        page.hasNext = true;
      },
    });
  await htmlPass(rewriter, html, budget);
  return page;
}

/** The walk's fetch hands the page pass's result to `parse`; anything else there is a wiring fault. */
export function asTabelogPage(data: unknown): TabelogPage {
  const page = data as Partial<TabelogPage> | null;
  if (!page || !Array.isArray(page.cards) || typeof page.hasNext !== "boolean")
    throw permanentError("publisher_error", `${WHAT}: the page was not read`);
  return page as TabelogPage;
}

const plain = (value: string) => decodeHTML(value).replace(/\s+/g, " ").trim();
const multiline = (value: string) =>
  decodeHTML(value)
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .join("\n")
    .trim();

/** "3.5" → 3.5 on Tabelog's 1.0–5.0 scale; "-" (no score given) and anything else → null. */
export function tabelogScore(value: string): number | null {
  const text = plain(value);
  if (!/^\d(?:\.\d{1,2})?$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= 5 ? n : null;
}

const REVIEW_ID = /\/dtlrvwlst\/(B\d{1,15})\/?(?:[?#]|$)/;

function reviewOf(card: Card, ctx: ParseContext, scrapedAt: number): RawReview | null {
  const id = card.detailUrl ? REVIEW_ID.exec(card.detailUrl)?.[1] : undefined;
  const rating = tabelogScore(card.ratings[0] ?? "");
  if (!id || rating === null) return null;
  const author = plain(card.author.slice(0, card.author.length - card.country.length || undefined));
  const count = /(\d[\d,]{0,9})/.exec(plain(card.authorCount))?.[1];
  const subRatings = Object.fromEntries(
    card.aspects
      .map(({ label, value }) => [ASPECTS[plain(label)] ?? plain(label), tabelogScore(value)] as const)
      .filter(([label, value]) => label && value !== null),
  ) as Record<string, number>;
  const visit = plain(card.visit);
  const visitDate = eastAsianVisitDate(visit, scrapedAt);
  const title = plain(card.title);
  return {
    id,
    rating: { value: rating, best: 5, worst: 1 },
    text: multiline(card.comment),
    url: new URL(card.detailUrl!, ORIGIN).toString(),
    ...(author ? { author_name: author } : {}),
    ...(card.authorUrl ? { author_url: new URL(card.authorUrl, ORIGIN).toString() } : {}),
    ...(count ? { author_review_count: Number(count.replace(/,/g, "")) } : {}),
    // Tabelog's list prints the visit month, not the posting day: posted_at is that month's first
    // day (a lower bound; README.md, "Assumed"), and the printed text stays in source_date.
    ...(visit ? { date: visit } : {}),
    ...(visitDate ? { visit_date: visitDate } : {}),
    ...(title ? { title } : {}),
    ...(Object.keys(subRatings).length ? { sub_ratings: subRatings } : {}),
    ...(card.photos.length ? { photos: card.photos.map((p) => new URL(p, ORIGIN).toString()) } : {}),
  };
}

/**
 * One page, read: reviews in page order, the next page while a `rel="next"` link says one follows,
 * the restaurant's stated review count and score. A page that is no restaurant review list (no
 * header, no cards) is `publisher_error`; a card without an id or a score (Tabelog lets reviewers
 * leave "-") is skipped, and a page with an unscored one reports it as a limited view.
 */
export function parseTabelogPage(page: TabelogPage, ctx: ParseContext, scrapedAt = Date.now()): WalkPage {
  if (!page.restaurantHeader && page.cards.length === 0)
    throw permanentError(
      "publisher_error",
      `${WHAT}: neither the restaurant header (.rdheader-rating__score-val-dtl) nor review cards (div.rvw-item) on page ${ctx.position.page}`,
    );
  if (page.hasNext && page.cards.length === 0)
    throw permanentError(
      "publisher_error",
      `${WHAT}: page ${ctx.position.page} has no review cards although a next page follows`,
    );
  const reviews: RawReview[] = [];
  let unscored = 0;
  for (const card of page.cards) {
    ctx.budget.spend();
    const review = reviewOf(card, ctx, scrapedAt);
    if (review) reviews.push(review);
    else if (card.detailUrl && plain(card.ratings[0] ?? "") === "-") unscored++;
  }
  const total = /^\d{1,9}$/.test(plain(page.total).replace(/,/g, ""))
    ? Number(plain(page.total).replace(/,/g, ""))
    : null;
  const score = tabelogScore(page.score);
  return {
    reviews,
    next: page.hasNext ? { page: ctx.position.page + 1, token: null } : null,
    ...(ctx.position.page === 1 ? { publisherTotal: total } : {}),
    ...(ctx.position.page === 1 && score !== null ? { summary: { rating: score, ratingScale: "1-5" } } : {}),
    // Tabelog lets a reviewer leave the score out ("-"); the API's rating is required, so such a
    // review cannot be returned, and coverage says so rather than completing silently with fewer.
    ...(unscored
      ? { limitedView: 'Tabelog reviews without a score (printed "-") are left out: a review needs a rating' }
      : {}),
    pageLanguage: "ja",
  };
}
