/**
 * Fixture dealerrater.com: a dealer's server-rendered review pages,
 * `/dealer/<Slug>-review-<id>/page<N>/?filter=ALL_REVIEWS`, ten `div.review-entry` blocks a page,
 * newest first, each page linking to the next. The markup of a review entry follows the one
 * PranavHerur/fake_review_analyser `test_review_html.py` @5c56c186 copies from the site (a review of
 * 2021-10-14: `<a name="r…">`, `.review-date div.italic`, `.dealership-rating .rating-static.rating-50`,
 * the quoted `h3` title, `span.italic.notranslate` "- <name>", `p.review-content`,
 * `.review-ratings-all` rows with `div.rating-static-indv.rating-NN` and "Recommend Dealer",
 * `.employees-wrapper`, the `/consumer/social/<id>` share link); "Quality of Work" and `rating-00`
 * for an unrated aspect as in other challenge repositories' copies. The pagination links
 * (`…/page<N>/?filter=#link`) are shaped after the URLs those clients request; their exact markup is
 * not shown by any public source. The reviews are invented.
 *
 * Dealers by id: 23685 (23 reviews over pages of 10, 10 and 3; no JSON-LD, as no public copy shows
 * one), 30001 (3 reviews on one page and an invented JSON-LD `AutoDealer` with `aggregateRating`),
 * 40404 (404), 50000 (a page without review entries, as a redesign would leave it), 60000 (page 1
 * links to a page 2 that has no reviews).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import { ENGLISH_MONTHS as MONTHS } from "../../fixtures/english-dates";

export const MCKAIG = "McKaig-Chevrolet-Buick-A-Dealer-For-The-People";

export interface DealerFixtureReview {
  id: number;
  date: string;
  rating: number;
  title: string;
  author: string;
  /** The text as HTML (entities, `<br>`). */
  body: string;
  /** Label → tenths of a star (0: not rated). */
  sub: Record<string, number>;
  recommend: "Yes" | "No";
  employees: string[];
}

export const printed = (at: number) => {
  const d = new Date(at);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
};

function review(i: number, newest = Date.UTC(2026, 10, 20)): DealerFixtureReview {
  const stars = [50, 40, 50, 30, 10][i % 5];
  return {
    id: 9_900_000 - i * 11,
    // Newest first: one review every two days.
    date: printed(newest - i * 2 * 86_400_000),
    rating: stars,
    title: i === 0 ? "First time buying and they made it easy &amp; quick..." : `Visit number ${i} went fine`,
    author: i === 0 ? "Abygail R." : `Buyer ${i}`,
    body:
      i === 0
        ? "Adrian walked me through every detail &amp; the financing.<br/>I’m going to love this truck!"
        : `Review body ${i}.`,
    sub: {
      "Customer Service": stars,
      "Quality of Work": i === 0 ? 0 : 40,
      Friendliness: 50,
      Pricing: i % 2 ? 30 : 50,
      "Overall Experience": stars,
    },
    recommend: stars >= 30 ? "Yes" : "No",
    employees: i === 0 ? ['Adrian "AyyDee" Cortes', "Taylor Prickett"] : [],
  };
}

export const MCKAIG_REVIEWS: DealerFixtureReview[] = Array.from({ length: 23 }, (_, i) => review(i));
const SMALL_REVIEWS = Array.from({ length: 3 }, (_, i) => review(i, Date.UTC(2026, 9, 1)));

function subRows(sub: Record<string, number>, recommend: string): string {
  const rows = Object.entries(sub).map(
    ([label, value]) =>
      `<!-- REVIEW RATING - ${label.toUpperCase()} -->\n<div class="tr margin-bottom-md">\n` +
      `<div class="lt-grey small-text td">${label}</div>\n` +
      `<div class="rating-static-indv rating-${String(value).padStart(2, "0")} margin-top-none td"></div>\n</div>`,
  );
  return (
    `<div class="pull-left pad-left-md pad-right-md bg-grey-lt margin-bottom-md review-ratings-all review-hide">\n` +
    `<div class="table width-100 pad-left-none pad-right-none margin-bottom-md">\n${rows.join("\n")}\n` +
    `<!-- REVIEW RATING - RECOMMEND DEALER -->\n<div class="tr">\n<div class="lt-grey small-text td">Recommend Dealer</div>\n` +
    `<div class="td small-text boldest">\n                ${recommend}\n            </div>\n</div>\n</div>\n</div>`
  );
}

function employees(names: string[], dealerId: number): string {
  if (names.length === 0) return "";
  const cards = names.map(
    (name, i) =>
      `<div class="col-xs-12 col-sm-6 col-md-4 pad-left-none pad-top-sm pad-bottom-sm review-employee">\n<div class="table">\n` +
      `<div class="td square-image employee-image" style="background-image: url(https://cdn-user.dealerrater.com/images/dealer/${dealerId}/employees/e${i}.jpg)"></div>\n` +
      `<div class="td valign-bottom pad-left-md pad-top-none pad-bottom-none">\n` +
      `<a class="notranslate pull-left line-height-1 tagged-emp small-text teal emp-${273456 + i}" data-emp-id="${273456 + i}" href="/sales/Employee-review-${273456 + i}/">\n  ${name.replace(/"/g, "&quot;")}\n</a>\n` +
      `<div class="col-xs-12 pad-none margin-none pad-top-sm"><div class="relative employee-rating-badge-sm"><div class="col-xs-12 pad-none">\n` +
      `<span class="pull-left font-14 boldest lt-grey line-height-1 pad-right-sm margin-right-sm border-right">5.0</span>\n` +
      `<div class="rating-static rating-50 margin-top-none pull-left"></div>\n</div></div></div>\n</div>\n</div>\n</div>`,
  );
  return (
    `<!-- EMPLOYEE SECTION -->\n<div class="clear-fix margin-top-sm">\n<div class="col-xs-12 lt-grey pad-left-none employees-wrapper">\n` +
    `<div class="small-text">Employees Worked With </div>\n${cards.join("\n")}\n</div>\n</div>`
  );
}

