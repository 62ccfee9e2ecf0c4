/**
 * Fixture holidaycheck.de: the hotel review API's 2026 route,
 * `GET /api/hotel-reviews;filter=hotel.id:<uuid>;limit=;locale=;offset=;select=;sort=entryDate:desc`
 * (matrix parameters, percent-encoded values, up to 100 a page, as the 2026 Apify actor
 * valiant_quarter/best-holidaycheck-de-reviews-scraper describes it), answering `{total, items: [{id,
 * title, texts: {GENERAL}, ratings: {GENERAL: {GENERAL}}, travelDate, entryDate, user: {id},
 * travelReason, traveledWith, children}]}` (the item fields as public clients read them; see
 * README.md), and the content query `POST /svc/content-query-v2`
 * `suggestionSearch(…) { hotels { count entities { id name placeDetailString } } }` (id 59084516277).
 * The reviews and hotels are invented. Only `sort=entryDate:desc` gives newest first here.
 *
 * Hotels: 4e19fc5c-2279-36f0-b4ff-69fd37b3e7df "Hotel Veniqui" in Kremasti (120 reviews, two
 * batches, one without an id), 7de062f4-676c-3e2b-ad4a-12fd69afbeb6 (12,345 reviews: past the
 * module's bound of 10,000), 00000000-0000-4000-8000-000000000404 (an answer without `total`). The content query knows
 * Hotel Veniqui in Kremasti and a "Hotel Veniqui" in Bitez, Turkey.
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export const VENIQUI = "4e19fc5c-2279-36f0-b4ff-69fd37b3e7df";
export const BIG = "7de062f4-676c-3e2b-ad4a-12fd69afbeb6";
export const MOVED = "00000000-0000-4000-8000-000000000404";

export interface HolidaycheckFixtureReview {
  id?: string;
  title: string;
  texts: { GENERAL: string; HOTEL?: string };
  ratings: { GENERAL: { GENERAL: number } };
  travelDate: string;
  entryDate: string;
  user: { id: string };
  travelReason: string;
  traveledWith: string;
  children: string;
}

const NEWEST = Date.UTC(2026, 10, 10, 8, 0);

function review(i: number): HolidaycheckFixtureReview {
  const entry = NEWEST - i * 86_400_000;
  return {
    ...(i === 70 ? {} : { id: `a1b2c3d4-0000-4000-8000-${String(100_000_000_000 + i)}` }),
    title: i === 1 ? "Traumhafter Urlaub" : `Urlaub ${i}`,
    texts: {
      GENERAL:
        i === 1 ? "  Sehr freundliches Personal und ein toller Strand.  " : `Alles gut bei Aufenthalt ${i}.`,
      HOTEL: "Sauber.",
    },
    ratings: { GENERAL: { GENERAL: 6 - (i % 5) } },
    travelDate: new Date(entry - 30 * 86_400_000).toISOString().slice(0, 7),
    entryDate: new Date(entry).toISOString(),
    user: { id: `u-${i}` },
    travelReason: "BEACH",
    traveledWith: "PARTNER",
    children: "NO",
  };
}

export const VENIQUI_REVIEWS: HolidaycheckFixtureReview[] = Array.from({ length: 120 }, (_, i) => review(i));

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});

/** The matrix parameters after the path's first segment (`/api/hotel-reviews;k=v;k=v`), decoded. */
function matrixOf(pathname: string): Record<string, string> {
  const [, ...pairs] = pathname.split(";");
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf("=");
      return [pair.slice(0, at), decodeURIComponent(pair.slice(at + 1))];
    }),
  );
}

function hotelReview(url: URL): FixtureResponse {
  const params = matrixOf(url.pathname);
  const filter = params.filter ?? "";
  const limit = Number(params.limit);
  const offset = Number(params.offset);
  if (!filter.startsWith("hotel.id:") || !(limit >= 1 && limit <= 100) || !(offset >= 0))
    return json({ error: "bad request" }, 400);
  const uuid = filter.slice("hotel.id:".length);
  const total = uuid === BIG ? 12_345 : uuid === VENIQUI || uuid === MOVED ? VENIQUI_REVIEWS.length : 0;
  const newestFirst = params.sort === "entryDate:desc";
  const veniqui = total && uuid !== BIG ? VENIQUI_REVIEWS : [];
  const items =
    uuid === BIG
      ? Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({
          ...review((offset + i) % 120),
          id: `big-${offset + i}`,
        }))
      : (newestFirst ? veniqui : [...veniqui].reverse()).slice(offset, offset + limit);
  if (uuid === MOVED) return json({ count: total, items });
  return json({ total, items, limit, offset });
}

function contentQuery(body: string): FixtureResponse {
  const request = JSON.parse(body) as { query?: string; variables?: { q?: string } };
  if (!request.query?.includes("suggestionSearch"))
    return json({ errors: [{ message: "unknown query" }] }, 400);
  const q = (request.variables?.q ?? "").toLowerCase();
  const entities = q.includes("veniqui")
    ? [
        {
          id: "11111111-2222-4333-8444-555555555555",
          name: "Hotel Veniqui",
          placeDetailString: "Hotel in Bitez, Bodrum, Türkei",
        },
        { id: VENIQUI, name: "Hotel Veniqui", placeDetailString: "Hotel in Kremasti, Rhodos, Griechenland" },
      ]
    : [];
  return json({ data: { suggestionSearch: { hotels: { count: entities.length, entities } } } });
}

const fixture: PublisherFixture = {
  domains: ["holidaycheck.de", "holidaycheck.at", "holidaycheck.ch"],
  site: ({ url, method, body }) => {
    if (url.pathname.startsWith("/api/hotel-reviews;") && method === "GET") return hotelReview(url);
    if (url.pathname === "/svc/content-query-v2" && method === "POST") return contentQuery(body);
    return json({ error: "not found" }, 404);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: `https://www.holidaycheck.de/hi/x/${VENIQUI}` },
};

export default fixture;
