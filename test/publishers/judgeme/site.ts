/**
 * Fixture judge.me and the Shopify stores that show its reviews (`<shop>.myshopify.com`):
 * - a store's product page carries Judge.me's settings script,
 *   `jdgm.SHOP_DOMAIN = '<shop>.myshopify.com'; jdgm.PLATFORM = 'shopify'; jdgm.PUBLIC_TOKEN = '…'`;
 * - Judge.me's public Widget API, `GET /api/v1/widgets/product_review?api_token=&shop_domain=&handle=
 *   &page=&per_page=`, answers `{product_external_id, widget}` with the legacy Review Widget markup in
 *   `widget`: `.jdgm-rev-widg[data-average-rating][data-number-of-reviews]`, a `.jdgm-histogram` of
 *   `.jdgm-histogram__row[data-rating][data-frequency][data-percentage]`, `.jdgm-rev-widg__reviews`
 *   holding `.jdgm-rev[data-review-id][data-verified-buyer]` with `.jdgm-rev__rating[data-score]`,
 *   `.jdgm-rev__timestamp[data-content]`, `.jdgm-rev__author`, `.jdgm-rev__title`,
 *   `.jdgm-rev__body` (paragraphs) and `img.jdgm-rev__pic-img`, then `.jdgm-paginate[data-per-page]`.
 * Sources: FilipLjubic/judgeme-react `packages/judgeme-react/src/legacy-api.ts` @0976467a and
 * `docs/research/review-widget-spike-2026-07-13.md` @a34455ab (2026-07-13) for the endpoint, its
 * public-token parameters, `{product_external_id, widget}` and the legacy widget DOM; the
 * `jdgm.SHOP_DOMAIN` / `jdgm.PUBLIC_TOKEN` settings script as storefronts embed it; the review and
 * histogram markup as the clients in README.md read it. Reviews, stores and tokens are invented.
 *
 * - the store-wide `GET /api/v1/widgets/all_reviews_page?api_token=&shop_domain=&page=&review_type=`
 *   answers `{all_reviews, all_reviews_header}`: a header naming `data-number-of-product-reviews` and
 *   `data-number-of-shop-reviews` (with the combined average and histogram), then up to 25 reviews of
 *   the same markup (FilipLjubic/judgeme-react `docs/research/all-reviews-widget-spike-2026-07-13.md`
 *   @96261e97 and `legacy-api.ts`).
 *
 * Stores and products: acme-candles (its home page; 30 shop reviews, 25 a page),
 * acme-candles/lavender-soy-candle (23 reviews, 10 a page: Japanese and English
 * text, one without a data-score, one with photos), acme-candles/unscented-pillar (none),
 * acme-candles/stuck-pager (12 reviews, but the API answers page 1 for every page),
 * acme-candles/moved-widget (the API answers markup without the widget), bare-shop/any-product (a
 * store page without Judge.me's token), stale-candles/any-product (the page's token is one the API
 * refuses with 401); unknown products: 404 on the store and the API.
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export const TOKENS: Record<string, string> = {
  "acme-candles": "Yc8UD8ErSdTRRpdNomoaN6i1MQo",
  "stale-candles": "Fresh0000TokenAbc",
};
/** What a store page says where it differs from what the API takes (a stale page). */
const PAGE_TOKENS: Record<string, string> = { "stale-candles": "Stale0000TokenAbc" };
export const PRODUCTS: Record<string, { id: number; count: number }> = {
  "acme-candles/lavender-soy-candle": { id: 7894217031836, count: 23 },
  "acme-candles/unscented-pillar": { id: 7894217031837, count: 0 },
  "acme-candles/stuck-pager": { id: 7894217031838, count: 12 },
  "acme-candles/moved-widget": { id: 7894217031839, count: 3 },
  "bare-shop/any-product": { id: 1001, count: 1 },
  "stale-candles/any-product": { id: 1002, count: 1 },
};

export interface JudgeMeFixtureReview {
  id: string;
  score: number | null;
  timestamp: string;
  author: string;
  title: string;
  /** Paragraphs of the body, as markup (entities escaped). */
  bodyHtml: string;
  verified: boolean;
  photos: string[];
}

const NEWEST = Date.UTC(2026, 10, 20, 14, 5, 9);
const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");

