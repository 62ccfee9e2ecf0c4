/**
 * Fixture play.google.com: app details pages (`/store/apps/details?id=`, 404 for an unknown app) and
 * the batchexecute endpoint (`POST /_/PlayStoreUi/data/batchexecute?hl=&gl=`, form field `f.req`)
 * answering the `oCPfdb` reviews RPC. Request and answer follow JoMingyu/google-play-scraper @ce1df6d6
 * (2024-06-07; google_play_scraper/constants/request.py: the `f.req` envelope
 * `[[["oCPfdb","[null,[2,<sort>,[<count>(,null,\"<token>\")],null,[null,<score>,…,<device>]],[\"<app>\",7]]",null,"generic"]]]`;
 * features/reviews.py: the answer after `)]}'`, `json.loads(match[0][2])` as the payload, reviews
 * at `[0]`, the token at `[-2][-1]` and none when that is a review; constants/element.py: a review's
 * id `[0]`, user `[1][0]`, avatar `[1][1][3][2]`, score `[2]`, text `[4]`, time `[5][0]` (epoch s),
 * thumbs-up `[6]`, reply `[7][1]` dated `[7][2][0]`, version `[10]`), which the 2026-08 pipeline of
 * aws-samples/sample-voice-of-customer-datalake still pages with 200 per call. So a payload with a
 * next page is `[reviews, [null, token], null]` and the last one `[reviews, null]`. The reviews and
 * tokens are invented; a real 2021 answer is read by google-play.capture.test.ts (see captures/SOURCE.md).
 *
 * Apps: com.acme.notes (450 reviews: 200 + 200 + 50), com.acme.quiet (none), com.acme.failing (the
 * RPC answers without data, error 5), com.acme.busy (the RPC answers Google's unusual-traffic page).
 * Without sort 2 (newest) the reviews come in another order.
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export type PlayFixtureReview = unknown[];

const BASE = Date.UTC(2026, 10, 20, 9, 0, 0) / 1000;

function review(i: number): PlayFixtureReview {
  const reply =
    i % 4 === 1
      ? [
          null,
          i === 1 ? "Thanks Ana! Widgets get bigger in 4.3." : `Reply to ${i}`,
          [BASE - i * 3600 + 1800, 0],
        ]
      : null;
  return [
    `gp:AOqpTOFx${String(10_000 - i)}`,
    [
      i === 1 ? "Ana Silva" : `Play User ${i}`,
      [null, 2, null, [null, null, `https://play-lh.googleusercontent.com/a/u${i}`]],
    ],
    (i % 5) + 1,
    null,
    i === 1 ? "Syncs fast. Widgets could be bigger." : `Review ${i} of Acme Notes.`,
    [BASE - i * 3600, 123_000_000],
    i % 7,
    reply,
    null,
    null,
    "4.2.0",
  ];
}

export const NOTES_REVIEWS: PlayFixtureReview[] = Array.from({ length: 450 }, (_, i) => review(i));

const KNOWN = new Set(["com.acme.notes", "com.acme.quiet", "com.acme.failing", "com.acme.busy"]);

const html = (body: string, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=utf-8" },
  body: `<!doctype html><html lang="en"><body>${body}</body></html>`,
});
const envelope = (payload: string | null, error?: number): FixtureResponse => ({
  status: 200,
  headers: { "Content-Type": "application/json; charset=utf-8" },
  body: `)]}'\n\n${JSON.stringify([
    ["wrb.fr", "oCPfdb", payload, null, null, error === undefined ? null : [error], "generic"],
    ["di", 42],
    ["af.httprm", 41, "-6493218042893424071", 7],
  ])}`,
});

const token = (offset: number) => `CpYBCpMBAAAA${btoa(`offset:${offset}`)}`;
const offsetOf = (value: string) => Number(atob(value.slice(12)).replace("offset:", ""));

/** The app, sort, page size and offset a request asks for, or null when `f.req` is not the oCPfdb call. */
function readRequest(body: string): { appId: string; sort: number; count: number; offset: number } | null {
  try {
    const outer = JSON.parse(new URLSearchParams(body).get("f.req") ?? "") as [
      [[string, string, null, string]],
    ];
    if (outer[0][0][0] !== "oCPfdb") return null;
    const args = JSON.parse(outer[0][0][1]) as [
      null,
      [number, number, [number, null?, string?], null, unknown[]],
      [string, number],
    ];
    return {
      appId: args[2][0],
      sort: args[1][1],
      count: args[1][2][0],
      offset: args[1][2][2] ? offsetOf(args[1][2][2]) : 0,
    };
  } catch {
    return null;
  }
}

function batchexecute(body: string): FixtureResponse {
  const request = readRequest(body);
  if (!request) return { status: 400, body: "" };
  const { appId, sort, count, offset } = request;
  if (appId === "com.acme.busy")
    return html("<p>Our systems have detected unusual traffic from your computer network.</p>");
  if (appId === "com.acme.failing") return envelope(null, 5);
  const all = appId === "com.acme.notes" ? NOTES_REVIEWS : [];
  const ordered = sort === 2 ? all : [...all].reverse();
  const page = ordered.slice(offset, offset + count);
  const more = offset + count < ordered.length;
  return envelope(JSON.stringify(more ? [page, [null, token(offset + count)], null] : [page, null]));
}

const fixture: PublisherFixture = {
  domains: ["play.google.com"],
  site: ({ url, method, body }) => {
    if (url.pathname === "/_/PlayStoreUi/data/batchexecute" && method === "POST") return batchexecute(body);
    if (url.pathname === "/store/apps/details" && method === "GET") {
      const id = url.searchParams.get("id") ?? "";
      return KNOWN.has(id)
        ? html(`<h1>${id}</h1>`)
        : html("<h1>We're sorry, the requested URL was not found on this server.</h1>", 404);
    }
    return html("<h1>Not Found</h1>", 404);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: "https://play.google.com/store/apps/details?id=com.acme.notes&hl=en&gl=us" },
};

export default fixture;
