/**
 * Every dedicated module on every route against its fixture site: the same task run with
 * FETCH_ROUTES set to `direct`, to a provider (through its local fake) and to `browser` must end
 * with the same reviews. The provider fakes relay to the same fixture sites, so a difference is the
 * route's: headers, cookies, bodies, redirects or status lost on the way.
 *
 * The profiles are ones each module's own tests complete with reviews.
 */
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { QueueDriver } from "../helpers/queue";
import { retrieve, slug, submitScrape } from "../e2e/support";
import { BLUE_DOOR } from "../publishers/google-maps/data";
import { LOCATIONS, locationPath } from "../publishers/tripadvisor/data";
import { PROVIDER_SECRETS } from "./keys";

interface Case {
  publisher: string;
  profile: () => string;
  persona?: unknown;
}

const tripadvisor = LOCATIONS.find((l) => l.locationId === 1001)!;

const CASES: Record<string, Case> = {
  airbnb: { publisher: "airbnb.com", profile: () => "https://www.airbnb.com/rooms/1001?adults=2" },
  booking: {
    publisher: "booking.com",
    profile: () => "https://www.booking.com/hotel/gb/harbour-view.en-gb.html?aid=304142",
  },
  capterra: { publisher: "capterra.com", profile: () => "2001" },
  facebook: {
    publisher: "facebook.com",
    profile: () => "bluedoorcafe",
    persona: {
      additional_cookies: {
        login: [
          { name: "c_user", value: "100000000000042", domain: ".facebook.com" },
          { name: "xs", value: "42%3Afixture-session", domain: ".facebook.com" },
        ],
      },
    },
  },
  g2: { publisher: "g2.com", profile: () => "https://www.g2.com/products/acme-crm" },
  glassdoor: {
    publisher: "glassdoor.com",
    profile: () => "https://www.glassdoor.com/Overview/Working-at-Acme-Widgets-EI_IE4242.11,23.htm",
  },
  "google-maps": {
    publisher: "maps.google.com",
    profile: () =>
      `https://www.google.com/maps/place/${BLUE_DOOR.name.replace(/ /g, "+")}/@37.7936,-122.3958,17z/data=!4m6!3m5!1s${BLUE_DOOR.featureId}!8m2!3d37.7936!4d-122.3958`,
  },
  tripadvisor: {
    publisher: "tripadvisor.com",
    profile: () => `https://www.tripadvisor.com${locationPath(tripadvisor)}`,
  },
  trustpilot: {
    publisher: "trustpilot.com",
    profile: () => `https://www.trustpilot.com/review/${slug("multi")}.com`,
  },
  agoda: { publisher: "agoda.com", profile: () => "26210260" },
  twogis: {
    publisher: "2gis.ru",
    profile: () => "https://2gis.ru/moscow/firm/70000001033044306/tab/reviews",
  },
  yandex: { publisher: "yandex.ru", profile: () => "https://yandex.ru/maps/org/pushkin/1018907821/reviews/" },
  expedia: {
    publisher: "expedia.com",
    profile: () =>
      "https://www.expedia.com/Salem-Hotels-The-Artisan-At-Tuscan-Village.h96727634.Hotel-Information",
  },
  healthgrades: {
    publisher: "healthgrades.com",
    profile: () => "https://www.healthgrades.com/physician/dr-jane-doe-x2y3z?tab=reviews",
  },
  holidaycheck: {
    publisher: "holidaycheck.de",
    profile: () => "https://www.holidaycheck.de/hi/hotel-veniqui/4e19fc5c-2279-36f0-b4ff-69fd37b3e7df",
  },
  opentable: { publisher: "opentable.com", profile: () => "https://www.opentable.com/r/perch-la?p=2" },
  zillow: { publisher: "zillow.com", profile: () => "https://www.zillow.com/profile/Jane-Realtor-CA" },
  "app-store": {
    publisher: "apps.apple.com",
    profile: () => "https://apps.apple.com/us/app/acme-notes/id1001",
  },
  bbb: {
    publisher: "bbb.org",
    profile: () =>
      "https://www.bbb.org/us/ca/san-diego/profile/roofing-contractors/acme-roofing-1126-1000001",
  },
  feefo: { publisher: "feefo.com", profile: () => "acme-travel" },
  "google-play": { publisher: "play.google.com", profile: () => "com.acme.notes" },
  "reviews-io": { publisher: "reviews.io", profile: () => "big-store" },
  "trusted-shops": { publisher: "trustedshops.de", profile: () => "example-shop.de" },
  kununu: { publisher: "kununu.com", profile: () => "https://www.kununu.com/de/acme-gmbh/kommentare" },
  ratemds: {
    publisher: "ratemds.com",
    profile: () => "https://www.ratemds.com/doctor-ratings/424258/Dr-W-McAlpine-Savannah-GA.html",
  },
  bestbuy: {
    publisher: "bestbuy.com",
    profile: () =>
      "https://www.bestbuy.com/site/sony-playstation-5-slim-console-white/6565065.p?skuId=6565065",
  },
  angi: {
    publisher: "homeadvisor.com",
    profile: () => "https://www.homeadvisor.com/rated.AllAffordablePlumbing.158720676.html",
  },
  houzz: {
    publisher: "houzz.com",
    profile: () => "https://www.houzz.com/professionals/roofing-and-gutters/jetroof-pfvwus-pf~1991096372",
  },
  thumbtack: {
    publisher: "thumbtack.com",
    profile: () =>
      "https://www.thumbtack.com/nc/charlotte/affordable-plumbing-services/mr-rooter-charlotte-nc/service/394335517902585861",
  },
  productreview: {
    publisher: "productreview.com.au",
    profile: () => "https://www.productreview.com.au/listings/jacaranda-finance",
  },
  smartcustomer: {
    publisher: "sitejabber.com",
    profile: () => "https://www.sitejabber.com/reviews/rover.com",
  },
  walmart: {
    publisher: "walmart.com",
    profile: () => "https://www.walmart.com/ip/Great-Value-Electric-Kettle-1-7-L/5129928603",
  },
  dealerrater: {
    publisher: "dealerrater.com",
    profile: () =>
      "https://www.dealerrater.com/dealer/McKaig-Chevrolet-Buick-A-Dealer-For-The-People-review-23685/",
  },
  judgeme: {
    publisher: "judge.me",
    profile: () => "https://acme-candles.myshopify.com/products/lavender-soy-candle",
  },
  // Absolute dates only: a relative one ("2 days ago") resolves against each run's own clock.
  zomato: {
    publisher: "zomato.com",
    profile: () => "https://www.zomato.com/dubai/operation-falafel-jumeirah",
  },
  tabelog: { publisher: "tabelog.com", profile: () => "https://tabelog.com/tokyo/A1301/A130101/13001234/" },
  naver: { publisher: "naver.com", profile: () => "https://map.naver.com/p/entry/place/1716926393" },
  yelp: {
    publisher: "yelp.com",
    profile: () => `https://www.yelp.com/biz/${slug("cafe")}`,
    persona: {
      additional_cookies: { login: [{ name: "bse", value: "fixture-session-7f3a", domain: ".yelp.com" }] },
    },
  },
};

