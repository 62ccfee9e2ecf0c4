/**
 * Fixture capterra.com, as 2026 clients find it (see ./README.md): product pages (`/p/<id>/` redirects
 * to the canonical `/p/<id>/<Slug>/`, as capterra.com does) and the server-rendered reviews pages
 * `/p/<id>/<Slug>/reviews/?page=N`, 25 reviews a page in Capterra's default "most helpful" order
 * ("Showing most helpful reviews", a "Sort by" menu whose URL form no public source shows: the
 * fixture knows no sort parameter). Each page carries the review cards in its HTML (the markup
 * scrapfly's client reads: `div[data-test-id="review-cards-container"]`, `h3` title in quotes, the
 * date, `[data-testid="Overall Rating-rating"]`, Pros/Cons paragraphs) and the same reviews in its
 * React Server Components payload (`self.__next_f.push([1,"…"])`, a flight row holding the
 * product's `reviewSummary` and `textReviews`, repeated objects sent as `$<row>:props:…` paths as
 * the real page does). A page past the last holds no reviews.
 *
 * Products by id: 2001 Acme-CRM (60 reviews: pages of 25, 25 and 10), 2002 Quiet-Tool (none),
 * 2404 (no such product: 404), 2403 (the reviews pages answer 403), 2429 (the reviews pages are
 * PerimeterX's px-captcha page with 200), 2430 (the product page is Cloudflare's challenge, 403),
 * 2500 (the payload moved: `reviews` instead of `textReviews`), 2501 (reviews without
 * `overallRating`), 2502 (a count of 40 but no reviews), 2503 (60 counted, pages 1 and 2 served,
 * page 3 empty).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import { ACME_REVIEWS, capterraReviews, mostHelpfulFirst, type CapterraFixtureReview } from "./data";

export const SIZE = 25;

const PRODUCTS: Record<string, { slug: string; name: string; reviews: CapterraFixtureReview[] }> = {
  "2001": { slug: "Acme-CRM", name: "Acme CRM", reviews: ACME_REVIEWS },
  "2002": { slug: "Quiet-Tool", name: "Quiet Tool", reviews: [] },
  "2403": { slug: "Walled", name: "Walled", reviews: ACME_REVIEWS },
  "2429": { slug: "Captcha", name: "Captcha", reviews: ACME_REVIEWS },
  "2430": { slug: "Challenge", name: "Challenge", reviews: ACME_REVIEWS },
  "2500": { slug: "Moved-List", name: "Moved List", reviews: ACME_REVIEWS },
  "2501": { slug: "Renamed-Rating", name: "Renamed Rating", reviews: ACME_REVIEWS },
  "2502": { slug: "Hollow", name: "Hollow", reviews: [] },
  "2503": { slug: "Capped", name: "Capped", reviews: capterraReviews(60, 5_200_000) },
};

const html = (title: string, body: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`,
});
const esc = (t: string) =>
  t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The fields the page sends of a review (the fixture's own helpers left out). */
function sent(
  { helpfulness: _h, postedAt: _p, ...review }: CapterraFixtureReview,
  index: number,
  row: string,
) {
  return {
    ...review,
    // The first review's `reviewSource` object is sent whole, later ones refer to it by path.
    reviewSource:
      index === 0
        ? { code: "NO", tooltip: "No Incentive Offered: This review was submitted organically." }
        : `$${row}:props:children:4:props:children:0:props:product:textReviews:0:reviewSource`,
  };
}

/** One review card, as scrapfly's client selects it (simplified; the module reads the payload). */
function card(r: CapterraFixtureReview): string {
  const section = (icon: string, label: string, body: string | null) =>
    body
      ? `<div class="space-y-2"><span class="font-semibold"><svg><title>${icon}</title></svg><span>${label}</span></span><p>${esc(body)}</p></div>`
      : "";
  return `<div><div class="typo-10 mb-6 space-y-4 p-6"><div class="typo-10 text-neutral-90 w-full lg:w-fit"><span class="typo-20 text-neutral-99 font-semibold">${esc(r.reviewer.fullName)}</span><br>${esc(r.reviewer.jobTitle ?? "")}<br>${esc(r.reviewer.industry)}<br>Used the software for: <!-- -->${esc(r.reviewer.timeUsedProduct)}</div><div class="space-y-1">${r.title ? `<h3 class="typo-20 font-semibold">"${esc(r.title)}"</h3>` : ""}<div class="typo-0 text-neutral-90">${esc(r.writtenOn)}</div></div><div data-testid="Overall Rating-rating"><span class="snsqh3h"></span><span>${r.overallRating}</span></div><div class="!mt-4 space-y-6">${r.generalComments ? `<p>${esc(r.generalComments)}</p>` : ""}</div>${section("Positive icon", "Pros", r.prosText)}${section("Negative icon", "Cons", r.consText)}</div></div>`;
}

