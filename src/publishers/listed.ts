/**
 * Review publishers the service lists without a dedicated module: the generic structured-data
 * module (schema.org Review markup, `rel="next"` pages) scrapes them, and none of them claims an
 * adapter of its own. Listing them lets clients see each one's name, kind and rating scale
 * (GET /publishers, the README table) and lets submit apply its rules (aliases, login cookies, ids).
 *
 * A domain a dedicated module claims (src/publishers/registry.ts MODULES) is not listed here: the
 * module's own data is the publisher's (test/publishers/contract.test.ts checks no entry is left).
 *
 * Sources for the facts below: each site's public profile and review pages (scale shown next to
 * the reviews, profile URL forms). `profileUrlFromId` is set only where the profile URL is built
 * from one id the site itself shows in it; everything else takes a profile URL.
 *
 * What is listed is not a claim that the generic module reads the site: GET /publishers says
 * `support: "unverified"` unless an entry carries `structuredData` evidence (a real review page with
 * schema.org Review items) or `embeddedData` evidence (review records in the page's own JSON, of a
 * shape the generic reader reads). Checked against /work/shared/research/publisher-evidence-2026-11.md
 * (2026-11-24): sites whose reviews are known to come only from script or an API, with no review
 * markup (map apps; App Store and BBB, whose JSON-LD has no Review items; Google Play; OpenTable,
 * Expedia, Hotels.com, Agoda, Zillow, Healthgrades, HolidayCheck, REVIEWS.io, Feefo, Trusted Shops,
 * Judge.me, ProductReview, RateMDs, Zomato) are not listed: any domain is still accepted and tried by
 * the generic module. Sites behind a sign-in or bot wall stay listed with a `note` saying so.
 */
import type { PublisherKind } from "./types";

export interface ListedPublisher {
  /** Canonical publisher key: lower-case, no `www.`. */
  domain: string;
  /** Other keys for the same publisher (country sites, former names); each is a publisher key of its own. */
  aliases?: readonly string[];
  displayName: string;
  kind: Exclude<PublisherKind, "generic">;
  /** The site shows its reviews only to a signed-in visitor: submit requires login cookies. */
  loginRequired?: boolean;
  /** The publisher's own scale, as its review pages show it. */
  ratingScale: string;
  /**
   * Builds a profile URL from a bare id or slug on the key the client used (the domain or an
   * alias); null when the text cannot be such an id.
   */
  profileUrlFromId?: (id: string, publisherKey: string) => string | null;
  /**
   * Evidence that the site's review pages carry schema.org Review markup the generic module reads:
   * what was checked (a real page, a capture) and its date. Only then is the entry `structured-data`.
   */
  structuredData?: { evidence: string; date: string };
  /**
   * Evidence that the site's review pages carry review records in their own JSON (`__NEXT_DATA__`,
   * an Apollo cache, a `window.*` state, an RSC payload) of a shape the generic module's embedded-data
   * reader reads: a real capture or a current public client, named with its commit and date, and the
   * shape shown read in test/publishers/generality.test.ts. Only then is the entry `embedded-data`.
   */
  embeddedData?: { evidence: string; date: string };
  /** A known obstacle, shown in GET /publishers and docs/publishers.md (a sign-in or bot wall). */
  note?: string;
}

