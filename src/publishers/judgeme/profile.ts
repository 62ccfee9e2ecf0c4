import { permanentError } from "../../scraping/errors";
import { valueAfter } from "../kit/html-scan";
import { declareProfile } from "../kit/profile";
import type { ScrapeContext } from "../types";

const SHOP = "[a-z0-9][a-z0-9-]{0,59}";
const HANDLE = "[a-z0-9][a-z0-9_-]{0,199}";
const SHOP_HOST = new RegExp(`^(${SHOP})\\.myshopify\\.com$`);
const PRODUCT_PATH = new RegExp(`^(?:/collections/[a-z0-9_-]{1,100})?/products/(${HANDLE})/?$`);
const PAGE = "https://acme-candles.myshopify.com/products/lavender-soy-candle";
const STORE = "https://acme-candles.myshopify.com/";

/**
 * The canonical profile URL: a product's page on the store's permanent myshopify address, or the
 * store's home page there for the store's own (shop) reviews.
 */
const profilePage = (shop: string, handle: string) =>
  handle ? `https://${shop}.myshopify.com/products/${handle}` : `https://${shop}.myshopify.com/`;

/** The walk's key of a profile URL: `<shop>/<handle>` for a product, `<shop>/` for the store; else null. */
export function judgeMeKeyOf(url: URL): string | null {
  const shop = SHOP_HOST.exec(url.hostname)?.[1];
  if (!shop) return null;
  if (url.pathname === "/" || url.pathname === "") return `${shop}/`;
  const handle = PRODUCT_PATH.exec(url.pathname)?.[1];
  return handle ? `${shop}/${handle}` : null;
}

const PRODUCT_ID = new RegExp(`^(${SHOP})\\.myshopify\\.com/products/(${HANDLE})$`);
const STORE_ID = new RegExp(`^(${SHOP})\\.myshopify\\.com/?$`);

/**
 * profile_key: a Shopify store that shows Judge.me reviews, named by its permanent address: one
 * product (the product page on `<shop>.myshopify.com`, also under a collection, query dropped, or
 * `<shop>.myshopify.com/products/<handle>` as text), or the store itself for its shop reviews (its
 * home page there, or `<shop>.myshopify.com` as text). Judge.me's Widget API knows a store by that
 * address only, so a URL on the store's own domain is refused; so are Judge.me's store pages
 * (judge.me/reviews/…), whose shop address and public token no public client reads (README "Assumed").
 */
export const judgeMeProfile = declareProfile({
  hosts: ["myshopify.com"],
  urls: [
    (url) => {
      const key = judgeMeKeyOf(url);
      return key ? profilePage(key.split("/")[0], key.split("/")[1]) : null;
    },
  ],
  ids: [
    (id) => {
      const match = PRODUCT_ID.exec(id);
      return match ? profilePage(match[1], match[2]) : null;
    },
    (id) => {
      const match = STORE_ID.exec(id);
      return match ? profilePage(match[1], "") : null;
    },
  ],
  examples: [
    { input: STORE, url: STORE },
    { input: "acme-candles.myshopify.com", url: STORE },
    { input: PAGE, url: PAGE },
    {
      input: "https://acme-candles.myshopify.com/collections/all/products/lavender-soy-candle/?variant=4201",
      url: PAGE,
    },
    { input: "acme-candles.myshopify.com/products/lavender-soy-candle", url: PAGE },
    {
      input: "https://judge.me/reviews/stores/acme-candles",
      error: "Enter the URL of a profile on judge.me.",
    },
    {
      input: "https://acme-candles.myshopify.com/collections/all",
      error: "Enter the URL of a profile on judge.me.",
    },
    {
      input: "https://www.acme-candles.com/products/lavender-soy-candle",
      error: "Enter a URL on judge.me or one of its subdomains.",
    },
    { input: "lavender soy candle", error: "Enter a valid URL." },
  ],
});

const TOKEN = /^[A-Za-z0-9_-]{8,100}$/;

/**
 * The store's Judge.me settings from its product page: `jdgm.SHOP_DOMAIN` and `jdgm.PUBLIC_TOKEN`,
 * the public Widget API token every store page with Judge.me carries (the clients named in README.md
 * set and read the same two). A page without the token, or naming another store, is
 * `publisher_error`: the walk cannot ask the Widget API for this store.
 */
export function storeSettingsOf(html: string, shop: string): { shopDomain: string; token: string } {
  const shopDomain = `${shop}.myshopify.com`;
  const token = valueAfter(html, "jdgm.PUBLIC_TOKEN", { maxLength: 100 });
  if (!token || !TOKEN.test(token))
    throw permanentError(
      "publisher_error",
      "judge.me store page: no jdgm.PUBLIC_TOKEN (Judge.me's widget is not installed, or its settings moved)",
    );
  const named = valueAfter(html, "jdgm.SHOP_DOMAIN", { maxLength: 100 });
  if (named && named.toLowerCase() !== shopDomain)
    throw permanentError(
      "publisher_error",
      `judge.me store page: its jdgm.SHOP_DOMAIN is ${named}, not ${shopDomain}`,
    );
  return { shopDomain, token };
}

/**
 * Reads the profile page (the product's, or the store's home page) once for the store's public
 * token; the walk's key becomes `<shop>/<handle>/<token>` (`<shop>//<token>` for the store).
 */
export async function openJudgeMeProduct(
  key: string,
  profileUrl: string,
  ctx: ScrapeContext,
): Promise<{ pageUrl: string; key: string }> {
  const page = await ctx.client.request(profileUrl);
  const { token } = storeSettingsOf(page.text, key.split("/")[0]);
  return { pageUrl: profileUrl, key: `${key}/${token}` };
}
