/**
 * The Booking.com fixture site (www.booking.com):
 * - GET /hotel/<cc>/<slug>[.<lang>].html: the hotel page with its hidden hotel_id and dest_id inputs
 *   and an inline page settings script with `b_hotel_id`, `b_ufi` and `b_csrf_token` in the form
 *   scrapfly-scrapers bookingcom.py (2026-05) reads them (`b_csrf_token: '…'`, `b_hotel_id: '…'`);
 *   the script's surroundings are invented (404 for unknown hotels);
 * - POST /dml/graphql: the ReviewList operation (data.ts names the public sources of its shapes),
 *   refused with 403 when `x-booking-csrf-token` is not the page's token (modelled on the scrapers'
 *   note that the header is needed "to avoid being blocked"; the exact refusal is not verified).
 * The bot challenge is AWS WAF's JavaScript challenge page (status 202, window.awsWafCookieDomainList,
 * window.gokuProps, a token.awswaf.com challenge.js, #challenge-container) as public scraper notes
 * capture it verbatim for sites behind AWS WAF; that Booking serves exactly this page is not verified.
 */
import type { FixtureRequest, FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import { HOTELS, csrfOf, hotelPath, type FixtureHotel } from "./data";

const html = (status: number, body: string): FixtureResponse => ({
  status,
  headers: { "Content-Type": "text/html; charset=UTF-8" },
  body,
});
const json = (status: number, data: unknown): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});

const CHALLENGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title></title><script type="text/javascript">window.awsWafCookieDomainList = ['booking.com'];window.gokuProps = {"key":"AQIDAHjcYu/GjX+QlghicBgQ/7bFaQZ+m5FKCMDnO+vTbNg96AF","iv":"D549/gDkwgAAAeFf","context":"q1pq"};</script><script src="https://d8c14d4960ca.337f8b16.us-east-2.token.awswaf.com/d8c14d4960ca/a18a4859af9c/f81f84a03d17/challenge.js"></script></head><body><div id="challenge-container"></div><noscript><h1>JavaScript is disabled</h1></noscript></body></html>`;

function hotelPage(hotel: FixtureHotel): FixtureResponse {
  if (hotel.behaviour === "challenge") return html(202, CHALLENGE);
  const inputs =
    hotel.behaviour === "no-ids" || hotel.behaviour === "inline-ids"
      ? ""
      : `<input type="hidden" name="hotel_id" value="${hotel.hotelId}"><input type="hidden" name="dest_id" value="${hotel.ufi}"><input type="hidden" name="dest_type" value="city">`;
  const ids =
    hotel.behaviour === "no-ids" ? "" : `b_hotel_id: '${hotel.hotelId}',\n    b_ufi: '${hotel.ufi}',\n    `;
  const settings = `<script>\n  var booking = booking || {};\n  booking.env = {\n    b_action: 'hotel',\n    ${ids}b_csrf_token: '${csrfOf(hotel)}',\n    b_lang: 'en-gb'\n  };\n</script>`;
  return html(
    200,
    `<!DOCTYPE html><html lang="en-gb"><head><title>${hotel.name}, UK - Booking.com</title>${settings}</head><body><h2 class="pp-header__title">${hotel.name}</h2><form id="hotelpage_availform" action="/hotel/${hotel.countryCode}/${hotel.slug}.html" method="get">${inputs}</form></body></html>`,
  );
}

interface ReviewListInput {
  hotelId?: unknown;
  ufi?: unknown;
  hotelCountryCode?: unknown;
  sorter?: unknown;
  skip?: unknown;
  limit?: unknown;
}

function reviewList(request: FixtureRequest): FixtureResponse {
  let body: { operationName?: unknown; query?: unknown; variables?: { input?: ReviewListInput } };
  try {
    body = JSON.parse(request.body);
  } catch {
    return json(400, { errors: [{ message: "Invalid JSON body" }] });
  }
  if (
    body.operationName !== "ReviewList" ||
    typeof body.query !== "string" ||
    !body.query.includes("reviewListFrontend")
  ) {
    return json(200, { errors: [{ message: "Unknown operation" }], data: null });
  }
  const input = body.variables?.input ?? {};
  const hotel = HOTELS.find(
    (h) => h.hotelId === input.hotelId && h.ufi === input.ufi && h.countryCode === input.hotelCountryCode,
  );
  if (!hotel)
    return json(200, {
      data: {
        reviewListFrontend: {
          __typename: "ReviewsFrontendError",
          statusCode: 404,
          message: "Hotel not found",
        },
      },
    });
  if (request.headers["x-booking-csrf-token"] !== csrfOf(hotel))
    return { status: 403, headers: { "Content-Type": "text/plain" }, body: "Forbidden" };
  if (hotel.behaviour === "frontend-error")
    return json(200, {
      data: {
        reviewListFrontend: {
          __typename: "ReviewsFrontendError",
          statusCode: 500,
          message: "Internal error",
        },
      },
    });
  const skip = typeof input.skip === "number" ? input.skip : 0;
  const limit = typeof input.limit === "number" ? Math.min(input.limit, 25) : 10;
  // Newest first only when asked; "most relevant" (here: best score first) otherwise.
  const ordered =
    input.sorter === "NEWEST_FIRST"
      ? hotel.cards
      : [...hotel.cards].sort((a, b) => b.reviewScore - a.reviewScore);
  // A hotel that counts reviews it does not list (as a filter the query does not know about would).
  const reviewCard =
    hotel.behaviour === "lists-none"
      ? []
      : ordered.slice(skip, skip + limit).map((card) => ({ ...card, __typename: "ReviewCard" }));
  const result = {
    __typename: "ReviewListFrontendResult",
    reviewsCount: hotel.cards.length,
    reviewCard,
    sorters: [{ name: "Newest first", value: "NEWEST_FIRST" }],
  };
  if (hotel.behaviour === "changed-structure") return json(200, { data: { reviewListFrontendV2: result } });
  return json(200, { data: { reviewListFrontend: result } });
}

function site(request: FixtureRequest): FixtureResponse {
  const { url, method } = request;
  if (url.pathname === "/dml/graphql" && method === "POST") return reviewList(request);
  const hotel =
    method === "GET"
      ? HOTELS.find(
          (h) =>
            url.pathname === hotelPath(h) || url.pathname.startsWith(`/hotel/${h.countryCode}/${h.slug}.`),
        )
      : undefined;
  return hotel ? hotelPage(hotel) : html(404, "<h1>Page not found</h1>");
}

const fixture: PublisherFixture = {
  domains: ["booking.com"],
  site,
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: "https://www.booking.com/hotel/gb/harbour-view.html" },
};
export default fixture;