/** The page's flight stream in two `self.__next_f.push([1,"…"])` chunks, cut mid-row as Next.js may. */
function payload(stream: string): string {
  const cut = Math.floor(stream.length / 2);
  const push = (chunk: string) =>
    `<script>self.__next_f.push([1,${JSON.stringify(chunk).replace(/</g, "\\u003c")}])</script>`;
  return `<script>(self.__next_f=self.__next_f||[]).push([0])</script>${push(stream.slice(0, cut))}${push(stream.slice(cut))}`;
}

function reviewsPage(id: string, page: number): FixtureResponse {
  const product = PRODUCTS[id];
  if (id === "2403") return html("403 Forbidden", "<h1>403 Forbidden</h1>", 403);
  if (id === "2429") return html("Access to this page has been denied", '<div id="px-captcha"></div>');
  const all = mostHelpfulFirst(product.reviews);
  const total = id === "2502" ? 40 : all.length;
  const shown = id === "2503" && page > 2 ? [] : all.slice((page - 1) * SIZE, page * SIZE);
  const row = "58";
  const reviews = shown.map((r, i) => sent(r, i, row));
  const summary = {
    __typename: "ProductReviewSummary",
    customerSupportRating: "4.2",
    easeOfUseRating: "4.1",
    functionalityRating: "4.4",
    overallRating: total ? "4.4" : "0.0",
    totalReviews: total,
    valueForMoneyRating: "4.3",
  };
  const productData =
    id === "2500"
      ? { campaign: null, reviewSummary: summary, reviews }
      : {
          campaign: null,
          reviewSummary: summary,
          textReviews: id === "2501" ? reviews.map(({ overallRating: _o, ...rest }) => rest) : reviews,
        };
  const stream = [
    `0:["$","$L1",null,{"children":"$L${row}"}]`,
    `1:I[12345,["static/chunks/app.js"],"Layout"]`,
    `${row}:${JSON.stringify(["$", "$L59", null, { value: { facet: "reviews" }, children: [["$", "div", null, { className: "sticky top-0", children: [["$", "$L5c", null, { product: productData }]] }]] }])}`,
    "",
  ].join("\n");
  const from = total ? (page - 1) * SIZE + 1 : 0;
  const to = (page - 1) * SIZE + shown.length;
  return html(
    `${product.name} Reviews 2026. Verified Reviews, Pros &amp; Cons | Capterra`,
    `<div data-test-id="review-cards-filter-container"><h2>Showing most helpful reviews</h2><span class="typo-30 font-semibold">Showing ${from}-${to} of ${total} Reviews</span><span>Sort by:</span><div data-testid="filters-sort-by"><span>Most Helpful</span></div><div data-testid="filter-sort-MOST_HELPFUL">Most Helpful</div><div data-testid="filter-sort-MOST_RECENT">Most Recent</div></div><div data-test-id="review-cards-container">${shown.map(card).join("")}</div>${payload(stream)}`,
  );
}

function productPage(id: string, path: string, url: URL): FixtureResponse {
  const product = PRODUCTS[id];
  if (!product) return html("Page not found", "<h1>Page not found</h1>", 404);
  if (id === "2430") return html("Just a moment...", '<div id="challenge-running"></div>', 403);
  const canonical = `/p/${id}/${product.slug}/`;
  if (!path.startsWith(canonical))
    return {
      status: 301,
      headers: { Location: `${canonical}${path.endsWith("/reviews/") ? "reviews/" : ""}` },
      body: "",
    };
  if (path === `${canonical}reviews/`) {
    const page = Number(url.searchParams.get("page") ?? "1");
    if (!Number.isInteger(page) || page < 1) return html("Bad Request", "<h1>Bad Request</h1>", 400);
    return reviewsPage(id, page);
  }
  return html(`${product.name} | Capterra`, `<h1>${esc(product.name)}</h1>`);
}

const fixture: PublisherFixture = {
  // Page 1 of Acme CRM: titles and rated aspects, the product's average and count.
  coverageSample: { profileUrl: "https://www.capterra.com/p/2001/Acme-CRM/reviews/" },
  domains: ["capterra.com"],
  site: ({ url, method }) => {
    if (method !== "GET") return html("Method Not Allowed", "", 405);
    const product = /^\/p\/(\d+)(\/.*)?$/.exec(url.pathname);
    if (product) return productPage(product[1], url.pathname, url);
    return html("Page not found", "<h1>Page not found</h1>", 404);
  },
};

export default fixture;
