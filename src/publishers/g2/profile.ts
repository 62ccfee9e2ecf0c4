import { declareProfile } from "../kit/profile";
import { bareSlug, pageUrl, productSlug } from "./adapter";

const ACME = "https://www.g2.com/products/acme-crm/reviews?order=most_recent";

/** profile_key: a product's reviews URL, its product URL, or its bare slug (custom rules: ./adapter.ts). */
export const g2Profile = declareProfile({
  urls: [
    (url) => {
      const slug = productSlug(url);
      return slug ? pageUrl({ slug, page: 1 }) : null;
    },
  ],
  ids: [
    (id) => {
      const slug = bareSlug(id);
      return slug ? pageUrl({ slug, page: 1 }) : null;
    },
  ],
  examples: [
    { input: "https://www.g2.com/products/acme-crm/reviews?page=4&qs=pros-and-cons", url: ACME },
    { input: "https://g2.com/products/Acme-CRM", url: ACME },
    { input: "https://www.g2.com/products/acme-crm/reviews/acme-crm-review-10900001", url: ACME },
    { input: "acme-crm", url: ACME },
    { input: "https://www.g2.com/categories/crm", error: "Enter the URL of a profile on g2.com." },
    {
      input: "https://www.capterra.com/p/1/acme-crm/",
      error: "Enter a URL on g2.com or one of its subdomains.",
    },
    { input: "acme crm", error: "Enter a valid URL." },
  ],
});
