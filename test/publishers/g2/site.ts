/**
 * Fixture of www.g2.com as the G2 adapter reaches it.
 *
 * Structures copied (never the code) from scrapfly/scrapfly-scrapers g2-scraper/g2.py: review cards
 * as `div[itemprop="review"]` with `span[itemprop="author"]` holding `meta` name and profile URL,
 * `meta[itemprop="datePublished"]`, a `stars-N` class read as N / 2 stars, the title in
 * `div[itemprop="name"]`, the answers in `div[itemprop="reviewBody"]` as question/paragraph blocks,
 * pages as `/products/<slug>/reviews?page=N` (25 a page on the live site).
 *
 * Not verified against the live site (no network here): the card id form `survey-response-<n>`,
 * the `order=most_recent` sort parameter, the `rel="next"` pagination link, the product's
 * `aggregateRating`/`reviewCount` microdata, `inLanguage`, the vendor response as a schema.org
 * `Comment` (`itemprop="comment"` with `dateCreated` and `text`), the question headings as `h5`, and
 * the exact DataDome (captcha-delivery.com script) and Cloudflare ("Just a moment...") pages, and
 * whether G2 ever shows a sign-in page instead of reviews (the sign-in product is invented).
 */
import type { FixtureRequest, FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import { PAGE_SIZE, PRODUCTS, newestFirst, type FixtureG2Review, type FixtureProduct } from "./data";

const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const html = (body: string, title: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`,
});

function card(r: FixtureG2Review, changed: boolean): string {
  const micro = (attrs: string) => (changed ? "" : ` ${attrs}`);
  const author = r.author
    ? `<span${micro('itemprop="author" itemscope itemtype="http://schema.org/Person"')}><meta${micro('itemprop="name"')} content="${esc(r.author.name)}"><meta${micro('itemprop="url"')} content="${esc(r.author.url)}"></span><a class="link--header-color" href="${esc(r.author.url)}">${esc(r.author.name)}</a>`
    : `<span class="fw-semibold">Verified User in Computer Software</span>`;
  const body = r.sections
    .map(
      (s) =>
        `<div class="mb-2"><h5 class="l5">${esc(s.heading)}</h5><div class="formatted-text">${s.paragraphs.map((p) => `<p>${esc(p)}</p>`).join("")}</div></div>`,
    )
    .join("");
  const reply = r.reply
    ? `<div class="vendor-response"${micro('itemprop="comment" itemscope itemtype="http://schema.org/Comment"')}><meta${micro('itemprop="dateCreated"')} content="${r.reply.date}"><span${micro('itemprop="author" itemscope itemtype="http://schema.org/Organization"')}><meta${micro('itemprop="name"')} content="Acme Inc."></span><div class="fw-semibold">Response from Acme Inc.</div><div${micro('itemprop="text"')}><p>${esc(r.reply.text)}</p></div></div>`
    : "";
  return `<div class="paper paper--white paper--box mb-2 position-relative border-bottom" id="survey-response-${r.id}"${micro('itemprop="review" itemscope itemtype="http://schema.org/Review"')}>
<div class="d-f mb-1">${author}<div class="mt-4th">Sales Manager</div></div>
${r.language ? `<meta${micro('itemprop="inLanguage"')} content="${r.language}">` : ""}
<div class="d-f"><div class="stars large stars-${r.stars}"></div><div class="x-current-review-date"><meta${micro('itemprop="datePublished"')} content="${r.date}"><time>${r.date}</time></div></div>
${r.title ? `<a class="pjax" href="/products/acme-crm/reviews/acme-crm-review-${r.id}"><div class="m-0 l2"${micro('itemprop="name"')}>&quot;${esc(r.title)}&quot;</div></a>` : ""}
<div${micro('itemprop="reviewBody"')}>${body}</div>
<div class="tags--teal"><div>Review source: Organic</div></div>
${reply}
</div>`;
}

function reviewsPage(p: FixtureProduct, page: number, newest: boolean): FixtureResponse {
  const ordered = newest ? newestFirst(p) : [...p.reviews].sort((a, b) => b.stars - a.stars || a.id - b.id);
  const shown = ordered.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const pages = Math.max(1, Math.ceil(p.reviews.length / PAGE_SIZE));
  const changed = p.behaviour === "changed";
  const sort = newest ? "order=most_recent&" : "";
  const nav = `<nav class="pagination">${page > 1 ? `<a rel="prev" href="?${sort}page=${page - 1}">‹ Previous</a>` : ""}${page < pages ? `<a rel="next" href="?${sort}page=${page + 1}">Next ›</a>` : ""}</nav>`;
  const product = `<div itemscope itemtype="http://schema.org/SoftwareApplication"><h1 itemprop="name">${esc(p.name)} Reviews</h1>${changed ? "" : `<div itemprop="aggregateRating" itemscope itemtype="http://schema.org/AggregateRating"><meta itemprop="ratingValue" content="4.5"><meta itemprop="reviewCount" content="${p.reviews.length}"></div>`}</div>`;
  return html(
    `${product}<div class="nested-ajax-loading">${shown.map((r) => card(r, changed)).join("\n")}</div>${nav}`,
    `${esc(p.name)} Reviews 2026: Details, Pricing, &amp; Features | G2`,
  );
}

const DATADOME_PAGE = `<p>Please enable JS and disable any ad blocker</p><script data-cfasync="false">var dd={'rt':'c','cid':'AHrlqAAAAAMA','hsh':'2211F522B61E269B869FA6EAFFB5E1','t':'fe','s':45364,'e':'cb3d5b','host':'geo.captcha-delivery.com'}</script><script data-cfasync="false" src="https://ct.captcha-delivery.com/c.js"></script>`;

function site({ url }: FixtureRequest): FixtureResponse {
  const notFound = html("<h1>Sorry, we couldn't find that page.</h1>", "Page Not Found | G2", 404);
  const match = /^\/products\/([a-z0-9-]+)\/reviews$/.exec(url.pathname);
  const p = match ? PRODUCTS.find((x) => x.slug === match[1]) : undefined;
  if (!match || !p) return notFound;
  if (p.behaviour === "datadome") return html(DATADOME_PAGE, "g2.com");
  if (p.behaviour === "datadome-403") return html(DATADOME_PAGE, "g2.com", 403);
  if (p.behaviour === "cloudflare") return html("<h1>www.g2.com</h1><h2>Verifying you are human. This may take a few seconds.</h2>", "Just a moment...");
  if (p.behaviour === "sign-in")
    return html(
      `<h1>Sign in to G2</h1><form action="/login" method="post"><input type="email" name="user[email]"><input type="password" name="user[password]"><button>Sign In</button></form>`,
      "Sign In | G2",
    );
  const page = Number(url.searchParams.get("page") ?? "1");
  if (!Number.isInteger(page) || page < 1 || page > Math.max(1, Math.ceil(p.reviews.length / PAGE_SIZE))) return notFound;
  return reviewsPage(p, page, url.searchParams.get("order") === "most_recent");
}

const fixture: PublisherFixture = { domains: ["g2.com"], site };
export default fixture;