/** `browser` needs Chromium (see docs/routes.md); the other routes run anywhere. */
const ROUTES = ["direct", "provider:zyte", "provider:scrapfly", "browser"] as const;

let driver: QueueDriver | undefined;
afterEach(() => {
  driver?.restore();
  driver = undefined;
  vi.restoreAllMocks();
});

type Review = Record<string, unknown>;
/**
 * What a run may differ in: when it scraped, and a time the publisher gives relative to now ("3
 * weeks ago", Google's owner replies), which moves with the run's clock: it is left out here and
 * compared within a minute (replyTimes).
 */
const comparable = (reviews: Review[]) =>
  reviews.map(({ scraped_at: _scraped, ...rest }) => {
    const reply = rest.owner_reply as { posted_at?: number } | undefined;
    if (!reply) return rest;
    const { posted_at: _relative, ...replyRest } = reply;
    return { ...rest, owner_reply: replyRest };
  });
const replyTimes = (reviews: Review[]) =>
  reviews.map((r) => (r.owner_reply as { posted_at?: number } | undefined)?.posted_at ?? null);

async function run(c: Case, profile: string, route: string) {
  driver?.restore();
  driver = new QueueDriver({
    settings: {
      ...PROVIDER_SECRETS,
      FETCH_ROUTES: JSON.stringify({ "*": [route] }),
      // Its own fixture sites and fakes: fixed profiles run many times must not count in other tests.
      PUBLISHER_ORIGINS: JSON.stringify(inject("isolatedOrigins")),
      PROVIDER_ORIGINS: JSON.stringify(inject("isolatedProviderOrigins")),
    },
  });
  // Quiet: failures are asserted on the answer.
  vi.spyOn(console, "warn").mockImplementation(() => {});
  const task = await submitScrape(c.publisher, profile, c.persona ? { persona: c.persona } : {});
  await driver.drain();
  const body = await retrieve(task, 1, 1000);
  return body as {
    task_status: number;
    reviews: Review[];
    requests: Record<string, number>;
    response_message?: unknown;
  };
}

/** Direct runs per module, by profile, so each route is compared with the same profile's direct run. */
const baselines = new Map<string, { profile: string; reviews: Review[]; replyTimes: (number | null)[] }>();

async function baseline(name: string, c: Case) {
  let found = baselines.get(name);
  if (!found) {
    const profile = c.profile();
    const body = await run(c, profile, "direct");
    expect(body.task_status, JSON.stringify(body.response_message)).toBe(200);
    found = { profile, reviews: comparable(body.reviews), replyTimes: replyTimes(body.reviews) };
    baselines.set(name, found);
  }
  return found;
}

it("covers every dedicated module with a fixture site", () => {
  expect(Object.keys(CASES).sort()).toEqual([...inject("publisherFixtureNames")].sort());
});

describe.each(Object.entries(CASES))("%s on every route", (name, c) => {
  it.each(ROUTES)("route %s: the same reviews as the direct run", async (route) => {
    const base = await baseline(name, c);
    expect(base.reviews.length).toBeGreaterThan(0);
    if (route === "direct") return;
    const body = await run(c, base.profile, route);
    expect(body.task_status, JSON.stringify(body.response_message)).toBe(200);
    const got = comparable(body.reviews);
    const firstDifference = got.findIndex(
      (review, i) => JSON.stringify(review) !== JSON.stringify(base.reviews[i]),
    );
    expect(
      firstDifference === -1
        ? null
        : { index: firstDifference, got: got[firstDifference], direct: base.reviews[firstDifference] },
    ).toBeNull();
    expect(got).toEqual(base.reviews);
    const times = replyTimes(body.reviews);
    times.forEach((time, i) => {
      const expected = base.replyTimes[i];
      if (time === null || expected === null) expect(time).toBe(expected);
      else expect(Math.abs(time - expected)).toBeLessThan(60_000);
    });
    const kind = route.startsWith("provider:") ? "provider" : route;
    expect(body.requests[kind]).toBeGreaterThan(0);
    for (const other of ["direct", "browser", "provider"].filter((k) => k !== kind))
      expect(body.requests[other]).toBe(0);
  });
});
