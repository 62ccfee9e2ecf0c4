/**
 * Fixture holidaycheck.de: the open hotel review API,
 * `GET /svc/api-hotelreview/v3/hotelreview?select=&filter=hotel.id:<uuid>&sort=entryDate:desc&limit=&offset=&locale=`,
 * answering `{total, items: [{id, title, texts: {GENERAL}, ratings: {GENERAL: {GENERAL}}, travelDate,
 * entryDate, user: {id}, travelReason, traveledWith, children}]}` (the request and the fields as a
 * public client reads them, exact-string index ids 38304313338, 37938803759 and 38157480252:
 * batch 50, offsets below 1,000), and the content query `POST /svc/content-query-v2`
 * `suggestionSearch(…) { hotels { count entities { id name placeDetailString } } }` (id 59084516277).
 * The reviews and hotels are invented. Only `sort=entryDate:desc` gives newest first here.
 *
 * Hotels: 4e19fc5c-2279-36f0-b4ff-69fd37b3e7df "Hotel Veniqui" in Kremasti (120 reviews, three
 * batches, one without an id), 7de062f4-676c-3e2b-ad4a-12fd69afbeb6 (1,234 reviews: the offset
 * limit), 00000000-0000-4000-8000-000000000404 (an answer without `total`). The content query knows
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

function hotelReview(url: URL): FixtureResponse {
  const filter = url.searchParams.get("filter") ?? "";
  const limit = Number(url.searchParams.get("limit"));
  const offset = Number(url.searchParams.get("offset"));
  if (!filter.startsWith("hotel.id:") || !(limit >= 1 && limit <= 50) || !(offset >= 0) || offset >= 1000)
    return json({ error: "bad request" }, 400);
  const uuid = filter.slice("hotel.id:".length);
  const total = uuid === BIG ? 1234 : uuid === VENIQUI || uuid === MOVED ? VENIQUI_REVIEWS.length : 0;
  const all =
    uuid === BIG
      ? Array.from({ length: 1000 }, (_, i) => review(i % 120)).map((r, i) => ({ ...r, id: `big-${i}` }))
      : total
        ? VENIQUI_REVIEWS
        : [];
  const ordered = url.searchParams.get("sort") === "entryDate:desc" ? all : [...all].reverse();
  const items = ordered.slice(offset, offset + limit);
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
    if (url.pathname === "/svc/api-hotelreview/v3/hotelreview" && method === "GET") return hotelReview(url);
    if (url.pathname === "/svc/content-query-v2" && method === "POST") return contentQuery(body);
    return json({ error: "not found" }, 404);
  },
};

export default fixture;
