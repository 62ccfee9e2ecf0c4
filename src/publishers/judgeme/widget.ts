/**
 * Judge.me's legacy Review Widget markup, as its public Widget API returns it inside JSON (the
 * `widget` string of `api/v1/widgets/product_review`): a `.jdgm-rev-widg` carrying
 * `data-average-rating` and `data-number-of-reviews`, a histogram of `.jdgm-histogram__row` with
 * `data-rating` and `data-frequency`, a `.jdgm-paginate` with `data-per-page`, and one `.jdgm-rev` per
 * review (`data-review-id`, `data-verified-buyer`) holding `.jdgm-rev__rating[data-score]`,
 * `.jdgm-rev__timestamp` (`data-content`, or `datetime`), `.jdgm-rev__author`, `.jdgm-rev__title`,
 * `.jdgm-rev__body` and `img.jdgm-rev__pic-img`. The store-wide All Reviews answer carries the same
 * review markup after a header naming `data-number-of-shop-reviews`. Read with HTMLRewriter (linear in the markup),
 * every element and text chunk counted in a WorkBudget.
 */
import { decodeHTML } from "entities";
import { htmlPass } from "../kit/html-pass";
import { WorkBudget } from "../kit/work-budget";

export interface WidgetReview {
  id: string | null;
  score: string | null;
  timestamp: string | null;
  author: string;
  title: string;
  body: string;
  verified: boolean;
  photos: string[];
}

export interface ReadWidget {
  /** A `.jdgm-rev-widg` was found at all (else the markup is not the widget the clients read). */
  found: boolean;
  /** The store's shop-review count, from the All Reviews header (`data-number-of-shop-reviews`). */
  shopReviewCount: string | null;
  averageRating: string | null;
  reviewCount: string | null;
  histogram: { rating: string | null; frequency: string | null }[];
  reviews: WidgetReview[];
}

/** Longest text kept from a short field (author, title, an attribute). */
const FIELD_CHARS = 2_000;
/** Longest review body kept. */
const BODY_CHARS = 50_000;
/** Photos kept per review. */
const MAX_PHOTOS = 20;

const attr = (value: string | null) => (value === null ? null : value.slice(0, FIELD_CHARS));
const add = (to: string, chunk: string, max: number) =>
  to.length >= max ? to : to + chunk.slice(0, max - to.length);
const squash = (text: string) => decodeHTML(text).replace(/\s+/g, " ").trim();
/** Paragraph and line breaks kept, runs of other white space squashed. */
const paragraphs = (text: string) =>
  decodeHTML(text)
    .split(/\n{2,}/)
    .map((p) =>
      p
        .split("\n")
        .map((line) => line.replace(/\s+/g, " ").trim())
        .filter(Boolean)
        .join("\n"),
    )
    .filter(Boolean)
    .join("\n\n");

/** Reads the widget markup of one answer. */
export async function readWidget(html: string, budget: WorkBudget): Promise<ReadWidget> {
  const widget: ReadWidget = {
    found: false,
    shopReviewCount: null,
    averageRating: null,
    reviewCount: null,
    histogram: [],
    reviews: [],
  };
  let review: WidgetReview | null = null;
  let field: "author" | "title" | "body" | null = null;
  const spend = () => budget.spend();
  const text = (name: "author" | "title" | "body") => ({
    element(el: Element) {
      spend();
      if (!review || field) return;
      field = name;
      el.onEndTag(() => {
        field = null;
      });
    },
    text(chunk: Text) {
      spend();
      if (!review || field !== name) return;
      review[name] = add(
        review[name],
        chunk.text.replace(/\s+/g, " "),
        name === "body" ? BODY_CHARS : FIELD_CHARS,
      );
    },
  });
  const rewriter = new HTMLRewriter()
    .on(".jdgm-rev-widg", {
      element(el) {
        spend();
        if (widget.found) return;
        widget.found = true;
        widget.averageRating = attr(el.getAttribute("data-average-rating"));
        widget.reviewCount = attr(el.getAttribute("data-number-of-reviews"));
      },
    })
    .on("[data-number-of-shop-reviews]", {
      element(el) {
        spend();
        widget.shopReviewCount ??= attr(el.getAttribute("data-number-of-shop-reviews"));
      },
    })
    .on(".jdgm-histogram__row", {
      element(el) {
        spend();
        if (widget.histogram.length < 10)
          widget.histogram.push({
            rating: attr(el.getAttribute("data-rating")),
            frequency: attr(el.getAttribute("data-frequency")),
          });
      },
    })
    .on(".jdgm-rev", {
      element(el) {
        spend();
        // One review at a time: markup nested inside a review is part of it.
        if (review) return;
        const open: WidgetReview = {
          id: attr(el.getAttribute("data-review-id")),
          score: null,
          timestamp: null,
          author: "",
          title: "",
          body: "",
          verified: el.getAttribute("data-verified-buyer") === "true",
          photos: [],
        };
        review = open;
        el.onEndTag(() => {
          open.author = squash(open.author);
          open.title = squash(open.title);
          open.body = paragraphs(open.body);
          widget.reviews.push(open);
          review = null;
        });
      },
    })
    .on(".jdgm-rev__rating", {
      element(el) {
        spend();
        if (review && review.score === null) review.score = attr(el.getAttribute("data-score"));
      },
    })
    .on(".jdgm-rev__timestamp", {
      element(el) {
        spend();
        if (review && review.timestamp === null)
          review.timestamp = attr(el.getAttribute("data-content") ?? el.getAttribute("datetime"));
      },
    })
    .on(".jdgm-rev__author", text("author"))
    .on(".jdgm-rev__title", text("title"))
    .on(".jdgm-rev__body", text("body"))
    .on(".jdgm-rev__body p", {
      element(el) {
        spend();
        const open = review;
        if (!open || field !== "body") return;
        el.onEndTag(() => {
          open.body = add(open.body, "\n\n", BODY_CHARS);
        });
      },
    })
    .on(".jdgm-rev__body br", {
      element() {
        spend();
        if (review && field === "body") review.body = add(review.body, "\n", BODY_CHARS);
      },
    })
    .on("img.jdgm-rev__pic-img", {
      element(el) {
        spend();
        const src = attr(el.getAttribute("data-src") ?? el.getAttribute("src"));
        if (review && src?.startsWith("https://") && review.photos.length < MAX_PHOTOS)
          review.photos.push(src);
      },
    });
  await htmlPass(rewriter, html, budget);
  return widget;
}
