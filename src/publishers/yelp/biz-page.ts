/**
 * What the adapter and the lookup read from a Yelp biz page (`/biz/<alias>`): the encoded business
 * id in `<meta name="yelp-biz-id">` (scrapfly-scrapers yelp.py `parse_business_id`) and the postal
 * code of the schema.org LocalBusiness the page declares in JSON-LD.
 */
import { permanentError, transientError, type ScrapeError } from "../../scraping/errors";
import type { FetchedPage } from "../../scraping/client";
import { collectJsonLd } from "../../scraping/extract/json-ld";
import { isNode, type SchemaNode } from "../../scraping/extract/schema-node";

export interface BizPage {
  /** The encoded business id (`encBizId` of the review feed), or null when the page has none. */
  bizId: string | null;
  /** `address.postalCode` of the page's JSON-LD business, or null. */
  postalCode: string | null;
}

function postalCodeOf(nodes: SchemaNode[]): string | null {
  for (const node of nodes) {
    const address: unknown = Array.isArray(node.address) ? node.address[0] : node.address;
    if (
      isNode(address) &&
      (typeof address.postalCode === "string" || typeof address.postalCode === "number")
    ) {
      const code = String(address.postalCode).trim();
      if (code) return code;
    }
  }
  return null;
}

export async function readBizPage(html: string): Promise<BizPage> {
  let bizId: string | null = null;
  const rewriter = new HTMLRewriter().on('meta[name="yelp-biz-id" i]', {
    element(el) {
      bizId ??= el.getAttribute("content")?.trim() || null;
    },
  });
  const jsonLd = collectJsonLd(rewriter);
  await rewriter
    .transform(new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }))
    .arrayBuffer();
  return { bizId, postalCode: postalCodeOf(jsonLd()) };
}

/** Paths Yelp sends a visitor to when it wants a signed-in session. */
const LOGIN_PATHS = /^\/(?:login|signup|user_login|signin)(?:\/|$)/i;

/** DataDome, Yelp's bot wall, serves its captcha page from captcha-delivery.com. */
const DATADOME = /captcha-delivery\.com|\bvar dd\s*=\s*\{/i;

/**
 * Runs on every 2xx answer from Yelp. A redirect to the sign-in page means the login cookies are
 * missing or expired (`login_required`); a DataDome captcha page means Yelp is blocking this client
 * for now (`blocked`, retried later: DataDome blocks usually lift after a while). JSON answers (the
 * review feed) are left to the feed reader.
 */
export function inspectYelpPage(page: FetchedPage): ScrapeError | null {
  if (LOGIN_PATHS.test(page.url.pathname))
    return permanentError("login_required", `Yelp sent us to its sign-in page (${page.url.pathname})`);
  const body = page.text.trimStart();
  if (body.startsWith("[") || body.startsWith("{")) return null;
  if (DATADOME.test(page.text))
    return transientError("blocked", "Yelp answered with a DataDome captcha page");
  return null;
}
