import { declareProfile } from "../kit/profile";

const PAGE =
  "https://www.dealerrater.com/dealer/McKaig-Chevrolet-Buick-A-Dealer-For-The-People-review-23685/";

/**
 * profile_key: a dealer's review page, `/dealer/<Slug>-review-<id>/` (the form the site's own
 * reviews URLs take) or its older `/dealer/<Slug>-dealer-reviews-<id>/`, with or without a
 * `/page<N>/`, query or fragment. It becomes `https://www.dealerrater.com/dealer/<Slug>-review-<id>/`
 * (the slug's letter case kept, as the site prints it); the walk's key is the dealer id. A bare id
 * is not taken: the pages are addressed by slug and id together.
 */
export const dealerraterProfile = declareProfile({
  urls: [
    {
      path: /^\/dealer\/(?<slug>[A-Za-z0-9][A-Za-z0-9-]{0,200}?)-(?:dealer-reviews|review)-(?<id>\d{1,10})(?:\/(?:page\d{1,5}\/?)?)?$/,
    },
  ],
  page: "https://www.dealerrater.com/dealer/{slug}-review-{id}/",
  key: "{id}",
  examples: [
    { input: PAGE, url: PAGE },
    { input: `${PAGE}page3/?filter=ALL_REVIEWS#link`, url: PAGE },
    {
      input:
        "https://dealerrater.com/dealer/McKaig-Chevrolet-Buick-A-Dealer-For-The-People-dealer-reviews-23685",
      url: PAGE,
    },
    {
      input: "https://www.dealerrater.com/sales/Adrian-AyyDee-Cortes-review-273456/",
      error: "Enter the URL of a profile on dealerrater.com.",
    },
    {
      input: "https://www.dealerrater.com/directory/Texas/Used-Car-Dealer/",
      error: "Enter the URL of a profile on dealerrater.com.",
    },
    {
      input: "https://www.cars.com/dealers/23685/mckaig-chevrolet-buick/reviews/",
      error: "Enter a URL on dealerrater.com or one of its subdomains.",
    },
    { input: "23685", error: "Enter a valid URL." },
  ],
});