export function entry(r: DealerFixtureReview, dealerId: number): string {
  return `<div class="review-entry col-xs-12 text-left pad-none pad-top-lg  border-bottom-teal-lt">
<a name="r${r.id}"></a>
<div class="col-xs-12 col-sm-3 pad-left-none text-center review-date margin-bottom-md">
<div class="italic col-xs-6 col-sm-12 pad-none margin-none font-20">${r.date}</div>
<div class="col-xs-6 col-sm-12 pad-none dealership-rating">
<div class="rating-static visible-xs pad-none margin-none rating-${r.rating} pull-right"></div>
<div class="rating-static hidden-xs rating-${r.rating} margin-center"></div>
<div class="col-xs-12 hidden-xs pad-none margin-top-sm small-text dr-grey">SALES VISIT - USED</div>
</div>
</div>
<div class="col-xs-12 col-sm-9 pad-none review-wrapper">
<!-- REVIEW TITLE, USER-->
<div class="margin-bottom-sm line-height-150">
<h3 class="no-format inline italic-bolder font-20 dark-grey">"${r.title}"</h3>
<span class="italic font-18 black notranslate">- ${r.author} </span>
</div>
<!-- REVIEW BODY -->
<div class="tr margin-top-md">
<div class="td text-left valign-top">
<p class="font-16 review-content margin-bottom-none line-height-25">${r.body} </p>
<a class="read-more-toggle pointer line-height-25 small-text block margin-bottom-md" id="${r.id}">Read More</a>
</div>
</div>
${subRows(r.sub, r.recommend)}
${employees(r.employees, dealerId)}
<!-- SOCIAL MEDIA AND REVIEW ACTIONS -->
<div class="col-xs-12 pad-none review-hide margin-top-lg">
<div class="pull-left">
<a href="http://www.facebook.com/share.php?u=http://www.dealerrater.com/consumer/social/${r.id}" rel="nofollow" target="_blank" title="Facebook">Share</a>
</div>
</div>
</div>
</div>`;
}

function pagination(slug: string, id: number, page: number, pages: number): string {
  const links = Array.from({ length: pages }, (_, i) => i + 1)
    .filter((n) => n !== page)
    .map((n) => `<a class="page_num" href="/dealer/${slug}-review-${id}/page${n}/?filter=#link">${n}</a>`);
  return `<div class="pagination">${links.join(" ")}</div>`;
}

const html = (body: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body,
});

function dealerPage(
  slug: string,
  id: number,
  reviews: DealerFixtureReview[],
  page: number,
  pages: number,
  head = "",
): string {
  const shown = reviews.slice((page - 1) * 10, page * 10);
  return (
    `<!DOCTYPE html><html lang="en"><head><title>${slug} - Dealer Reviews</title>${head}</head><body>` +
    `<div id="reviews">${shown.map((r) => entry(r, id)).join("\n")}</div>` +
    `${pagination(slug, id, page, pages)}</body></html>`
  );
}

const AUTO_DEALER = {
  "@context": "https://schema.org",
  "@type": "AutoDealer",
  name: "Small Town Motors",
  aggregateRating: { "@type": "AggregateRating", ratingValue: "4.7", reviewCount: "3", bestRating: "5" },
};

const fixture: PublisherFixture = {
  domains: ["dealerrater.com"],
  coverageSample: { profileUrl: "https://www.dealerrater.com/dealer/Small-Town-Motors-review-30001/" },
  site: ({ url, method }) => {
    if (method !== "GET") return html("Method Not Allowed", 405);
    const match = /^\/dealer\/([A-Za-z0-9-]+)-review-(\d+)\/page(\d+)\/$/.exec(url.pathname);
    if (!match) return html("<html><title>Page not found</title></html>", 404);
    const [, slug, id, pageText] = match;
    const page = Number(pageText);
    if (id === "23685" && slug === MCKAIG && page <= 3)
      return html(dealerPage(slug, 23685, MCKAIG_REVIEWS, page, 3));
    if (id === "30001" && page === 1)
      return html(
        dealerPage(
          slug,
          30001,
          SMALL_REVIEWS,
          1,
          1,
          `<script type="application/ld+json">${JSON.stringify(AUTO_DEALER)}</script>`,
        ),
      );
    if (id === "50000")
      return html(
        `<!DOCTYPE html><html><head><title>Dealer</title></head><body><div class="reviews-v2">Reviews</div></body></html>`,
      );
    if (id === "60000" && page === 1) return html(dealerPage(slug, 60000, SMALL_REVIEWS, 1, 2));
    if (id === "60000" && page === 2) return html(dealerPage(slug, 60000, [], 2, 2));
    return html("<html><title>Page not found</title></html>", 404);
  },
};

export default fixture;
