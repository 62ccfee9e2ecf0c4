import { declareProfile } from "../kit/profile";

/** Yandex Maps: the Russian site (the key) and the international one. */
export const YANDEX_DOMAINS = ["yandex.ru", "yandex.com"] as const;

/** An organisation id (`oid`): a long decimal number (`1018907821`, `149979773456`). */
const ID = "(?<id>\\d{5,20})";
const SLUG = "[\\w%.-]{1,200}";
const PAGE = "https://yandex.ru/maps/org/1018907821/";

/**
 * profile_key: an organisation's page on Yandex Maps, with or without its slug, city prefix or tab
 * (`/maps/org/<slug>/<id>/reviews/`, `/maps/213/moscow/org/<slug>/<id>/`), a map URL naming it
 * with `?oid=<id>`, or the id as text. The canonical profile URL is `https://<site>/maps/org/<id>/`
 * (the slug is decoration: the site serves the page without it).
 */
export const yandexProfile = declareProfile({
  urls: [
    { path: new RegExp(`^/maps/(?:\\d{1,10}/[\\w-]{1,100}/)?org/(?:${SLUG}/)?${ID}(?:/|$)`) },
    { path: /^\/maps(?:\/|$)/, query: { oid: new RegExp(`^${ID}$`) } },
  ],
  ids: [new RegExp(`^${ID}$`)],
  page: "https://{site}/maps/org/{id}/",
  examples: [
    { input: PAGE, url: PAGE },
    { input: "https://yandex.ru/maps/org/pushkin/1018907821/reviews/?ll=37.6%2C55.7&z=17", url: PAGE },
    { input: "https://yandex.ru/maps/213/moscow/org/kafe_pushkin/1018907821/", url: PAGE },
    { input: "https://yandex.ru/maps/213/moscow/?ll=37.6%2C55.7&mode=search&oid=1018907821&z=17", url: PAGE },
    { input: "1018907821", url: PAGE },
    {
      input: "https://yandex.com/maps/org/pushkin/1018907821/",
      url: "https://yandex.com/maps/org/1018907821/",
      publisher: "yandex.com",
    },
    {
      input: "https://yandex.ru/maps/213/moscow/search/кафе/",
      error: "Enter the URL of a profile on yandex.ru.",
    },
    {
      input: "https://market.yandex.ru/product/123456789",
      error: "Enter the URL of a profile on yandex.ru.",
    },
    {
      input: "https://2gis.ru/moscow/firm/70000001033044306",
      error: "Enter a URL on yandex.ru or one of its subdomains.",
    },
    { input: "кафе Пушкинъ", error: "Enter a valid URL." },
  ],
});