function review(product: string, i: number): JudgeMeFixtureReview {
  const id = `${product.slice(0, 4)}${String(i).padStart(4, "0")}-4c1e-4b7e-9a51-2f6d1c0e${String(i).padStart(4, "0")}`;
  return {
    id,
    score: i === 4 ? null : [5, 4, 5, 3, 2, 1][i % 6],
    timestamp: stamp(NEWEST - i * 2 * 86_400_000),
    author: i === 0 ? "Hana &amp; Kenji T." : i === 1 ? "Maria L." : `Buyer ${i}`,
    title: i === 0 ? "とても良い香り" : i === 1 ? "Lovely, but burns fast" : `Review ${i}`,
    bodyHtml:
      i === 0
        ? "<p>ラベンダーの香りがとても自然で、部屋全体に広がります。</p><p>また購入します。</p>"
        : i === 1
          ? "<p>Smells wonderful &amp; looks great.<br>Burned for 30 hours, not 40.</p>"
          : `<p>Body ${i}.</p>`,
    verified: i % 2 === 0,
    photos: i === 1 ? ["https://judgeme.imgix.net/acme-candles/1731000000__lavender__original.jpg"] : [],
  };
}

export const LAVENDER = Array.from({ length: 23 }, (_, i) => review("lave", i));
/** The store's own (shop) reviews, 25 a page as the client observed. */
export const SHOP_REVIEWS = Array.from({ length: 30 }, (_, i) => ({
  ...review("shop", i),
  score: [5, 4, 5, 5, 3][i % 5],
  title: i === 0 ? "Fast shipping" : `Shop review ${i}`,
  bodyHtml: i === 0 ? "<p>Arrived in two days, well packed.</p>" : `<p>Shop body ${i}.</p>`,
}));
const SHOP_PAGE_SIZE = 25;
const STUCK = Array.from({ length: 12 }, (_, i) => review("stuc", i));

function reviewHtml(r: JudgeMeFixtureReview): string {
  const pics = r.photos.map(
    (src) =>
      `<a class='jdgm-rev__pic-link' href='${src}' target='_blank'><img class='jdgm-rev__pic-img' data-src='${src}' alt='User picture'></a>`,
  );
  return (
    `<div class='jdgm-rev jdgm-divider-top' data-verified-buyer='${r.verified}' data-review-id='${r.id}' data-product-title='Lavender Soy Candle' data-product-url='/products/lavender-soy-candle'>` +
    `<div class='jdgm-rev__header'><div class='jdgm-rev__icon'>${r.author.slice(0, 1)}</div>` +
    `<span class='jdgm-rev__rating' ${r.score === null ? "" : `data-score='${r.score}'`} tabindex='0' aria-label='${r.score ?? 0} star review' role='img'></span>` +
    `<span class='jdgm-rev__timestamp jdgm-spinner' data-content='${r.timestamp}'></span>` +
    `<div class='jdgm-rev__br'></div>` +
    (r.verified
      ? "<span class='jdgm-rev__buyer-badge-wrapper'><span class='jdgm-rev__buyer-badge'></span></span>"
      : "") +
    `<span class='jdgm-rev__author-wrapper'><span class='jdgm-rev__author'>${r.author}</span></span></div>` +
    `<div class='jdgm-rev__content'><div class='jdgm-rev__custom-form'></div><b class='jdgm-rev__title'>${r.title}</b>` +
    `<div class='jdgm-rev__body'>\n  ${r.bodyHtml}\n</div>` +
    (pics.length ? `<div class='jdgm-rev__pics'>${pics.join("")}</div>` : "") +
    `</div></div>`
  );
}

function histogram(reviews: JudgeMeFixtureReview[]): string {
  return [5, 4, 3, 2, 1]
    .map((star) => {
      const n = reviews.filter((r) => (r.score ?? 5) === star).length;
      const pct = reviews.length ? Math.round((n / reviews.length) * 100) : 0;
      return `<div class='jdgm-histogram__row' data-rating='${star}' data-frequency='${n}' data-percentage='${pct}'><div class='jdgm-histogram__frequency'>(${n})</div></div>`;
    })
    .join("");
}

function widgetHtml(all: JudgeMeFixtureReview[], shown: JudgeMeFixtureReview[], count: number): string {
  const scored = all.map((r) => r.score ?? 5);
  const average = scored.length ? (scored.reduce((a, b) => a + b, 0) / scored.length).toFixed(2) : "0.00";
  return (
    `<div class='jdgm-rev-widg' data-average-rating='${average}' data-number-of-reviews='${count}' data-number-of-questions='0'>` +
    `<div class='jdgm-rev-widg__header'><h2 class='jdgm-rev-widg__title'>Customer Reviews</h2>` +
    `<div class='jdgm-histogram jdgm-temp-hidden'>${histogram(all)}<div class='jdgm-histogram__row jdgm-histogram__clear-filter' data-rating=null></div></div></div>` +
    `<div class='jdgm-rev-widg__body'><div class='jdgm-rev-widg__reviews'>${shown.map(reviewHtml).join("")}</div>` +
    `<div class='jdgm-paginate' data-per-page='5' data-url='https://judge.me/reviews/reviews_for_widget'></div></div></div>`
  );
}

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json; charset=utf-8" },
  body: JSON.stringify(data),
});
const html = (body: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body,
});

