import { declareProfile } from "../kit/profile";

/** Product pages: `/p/<id>/<slug>/` with any suffix such as `reviews/`. */
const PRODUCT_PATH = /^\/p\/(\d{1,12})(?:\/([^/?#]{1,200}))?(?:\/|$)/;

/** The product id of a Capterra URL, or null when it is not a product page. */
export function productIdOf(url: URL): string | null {
  return PRODUCT_PATH.exec(url.pathname)?.[1] ?? null;
}

/** A product's reviews page; without the slug, its product page (Capterra redirects it to the canonical one). */
export function reviewsPageUrl(productId: string, slug?: string | null): string {
  return slug
    ? `https://www.capterra.com/p/${productId}/${encodeURIComponent(decodeSafe(slug))}/reviews/`
    : `https://www.capterra.com/p/${productId}/`;
}

function decodeSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The slug of a product URL, when it has one (`/p/135003/Slack/` → `Slack`). */
export function slugOf(url: URL): string | null {
  const slug = PRODUCT_PATH.exec(url.pathname)?.[2];
  return slug && slug !== "reviews" ? slug : null;
}

const REVIEWS_PAGE = "https://www.capterra.com/p/2001/Acme-CRM/reviews/";

/**
 * profile_key for Capterra: a product URL (`https://www.capterra.com/p/135003/Slack/`, its
 * `reviews/` page, any query dropped) or the bare numeric product id.
 */
export const capterraProfile = declareProfile({
  urls: [
    (url) => {
      const id = productIdOf(url);
      return id ? reviewsPageUrl(id, slugOf(url)) : null;
    },
  ],
  ids: [(id) => (/^\d{1,12}$/.test(id) ? reviewsPageUrl(id) : null)],
  examples: [
    { input: "https://www.capterra.com/p/2001/Acme-CRM/", url: REVIEWS_PAGE },
    { input: "https://www.capterra.com/p/2001/Acme-CRM/reviews/?page=3", url: REVIEWS_PAGE },
    { input: "https://capterra.com/p/2001/Acme-CRM", url: REVIEWS_PAGE },
    { input: "2001", url: "https://www.capterra.com/p/2001/" },
    {
      input: "https://www.capterra.com/customer-relationship-management-software/",
      error: "Enter the URL of a profile on capterra.com.",
    },
    {
      input: "https://www.g2.com/products/acme-crm/reviews",
      error: "Enter a URL on capterra.com or one of its subdomains.",
    },
    { input: "acme-crm", error: "Enter a valid URL." },
  ],
});
