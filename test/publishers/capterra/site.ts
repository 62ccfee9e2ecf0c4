/**
 * Fixture capterra.com: product pages (`/p/<id>/<Slug>/` and `/p/<id>/<Slug>/reviews/`; `/p/<id>/`
 * redirects to the canonical slug, as capterra.com does) and the reviews endpoint the pages load
 * (`GET /spotlight/rest/reviews?apiVersion=2&productId=<id>&from=<offset>&size=<n>&sort=mostRecent`)
 * answering `{hits: [...], totalHits: {value, relation: "eq"}}` in the structure of ./data.ts.
 * Without `sort=mostRecent` the hits come in Capterra's default "most helpful" order (by
 * completenessScore), so an adapter that forgets to ask for the newest gets the wrong order.
 * Not verified against the live site (no network here): the bot-wall pages are modelled on
 * Cloudflare's "Just a moment..." page and PerimeterX's `px-captcha` page that public scraper write-ups
 * quote for capterra.com; the redirect of a slug-less product URL is modelled as a 301.
 *
 * Products by id: 2001 Acme-CRM (60 reviews), 2002 Quiet-Tool (none), 2404 (no such product: 404),
 * 2403 (the endpoint answers 403), 2429 (the endpoint answers a px-captcha HTML page with 200),
 * 2430 (the product page is Cloudflare's challenge, 403), 2500 (the list moved: `results` instead of
 * `hits`), 2501 (hits without `overallRating`), 2502 (totalHits 40 but no hits).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import { ACME_HITS, type CapterraFixtureHit } from "./data";

export const SIZE = 25;

const PRODUCTS: Record<string, { slug: string; hits: CapterraFixtureHit[] }> = {
  "2001": { slug: "Acme-CRM", hits: ACME_HITS },
  "2002": { slug: "Quiet-Tool", hits: [] },
  "2403": { slug: "Walled", hits: ACME_HITS },
  "2429": { slug: "Captcha", hits: ACME_HITS },
  "2430": { slug: "Challenge", hits: ACME_HITS },
  "2500": { slug: "Moved-List", hits: ACME_HITS },
  "2501": { slug: "Renamed-Rating", hits: ACME_HITS },
  "2502": { slug: "Hollow", hits: ACME_HITS },
};

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});
const html = (body: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body: `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"></head><body>${body}</body></html>`,
});

function productPage(id: string, path: string): FixtureResponse {
  const product = PRODUCTS[id];
  if (!product) return html("<h1>Page not found</h1>", 404);
  if (id === "2430") return html('<title>Just a moment...</title><div id="challenge-running"></div>', 403);
  const canonical = `/p/${id}/${product.slug}/`;
  if (!path.startsWith(canonical))
    return {
      status: 301,
      headers: { Location: `${canonical}${path.endsWith("/reviews/") ? "reviews/" : ""}` },
      body: "",
    };
  return html(`<h1>${product.slug.replace(/-/g, " ")} Reviews</h1><div id="reviews">Loading reviews…</div>`);
}

function reviews(url: URL): FixtureResponse {
  const productId = url.searchParams.get("productId") ?? "";
  const from = Number(url.searchParams.get("from") ?? "0");
  const size = Number(url.searchParams.get("size") ?? "10");
  if (
    url.searchParams.get("apiVersion") !== "2" ||
    !/^\d+$/.test(productId) ||
    !Number.isInteger(from) ||
    from < 0 ||
    size !== SIZE
  ) {
    return json({ error: "Bad Request", status: 400 }, 400);
  }
  const product = PRODUCTS[productId];
  if (productId === "2403") return html("<h1>403 Forbidden</h1>", 403);
  if (productId === "2429")
    return html('<title>Access to this page has been denied</title><div id="px-captcha"></div>');
  const all = product?.hits ?? [];
  const ordered =
    url.searchParams.get("sort") === "mostRecent"
      ? all
      : [...all].sort((a, b) => b.completenessScore - a.completenessScore);
  const hits = ordered.slice(from, from + size);
  const totalHits = { value: all.length, relation: "eq" };
  switch (productId) {
    case "2500":
      return json({ results: hits, totalHits });
    case "2501":
      return json({
        hits: hits.map(({ overallRating, ...rest }) => ({ ...rest, rating: overallRating })),
        totalHits,
      });
    case "2502":
      return json({ hits: [], totalHits: { value: 40, relation: "eq" } });
    default:
      return json({ hits, totalHits });
  }
}

const fixture: PublisherFixture = {
  domains: ["capterra.com"],
  site: ({ url, method }) => {
    if (method !== "GET") return json({ error: "Method Not Allowed" }, 405);
    if (url.pathname === "/spotlight/rest/reviews") return reviews(url);
    const product = /^\/p\/(\d+)(\/.*)?$/.exec(url.pathname);
    if (product) return productPage(product[1], url.pathname);
    return html("<h1>Page not found</h1>", 404);
  },
};

export default fixture;
