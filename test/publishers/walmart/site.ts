/**
 * Fixture walmart.com: the product reviews page, `GET /reviews/product/{usItemId}?page=N&sort=…`,
 * a Next.js page whose `<script id="__NEXT_DATA__">` holds `props.pageProps.initialData.data.reviews`.
 * Structure: scrapfly/scrapfly-scrapers `walmart-scraper/walmart.py` @05ee5335 (2025-08-14: the path
 * into `__NEXT_DATA__`) and the records that scraper saved, `walmart-scraper/results/products.json`
 * @a8455f6b (`averageOverallRating`, `aspects`, `lookupId`, `customerReviews` with `reviewId`,
 * `rating`, `reviewSubmissionTime` M/D/YYYY, `reviewText`, `reviewTitle`, `negativeFeedback`,
 * `positiveFeedback`, `userNickname`, `badges` with `VerifiedPurchaser`, `clientResponses`,
 * `syndicationSource`); the counts (`totalReviewCount`, `reviewsWithTextCount`,
 * `ratingValueOneCount` … `ratingValueFiveCount`) as other public clients read them; the URL with
 * `sort=submission-desc` as weiqi-kids/agent.ecommerce-product-review `scrapers/src/walmart/selectors.ts`
 * @249da5db builds it. The reviews are invented. Without `sort=submission-desc` the reviews come in
 * another order (Walmart's default is by relevance), so a module that forgets it fails.
 *
 * Products (usItemId): 5129928603 (23 written reviews of 30 ratings: pages of 10, 10 and 3),
 * 1000001 (no reviews), 4040404 (404), 7777777 (a page whose counts moved away), 4290000
 * (PerimeterX's "Robot or human?" page with 200).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export interface WalmartFixtureReview {
  reviewId: string;
  rating: number;
  reviewSubmissionTime: string;
  reviewText: string;
  reviewTitle: string | null;
  negativeFeedback: number;
  positiveFeedback: number;
  userNickname: string;
  media: null;
  photos: null;
  badges:
    { badgeType: string; id: string; contentType: string; glassBadge: { id: string; text: string } }[] | null;
  clientResponses: never[];
  syndicationSource: { logoImageUrl: string; contentLink: null; name: string } | null;
  snippetFromTitle: null;
}

const VERIFIED = {
  badgeType: "Custom",
  id: "VerifiedPurchaser",
  contentType: "REVIEW",
  glassBadge: { id: "VerifiedPurchaser", text: "Verified Purchase" },
};

function review(i: number): WalmartFixtureReview {
  // Newest first: one review every three days back from 2026-11-20.
  const day = new Date(Date.UTC(2026, 10, 20) - i * 3 * 86_400_000);
  return {
    reviewId: String(400_000_000 - i * 7),
    rating: [5, 4, 5, 3, 1][i % 5],
    reviewSubmissionTime: `${day.getUTCMonth() + 1}/${day.getUTCDate()}/${day.getUTCFullYear()}`,
    reviewText:
      i === 0 ? "Boils a full kettle in four minutes. The lid sticks a little." : `Review text ${i}.`,
    reviewTitle: i === 1 ? null : i === 0 ? "Fast and quiet" : `Title ${i}`,
    negativeFeedback: 0,
    positiveFeedback: i === 0 ? 12 : i % 3,
    userNickname: i === 0 ? "KettleFan" : `Shopper${i}`,
    media: null,
    photos: null,
    badges: i % 2 === 0 ? [VERIFIED] : null,
    clientResponses: [],
    syndicationSource:
      i === 4
        ? { logoImageUrl: "https://photos-us.bazaarvoice.com/logo", contentLink: null, name: "Brand US" }
        : null,
    snippetFromTitle: null,
  };
}

export const KETTLE: WalmartFixtureReview[] = Array.from({ length: 23 }, (_, i) => review(i));
export const KETTLE_COUNTS = {
  totalReviewCount: 30,
  reviewsWithTextCount: 23,
  averageOverallRating: 3.9,
  ratingValueOneCount: 4,
  ratingValueTwoCount: 1,
  ratingValueThreeCount: 4,
  ratingValueFourCount: 6,
  ratingValueFiveCount: 15,
};
const NONE = {
  totalReviewCount: 0,
  reviewsWithTextCount: 0,
  averageOverallRating: 0,
  ratingValueOneCount: 0,
  ratingValueTwoCount: 0,
  ratingValueThreeCount: 0,
  ratingValueFourCount: 0,
  ratingValueFiveCount: 0,
};

const html = (body: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body,
});

function nextDataPage(itemId: string, reviews: Record<string, unknown>): string {
  const data = {
    props: {
      pageProps: {
        initialData: {
          data: {
            product: {
              id: "17CX9Y890LSZ",
              usItemId: itemId,
              name: "Electric Kettle 1.7 L",
              averageRating: 4.2,
            },
            reviews: {
              aspects: [{ id: "12", name: "Ease Of Use", score: 90, snippetCount: 6 }],
              lookupId: "17CX9Y890LSZ",
              ...reviews,
            },
          },
        },
      },
    },
    page: "/reviews/product/[productId]",
  };
  // Next.js escapes "<" in its data so the script cannot be closed from inside a review.
  const json = JSON.stringify(data).replace(/</g, "\\u003c");
  return (
    `<!DOCTYPE html><html lang="en-US"><head><title>Customer reviews</title></head><body>` +
    `<div id="__next"><h1>Customer reviews</h1></div>` +
    `<script id="__NEXT_DATA__" type="application/json">${json}</script></body></html>`
  );
}

const ROBOT_OR_HUMAN =
  '<!DOCTYPE html><html lang="en"><head><title>Robot or human?</title></head><body>' +
  "<h1>Robot or human?</h1><p>Activate and hold the button to confirm that you’re human. Thank You!</p>" +
  '<div id="px-captcha"></div></body></html>';

function reviewsPage(itemId: string, url: URL): FixtureResponse {
  const page = Number(url.searchParams.get("page") ?? "1");
  if (!Number.isInteger(page) || page < 1) return html("<html><body>Bad request</body></html>", 400);
  if (itemId === "4290000") return html(ROBOT_OR_HUMAN);
  if (itemId === "4040404") return html("<html><title>Page not found</title></html>", 404);
  if (itemId === "1000001") return html(nextDataPage(itemId, { ...NONE, customerReviews: [] }));
  if (itemId !== "5129928603" && itemId !== "7777777") return html("<html>Not found</html>", 404);
  // Walmart's default order is by relevance; only submission-desc is newest first.
  const ordered = url.searchParams.get("sort") === "submission-desc" ? KETTLE : [...KETTLE].reverse();
  const customerReviews = ordered.slice((page - 1) * 10, page * 10);
  if (itemId === "7777777") return html(nextDataPage(itemId, { customerReviews, counts: KETTLE_COUNTS }));
  return html(nextDataPage(itemId, { ...KETTLE_COUNTS, customerReviews }));
}

const fixture: PublisherFixture = {
  domains: ["walmart.com"],
  site: ({ url, method }) => {
    if (method !== "GET") return html("Method Not Allowed", 405);
    const match = /^\/reviews\/product\/(\d+)$/.exec(url.pathname);
    if (match) return reviewsPage(match[1], url);
    return html("<html><title>Page not found</title></html>", 404);
  },
};

export default fixture;