function productPage(shop: string, handle: string): FixtureResponse {
  const product = handle === "" ? (TOKENS[shop] ? { id: 0 } : null) : PRODUCTS[`${shop}/${handle}`];
  if (!product) return html("<html><title>404 Not Found</title></html>", 404);
  const token = PAGE_TOKENS[shop] ?? TOKENS[shop];
  const settings = token
    ? `<script>jdgm = window.jdgm || {}; jdgm.SHOP_DOMAIN = '${shop}.myshopify.com'; jdgm.PLATFORM = 'shopify'; jdgm.PUBLIC_TOKEN = '${token}';</script>` +
      `<script data-cfasync='false' type='text/javascript' async src='https://cdn.judge.me/widget_preloader.js'></script>`
    : "";
  return html(
    `<!doctype html><html lang="en"><head><title>${handle} – ${shop}</title>${settings}</head><body>` +
      `<div class='jdgm-widget jdgm-review-widget' data-id='${product.id}'></div></body></html>`,
  );
}

function productReview(url: URL): FixtureResponse {
  const shop = /^([a-z0-9-]+)\.myshopify\.com$/.exec(url.searchParams.get("shop_domain") ?? "")?.[1];
  const token = url.searchParams.get("api_token");
  if (!shop || !TOKENS[shop] || token !== TOKENS[shop]) return json({ error: "Invalid api_token" }, 401);
  const handle = url.searchParams.get("handle") ?? "";
  const key = `${shop}/${handle}`;
  const product = PRODUCTS[key];
  if (!product) return json({ error: "Product not found" }, 404);
  if (handle === "moved-widget")
    return json({ product_external_id: product.id, widget: "<div class='jdgm-new-widget'>New format</div>" });
  const page = Number(url.searchParams.get("page") ?? "1");
  const perPage = Number(url.searchParams.get("per_page") ?? "5");
  if (!(page >= 1) || !(perPage >= 1 && perPage <= 50)) return json({ error: "Bad request" }, 400);
  const all = handle === "lavender-soy-candle" ? LAVENDER : handle === "stuck-pager" ? STUCK : [];
  // The stuck pager ignores `page`, as a changed API might.
  const from = handle === "stuck-pager" ? 0 : (page - 1) * perPage;
  const shown = all.slice(from, from + perPage);
  return json({ product_external_id: product.id, widget: widgetHtml(all, shown, product.count) });
}

/** The store-wide All Reviews answer: header with the counts, then one page of shop reviews. */
function allReviewsPage(url: URL): FixtureResponse {
  const shop = /^([a-z0-9-]+)\.myshopify\.com$/.exec(url.searchParams.get("shop_domain") ?? "")?.[1];
  if (!shop || !TOKENS[shop] || url.searchParams.get("api_token") !== TOKENS[shop])
    return json({ error: "Invalid api_token" }, 401);
  const page = Number(url.searchParams.get("page") ?? "1");
  const type = url.searchParams.get("review_type") ?? "product-reviews";
  if (!(page >= 1)) return json({ error: "Bad request" }, 400);
  const all = type === "shop-reviews" ? SHOP_REVIEWS : LAVENDER;
  const shown = all.slice((page - 1) * SHOP_PAGE_SIZE, page * SHOP_PAGE_SIZE);
  return json({
    all_reviews_header:
      `<div class='jdgm-all-reviews__header' data-average-rating='4.78' data-number-of-reviews='${LAVENDER.length + SHOP_REVIEWS.length}' ` +
      `data-number-of-product-reviews='${LAVENDER.length}' data-number-of-shop-reviews='${SHOP_REVIEWS.length}' data-per-page='10'>` +
      `<div class='jdgm-histogram'>${histogram([...LAVENDER, ...SHOP_REVIEWS])}</div></div>`,
    all_reviews: shown.map(reviewHtml).join(""),
  });
}

const fixture: PublisherFixture = {
  domains: ["judge.me", "myshopify.com"],
  site: ({ url, method, host }) => {
    if (method !== "GET") return json({ error: "Method Not Allowed" }, 405);
    if (host.replace(/:\d+$/, "") === "judge.me" || url.pathname.startsWith("/api/v1/widgets/")) {
      if (url.pathname === "/api/v1/widgets/product_review") return productReview(url);
      if (url.pathname === "/api/v1/widgets/all_reviews_page") return allReviewsPage(url);
      return json({ error: "Not found" }, 404);
    }
    const shop = /^([a-z0-9-]+)\.myshopify\.com/.exec(host)?.[1];
    const product = /^(?:\/collections\/[a-z0-9_-]+)?\/products\/([a-z0-9_-]+)$/.exec(url.pathname);
    if (shop && url.pathname === "/") return productPage(shop, "");
    return shop && product ? productPage(shop, product[1]) : html("<html></html>", 404);
  },
};

export default fixture;