/** An id that fits in one path segment; the URL is built from `build` on the publisher key's www host. */
const segment =
  (build: (host: string, id: string) => string, pattern: RegExp = /^[^/?#\s]+$/) =>
  (id: string, publisherKey: string): string | null =>
    pattern.test(id) ? build(`https://www.${publisherKey}`, encodeURIComponent(id)) : null;

const STARS = "1–5 stars";
const SCORE_10 = "1–10 score";

export const LISTED: readonly ListedPublisher[] = [
  // Local business listings
  { domain: "yellowpages.com", displayName: "Yellow Pages", kind: "listing", ratingScale: STARS },
  { domain: "superpages.com", displayName: "Superpages", kind: "listing", ratingScale: STARS },
  { domain: "citysearch.com", displayName: "Citysearch", kind: "listing", ratingScale: STARS },
  { domain: "manta.com", displayName: "Manta", kind: "listing", ratingScale: STARS },
  {
    domain: "foursquare.com",
    displayName: "Foursquare",
    kind: "listing",
    ratingScale: "Tips without a rating; venue score 0–10",
  },
  { domain: "hotfrog.com", displayName: "Hotfrog", kind: "listing", ratingScale: STARS },
  { domain: "merchantcircle.com", displayName: "MerchantCircle", kind: "listing", ratingScale: STARS },
  {
    domain: "chamberofcommerce.com",
    displayName: "Chamber of Commerce",
    kind: "listing",
    ratingScale: STARS,
  },
  { domain: "brownbook.net", displayName: "Brownbook", kind: "listing", ratingScale: STARS },
  { domain: "yell.com", displayName: "Yell", kind: "listing", ratingScale: STARS },
  { domain: "yellowpages.ca", displayName: "YellowPages.ca", kind: "listing", ratingScale: STARS },
  { domain: "n49.com", displayName: "n49", kind: "listing", ratingScale: STARS },
  { domain: "truelocal.com.au", displayName: "True Local", kind: "listing", ratingScale: STARS },
  { domain: "gelbeseiten.de", displayName: "Gelbe Seiten", kind: "listing", ratingScale: STARS },
  { domain: "pagesjaunes.fr", displayName: "PagesJaunes", kind: "listing", ratingScale: STARS },
  { domain: "weddingwire.com", displayName: "WeddingWire", kind: "listing", ratingScale: STARS },
  { domain: "theknot.com", displayName: "The Knot", kind: "listing", ratingScale: STARS },

  // Social
  {
    domain: "nextdoor.com",
    displayName: "Nextdoor",
    kind: "social",
    ratingScale: "Recommendations without a rating",
    note: "Business pages show recommendations only by script and to signed-in members (weak evidence, 2019 and undated).",
  },

  // Consumer reviews of businesses and shops
  { domain: "consumeraffairs.com", displayName: "ConsumerAffairs", kind: "consumer", ratingScale: STARS },
  { domain: "resellerratings.com", displayName: "ResellerRatings", kind: "consumer", ratingScale: STARS },
  { domain: "pissedconsumer.com", displayName: "PissedConsumer", kind: "consumer", ratingScale: STARS },
  { domain: "complaintsboard.com", displayName: "ComplaintsBoard", kind: "consumer", ratingScale: STARS },
  { domain: "shopperapproved.com", displayName: "Shopper Approved", kind: "consumer", ratingScale: STARS },
  { domain: "hellopeter.com", displayName: "HelloPeter", kind: "consumer", ratingScale: STARS },

  // Travel
  { domain: "trip.com", displayName: "Trip.com", kind: "travel", ratingScale: "1–5 score" },
  { domain: "kayak.com", displayName: "KAYAK", kind: "travel", ratingScale: SCORE_10 },
  { domain: "priceline.com", displayName: "Priceline", kind: "travel", ratingScale: SCORE_10 },
  { domain: "hostelworld.com", displayName: "Hostelworld", kind: "travel", ratingScale: SCORE_10 },
  { domain: "makemytrip.com", displayName: "MakeMyTrip", kind: "travel", ratingScale: STARS },
  { domain: "viator.com", displayName: "Viator", kind: "travel", ratingScale: STARS },
  { domain: "getyourguide.com", displayName: "GetYourGuide", kind: "travel", ratingScale: STARS },
  { domain: "cruisecritic.com", displayName: "Cruise Critic", kind: "travel", ratingScale: STARS },

  // Hospitality: restaurants and food delivery
  {
    domain: "thefork.com",
    aliases: ["thefork.fr", "thefork.it", "thefork.es"],
    displayName: "TheFork",
    kind: "hospitality",
    ratingScale: SCORE_10,
    note: "Pages and API sit behind DataDome (403 or a captcha to scripted clients); expect `blocked` without a provider route.",
  },
  { domain: "grubhub.com", displayName: "Grubhub", kind: "hospitality", ratingScale: STARS },
  { domain: "doordash.com", displayName: "DoorDash", kind: "hospitality", ratingScale: STARS },
  { domain: "ubereats.com", displayName: "Uber Eats", kind: "hospitality", ratingScale: STARS },
  { domain: "just-eat.co.uk", displayName: "Just Eat", kind: "hospitality", ratingScale: STARS },
  { domain: "restaurantguru.com", displayName: "Restaurant Guru", kind: "hospitality", ratingScale: STARS },
  { domain: "happycow.net", displayName: "HappyCow", kind: "hospitality", ratingScale: STARS },

  // Employers
  {
    domain: "indeed.com",
    displayName: "Indeed",
    kind: "employer",
    ratingScale: STARS,
    note: "Company review pages answer scripted clients with a Cloudflare bot wall (403) as of 2026-04; expect `blocked` without a provider route.",
    profileUrlFromId: segment((host, id) => `${host}/cmp/${id}/reviews`),
  },
  {
    domain: "comparably.com",
    displayName: "Comparably",
    kind: "employer",
    ratingScale: "Culture grades A+–F and 0–100 scores",
  },
  { domain: "careerbliss.com", displayName: "CareerBliss", kind: "employer", ratingScale: STARS },
  { domain: "ambitionbox.com", displayName: "AmbitionBox", kind: "employer", ratingScale: STARS },
  { domain: "fairygodboss.com", displayName: "Fairygodboss", kind: "employer", ratingScale: STARS },
  { domain: "inhersight.com", displayName: "InHerSight", kind: "employer", ratingScale: STARS },

  // Software and apps
  {
    domain: "trustradius.com",
    displayName: "TrustRadius",
    kind: "software",
    ratingScale: SCORE_10,
    profileUrlFromId: segment((host, id) => `${host}/products/${id}/reviews`),
  },
  { domain: "getapp.com", displayName: "GetApp", kind: "software", ratingScale: STARS },
  { domain: "softwareadvice.com", displayName: "Software Advice", kind: "software", ratingScale: STARS },
  {
    domain: "producthunt.com",
    displayName: "Product Hunt",
    kind: "software",
    ratingScale: STARS,
    profileUrlFromId: segment((host, id) => `${host}/products/${id}/reviews`),
  },
  { domain: "gartner.com", displayName: "Gartner Peer Insights", kind: "software", ratingScale: STARS },
  {
    domain: "sourceforge.net",
    displayName: "SourceForge",
    kind: "software",
    ratingScale: STARS,
    profileUrlFromId: segment((_host, id) => `https://sourceforge.net/projects/${id}/reviews/`),
  },
  { domain: "saasworthy.com", displayName: "SaaSworthy", kind: "software", ratingScale: STARS },
  {
    domain: "chromewebstore.google.com",
    displayName: "Chrome Web Store",
    kind: "software",
    ratingScale: STARS,
  },
  { domain: "apps.microsoft.com", displayName: "Microsoft Store", kind: "software", ratingScale: STARS },
  { domain: "addons.mozilla.org", displayName: "Firefox Add-ons", kind: "software", ratingScale: STARS },
  { domain: "wordpress.org", displayName: "WordPress.org Plugins", kind: "software", ratingScale: STARS },

  // Business services
  { domain: "clutch.co", displayName: "Clutch", kind: "business services", ratingScale: STARS },
  { domain: "goodfirms.co", displayName: "GoodFirms", kind: "business services", ratingScale: STARS },
  { domain: "upcity.com", displayName: "UpCity", kind: "business services", ratingScale: STARS },

  // Health
  { domain: "zocdoc.com", displayName: "Zocdoc", kind: "health", ratingScale: STARS },
  { domain: "vitals.com", displayName: "Vitals", kind: "health", ratingScale: STARS },
  { domain: "webmd.com", displayName: "WebMD Care", kind: "health", ratingScale: STARS },
  { domain: "wellness.com", displayName: "Wellness.com", kind: "health", ratingScale: STARS },
  { domain: "realself.com", displayName: "RealSelf", kind: "health", ratingScale: STARS },
  { domain: "sharecare.com", displayName: "Sharecare", kind: "health", ratingScale: STARS },
  { domain: "caring.com", displayName: "Caring.com", kind: "health", ratingScale: STARS },
  { domain: "aplaceformom.com", displayName: "A Place for Mom", kind: "health", ratingScale: STARS },
  {
    domain: "jameda.de",
    displayName: "jameda",
    kind: "health",
    ratingScale: "German school grades 1–6 (1 best)",
  },
  { domain: "doctoralia.com", displayName: "Doctoralia", kind: "health", ratingScale: STARS },
  { domain: "classpass.com", displayName: "ClassPass", kind: "health", ratingScale: STARS },
  { domain: "mindbodyonline.com", displayName: "Mindbody", kind: "health", ratingScale: STARS },

  // Home services
  // angi.com, angieslist.com, homeadvisor.com and houzz.com, houzz.co.uk have their own modules.
  { domain: "porch.com", displayName: "Porch", kind: "home services", ratingScale: STARS },
  { domain: "bark.com", displayName: "Bark", kind: "home services", ratingScale: STARS },
  { domain: "taskrabbit.com", displayName: "Taskrabbit", kind: "home services", ratingScale: STARS },
  { domain: "care.com", displayName: "Care.com", kind: "home services", ratingScale: STARS },
  { domain: "guildquality.com", displayName: "GuildQuality", kind: "home services", ratingScale: STARS },
  { domain: "homestars.com", displayName: "HomeStars", kind: "home services", ratingScale: SCORE_10 },
  { domain: "checkatrade.com", displayName: "Checkatrade", kind: "home services", ratingScale: SCORE_10 },
  { domain: "trustatrader.com", displayName: "TrustATrader", kind: "home services", ratingScale: STARS },
  { domain: "ratedpeople.com", displayName: "Rated People", kind: "home services", ratingScale: STARS },
  { domain: "rover.com", displayName: "Rover", kind: "home services", ratingScale: STARS },

  // Automotive
  {
    domain: "cars.com",
    displayName: "Cars.com",
    kind: "automotive",
    ratingScale: STARS,
    note: "Dealer review pages answer plain scripted requests with 403 (a bot check); expect `blocked` without a provider route.",
  },
  { domain: "edmunds.com", displayName: "Edmunds", kind: "automotive", ratingScale: STARS },
  { domain: "carfax.com", displayName: "CARFAX", kind: "automotive", ratingScale: STARS },
  { domain: "cargurus.com", displayName: "CarGurus", kind: "automotive", ratingScale: STARS },
  { domain: "kbb.com", displayName: "Kelley Blue Book", kind: "automotive", ratingScale: STARS },
  { domain: "truecar.com", displayName: "TrueCar", kind: "automotive", ratingScale: STARS },
  { domain: "repairpal.com", displayName: "RepairPal", kind: "automotive", ratingScale: STARS },
  { domain: "yourmechanic.com", displayName: "YourMechanic", kind: "automotive", ratingScale: STARS },
  { domain: "autotrader.co.uk", displayName: "Auto Trader UK", kind: "automotive", ratingScale: STARS },
  { domain: "carwow.co.uk", displayName: "carwow", kind: "automotive", ratingScale: STARS },

  // Real estate
  { domain: "realtor.com", displayName: "Realtor.com", kind: "real estate", ratingScale: STARS },
  { domain: "redfin.com", displayName: "Redfin", kind: "real estate", ratingScale: STARS },
  { domain: "apartments.com", displayName: "Apartments.com", kind: "real estate", ratingScale: STARS },
  {
    domain: "apartmentratings.com",
    displayName: "ApartmentRatings",
    kind: "real estate",
    ratingScale: STARS,
  },
  { domain: "apartmentguide.com", displayName: "Apartment Guide", kind: "real estate", ratingScale: STARS },
  { domain: "fastexpert.com", displayName: "FastExpert", kind: "real estate", ratingScale: STARS },
  { domain: "allagents.co.uk", displayName: "allAgents", kind: "real estate", ratingScale: STARS },

  // Retail: product and seller reviews
  {
    domain: "amazon.com",
    aliases: [
      "amazon.co.uk",
      "amazon.de",
      "amazon.fr",
      "amazon.ca",
      "amazon.it",
      "amazon.es",
      "amazon.in",
      "amazon.com.au",
    ],
    displayName: "Amazon",
    kind: "retail",
    // /product-reviews/<ASIN> redirects to sign-in since 2024-11 (publisher evidence 2026-11, row 3).
    loginRequired: true,
    note: "Review pages (/product-reviews/<ASIN>) need a signed-in session since 2024-11: submit login cookies. Signed out, only a product page's few top reviews exist, and they carry no review markup.",
    ratingScale: STARS,
    // A product's ASIN: its review pages live at /product-reviews/<ASIN> on every Amazon site.
    profileUrlFromId: segment((host, id) => `${host}/product-reviews/${id}`, /^[A-Za-z0-9]{10}$/),
  },
  {
    domain: "ebay.com",
    aliases: ["ebay.co.uk", "ebay.de"],
    displayName: "eBay",
    kind: "retail",
    ratingScale: "Positive / neutral / negative feedback",
    profileUrlFromId: segment((host, id) => `${host}/fdbk/feedback_profile/${id}`),
  },
  { domain: "target.com", displayName: "Target", kind: "retail", ratingScale: STARS },
  {
    domain: "etsy.com",
    displayName: "Etsy",
    kind: "retail",
    ratingScale: STARS,
    profileUrlFromId: segment((host, id) => `${host}/shop/${id}`),
  },
  { domain: "homedepot.com", displayName: "The Home Depot", kind: "retail", ratingScale: STARS },
  { domain: "lowes.com", displayName: "Lowe's", kind: "retail", ratingScale: STARS },
  { domain: "costco.com", displayName: "Costco", kind: "retail", ratingScale: STARS },
  { domain: "wayfair.com", displayName: "Wayfair", kind: "retail", ratingScale: STARS },
  { domain: "sephora.com", displayName: "Sephora", kind: "retail", ratingScale: STARS },
  { domain: "ulta.com", displayName: "Ulta Beauty", kind: "retail", ratingScale: STARS },
  { domain: "newegg.com", displayName: "Newegg", kind: "retail", ratingScale: STARS },
  { domain: "chewy.com", displayName: "Chewy", kind: "retail", ratingScale: STARS },
  { domain: "aliexpress.com", displayName: "AliExpress", kind: "retail", ratingScale: STARS },
  { domain: "flipkart.com", displayName: "Flipkart", kind: "retail", ratingScale: STARS },

  // Legal
  { domain: "avvo.com", displayName: "Avvo", kind: "legal", ratingScale: STARS },
  { domain: "lawyers.com", displayName: "Lawyers.com", kind: "legal", ratingScale: STARS },
  { domain: "martindale.com", displayName: "Martindale-Hubbell", kind: "legal", ratingScale: STARS },
  { domain: "justia.com", displayName: "Justia", kind: "legal", ratingScale: STARS },

  // Education
  { domain: "greatschools.org", displayName: "GreatSchools", kind: "education", ratingScale: STARS },
  { domain: "niche.com", displayName: "Niche", kind: "education", ratingScale: STARS },
  {
    domain: "ratemyprofessors.com",
    displayName: "Rate My Professors",
    kind: "education",
    ratingScale: STARS,
  },
];
