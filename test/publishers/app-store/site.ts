/**
 * Fixture App Store: the customer-reviews feed on itunes.apple.com,
 * `GET /<cc>/rss/customerreviews/page=<1..10>/id=<app>/sortby=mostrecent/json`, 50 entries a page,
 * pages beyond 10 refused (400), and app pages on apps.apple.com. Structure as a 2026 public client
 * reads it (aws-samples/sample-voice-of-customer-datalake,
 * voc-datalake/plugins/app_reviews_ios/ingestor/itunes_client.py @bb2fcec9, 2026-08-19: `feed.entry[]`
 * with `id`, `updated`, `author.name`, `im:rating`, `title`, `content`, each a `{label}`; no `entry`
 * on an empty page; at most 10 pages) plus the feed's `link` list with its `rel="last"` page, whose
 * href also carries a `urlDesc=/customerreviews/page=1/…` query as Apple's feed writes it. The
 * reviews are invented, except the first page of app 284815942 in us: a real feed page served byte
 * for byte (captures/SOURCE.md; its other pages were not captured and are empty).
 *
 * Apps: 1001 in us (120 reviews, 3 pages), 1002 in gb (600 reviews: the feed shows 10 pages, 500),
 * 1004 (no reviews: a feed without `entry`), 1005 (one review: `entry` is an object, not a list),
 * 1006 (page 2 empty mid-feed, as Apple's feed sometimes answers).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import capture from "./captures/itunes_rss_reviews.json?raw";

/** The app and storefront of the real capture: its page 1 is the capture, byte for byte. */
export const CAPTURED_APP = "284815942";

const PER_PAGE = 50;

export interface AppStoreFixtureEntry {
  author: { uri: { label: string }; name: { label: string }; label: string };
  updated: { label: string };
  "im:rating": { label: string };
  "im:version": { label: string };
  id: { label: string };
  title: { label: string };
  content: { label: string; attributes: { type: string } };
  link: { attributes: { rel: string; href: string } };
  "im:voteSum": { label: string };
  "im:contentType": { attributes: { term: string; label: string } };
  "im:voteCount": { label: string };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The instant in Pacific daylight time (`-07:00`), as the feed writes `updated`. */
function updated(ms: number): string {
  const d = new Date(ms - 7 * 3_600_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00-07:00`;
}

function entry(app: string, cc: string, i: number): AppStoreFixtureEntry {
  const id = String(11_000_000_000 + Number(app) * 1000 - i);
  return {
    author: {
      uri: { label: `https://itunes.apple.com/${cc}/reviews/id${900_000 + i}` },
      name: { label: i === 1 ? "sunny_dev" : `user${i}` },
      label: "",
    },
    updated: { label: updated(Date.UTC(2026, 10, 20, 20, 0, 0) - i * 2 * 3_600_000 + 3_600_000) },
    "im:rating": { label: String(5 - (i % 5)) },
    "im:version": { label: "4.2.0" },
    id: { label: id },
    title: { label: i === 1 ? "Does what it says" : `Title ${i}` },
    content: {
      label: i === 1 ? "Syncs fast.\nWidgets could be bigger." : `Review ${i} of app ${app}.`,
      attributes: { type: "text" },
    },
    link: {
      attributes: {
        rel: "related",
        href: `https://itunes.apple.com/${cc}/review?id=${app}&type=Purple%20Software`,
      },
    },
    "im:voteSum": { label: "0" },
    "im:contentType": { attributes: { term: "Application", label: "Application" } },
    "im:voteCount": { label: "0" },
  };
}

const APPS: Record<string, { cc: string; count: number }> = {
  "1001": { cc: "us", count: 120 },
  "1002": { cc: "gb", count: 600 },
  "1004": { cc: "us", count: 0 },
  "1005": { cc: "us", count: 1 },
  "1006": { cc: "us", count: 120 },
};

export const entriesOf = (app: string): AppStoreFixtureEntry[] => {
  const spec = APPS[app];
  return spec ? Array.from({ length: spec.count }, (_, i) => entry(app, spec.cc, i)) : [];
};

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/javascript; charset=utf-8" },
  body: JSON.stringify(data),
});

function link(rel: string, cc: string, app: string, page: number) {
  return {
    attributes: {
      rel,
      href: `https://itunes.apple.com/${cc}/rss/customerreviews/page=${page}/id=${app}/sortby=mostrecent/xml?urlDesc=/customerreviews/page=1/id=${app}/sortby=mostrecent/json`,
    },
  };
}

function feed(cc: string, page: number, app: string): FixtureResponse {
  if (!(page >= 1 && page <= 10))
    return json({ error: "CustomerReviews RSS page depth is limited to 10" }, 400);
  if (cc === "us" && app === CAPTURED_APP && page === 1)
    return { status: 200, headers: { "Content-Type": "text/javascript; charset=utf-8" }, body: capture };
  const all = APPS[app]?.cc === cc ? entriesOf(app) : [];
  const pages = Math.max(1, Math.min(10, Math.ceil(all.length / PER_PAGE)));
  const slice = app === "1006" && page === 2 ? [] : all.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  const links = [
    {
      attributes: {
        rel: "alternate",
        type: "text/html",
        href: `https://apps.apple.com/WebObjects/MZStore.woa/wa/viewGrouping?cc=${cc}&id=1000000`,
      },
    },
    {
      attributes: {
        rel: "self",
        href: `https://mzstoreservices-int-st.itunes.apple.com/${cc}/rss/customerreviews/page=${page}/id=${app}/sortby=mostrecent/json`,
      },
    },
    link("first", cc, app, 1),
    link("last", cc, app, pages),
    link("previous", cc, app, Math.max(1, page - 1)),
    link("next", cc, app, Math.min(pages, page + 1)),
  ];
  return json({
    feed: {
      author: { name: { label: "iTunes Store" }, uri: { label: "http://www.apple.com/us/itunes/" } },
      ...(slice.length === 0 ? {} : { entry: slice.length === 1 ? slice[0] : slice }),
      updated: { label: "2026-11-20T13:00:00-07:00" },
      rights: { label: "Copyright 2008 Apple Inc." },
      title: { label: "iTunes Store: Customer Reviews" },
      icon: { label: "http://itunes.apple.com/favicon.ico" },
      link: links,
      id: {
        label: `https://mzstoreservices-int-st.itunes.apple.com/${cc}/rss/customerreviews/page=${page}/id=${app}/sortby=mostrecent/json`,
      },
    },
  });
}

const FEED = /^\/([a-z]{2})\/rss\/customerreviews\/page=(\d+)\/id=(\d+)\/sortby=mostrecent\/json$/;

const fixture: PublisherFixture = {
  domains: ["apps.apple.com", "itunes.apple.com"],
  site: ({ url, method, host }) => {
    if (method !== "GET") return json({ error: "Method Not Allowed" }, 405);
    const match = host === "itunes.apple.com" ? FEED.exec(url.pathname) : null;
    if (match) return feed(match[1], Number(match[2]), match[3]);
    return { status: 404, headers: { "Content-Type": "text/html" }, body: "<h1>Not Found</h1>" };
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: "https://apps.apple.com/us/app/id1001" },
};

export default fixture;
