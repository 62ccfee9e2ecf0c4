/**
 * Fixture zillow.com: agent profile pages (`/profile/<screen name>/`) carrying Next.js data with
 * `props.pageProps.profileDisplay.profileInfo.encodedZuid` (where two public clients read it,
 * exact-string index ids 36982458582 and 36918041064), and the public reviews API the page loads,
 * `GET /profile-page/api/public/v1/reviews?encodedZuid=&profileTypeIds=1,2,12,16&page=&size=&sortType=2&sortOrder=2`,
 * answering `{reviews: [{reviewId, reviewer: {screenName, encodedZuid}, reviewee: {...}, rating,
 * createDate ("MM/DD/YYYY"), reviewComment, subRatings, workDescription}], filters: [{count}]}`
 * (wp-review-slider-pro `class_getapps_revs.php` in Abdul916/wp_bestworldvision @cedc4dd9 and
 * exact-string index id 32583282794). The reviews are invented. Only `sortType=2&sortOrder=2`
 * gives newest first here.
 *
 * Agents: Jane-Realtor-CA (23 reviews, three pages of 10, one without an id), Quiet-Agent (none),
 * Walled-Agent (PerimeterX's page with 403), Moved-Agent (a page without `profileDisplay`).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export interface ZillowFixtureReview {
  reviewId?: number;
  reviewer: { screenName: string; encodedZuid: string };
  reviewee: { firstName: string; lastName: string };
  rating: number;
  createDate: string;
  reviewComment: string;
  subRatings: { description: string; score: number }[];
  workDescription: string;
}

const ZUIDS: Record<string, string> = {
  "Jane-Realtor-CA": "X1-ZUytm150b2rcax_3s95i",
  "Quiet-Agent": "X1-ZU10quiet00001_aaaa1",
};
const NEWEST = Date.UTC(2026, 10, 19);
const us = (ms: number) => {
  const d = new Date(ms);
  return `${String(d.getUTCMonth() + 1).padStart(2, "0")}/${String(d.getUTCDate()).padStart(2, "0")}/${d.getUTCFullYear()}`;
};

function review(i: number): ZillowFixtureReview {
  return {
    ...(i === 15 ? {} : { reviewId: 9_100_000 - i }),
    reviewer: {
      screenName: i === 1 ? "homebuyer2026" : `client${i}`,
      encodedZuid: `X1-ZUreviewer${String(i).padStart(4, "0")}_abc`,
    },
    reviewee: { firstName: "Jane", lastName: "Realtor" },
    rating: 5 - (i % 3),
    createDate: us(NEWEST - i * 12 * 86_400_000),
    reviewComment: i === 1 ? " Jane found us a house in two weeks. " : `Sale ${i} went smoothly.`,
    subRatings: [{ description: "Local knowledge", score: 5 }],
    workDescription: "Bought a Single Family home in 2026 in Irvine, CA.",
  };
}

export const JANE_REVIEWS: ZillowFixtureReview[] = Array.from({ length: 23 }, (_, i) => review(i));

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});
const html = (body: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body,
});

function profile(name: string): FixtureResponse {
  if (name === "Walled-Agent")
    return html(
      '<html><title>Access to this page has been denied</title><div id="px-captcha"></div></html>',
      403,
    );
  const zuid = ZUIDS[name];
  if (!zuid && name !== "Moved-Agent") return html("<html><title>Page not found</title></html>", 404);
  // A reviewer's id comes first in the page, so a module that takes the first id it sees takes the wrong one.
  const pageProps =
    name === "Moved-Agent"
      ? { agentProfile: { encodedZuid: "X1-ZUmoved0000000_aaaa1" } }
      : {
          reviewsData: { reviews: [{ reviewer: { encodedZuid: "X1-ZUreviewer0000_abc" } }] },
          profileDisplay: { profileInfo: { encodedZuid: zuid }, contactCard: { name } },
        };
  const data = { props: { pageProps }, page: "/profile/[screenName]" };
  return html(
    `<!DOCTYPE html><html lang="en"><head><title>${name} | Zillow</title></head><body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${JSON.stringify(data)}</script></body></html>`,
  );
}

function reviews(url: URL): FixtureResponse {
  const zuid = url.searchParams.get("encodedZuid");
  const page = Number(url.searchParams.get("page"));
  const size = Number(url.searchParams.get("size"));
  if (!(page >= 1) || !(size >= 1 && size <= 20)) return json({ error: "bad request" }, 400);
  const all = zuid === ZUIDS["Jane-Realtor-CA"] ? JANE_REVIEWS : [];
  const newest = url.searchParams.get("sortType") === "2" && url.searchParams.get("sortOrder") === "2";
  const ordered = newest ? all : [...all].reverse();
  return json({
    reviews: ordered.slice((page - 1) * size, page * size),
    filters: [{ count: all.length, label: "All" }],
  });
}

const fixture: PublisherFixture = {
  domains: ["zillow.com"],
  site: ({ url, method }) => {
    if (method !== "GET") return json({ error: "Method Not Allowed" }, 405);
    if (url.pathname === "/profile-page/api/public/v1/reviews") return reviews(url);
    const match = /^\/profile\/([^/]+)\/$/.exec(url.pathname);
    return match ? profile(match[1]) : html("<html></html>", 404);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: "https://www.zillow.com/profile/Jane-Realtor-CA/" },
};

export default fixture;
