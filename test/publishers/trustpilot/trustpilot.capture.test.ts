/**
 * trustpilot.com on real captures: the page data (`businessUnit` and the first page's `reviews`)
 * of three Trustpilot profiles, and 60 businesses of a category's result pages, as scrapfly-scrapers
 * saved them (see ./captures/SOURCE.md). Expected values were read from the files by hand.
 */
import { describe, expect, it } from "vitest";
import raw from "./captures/companies.json?raw";
import searchRaw from "./captures/search.json?raw";
import { parseSearchPage } from "../../../src/publishers/trustpilot/lookup";
import { chooseCandidate } from "../../../src/publishers/trustpilot/lookup";
import { parseReviewPage } from "../../../src/publishers/trustpilot/reviews";

interface CapturedCompany {
  pageUrl: string;
  companyDetails: { identifyingName: string; numberOfReviews: number };
  reviews: unknown[];
}
const capture = JSON.parse(raw) as CapturedCompany[];

/**
 * The profile page around one captured company: the scraper kept `businessUnit` (as `companyDetails`)
 * and `reviews` of `props.pageProps` as they were and dropped the rest; `filters.pagination` is not in
 * the capture and is added here (page 1 of Trustpilot's 20 a page, no `totalCount`), so the count
 * comes from the captured `businessUnit.numberOfReviews`.
 */
function profilePage(company: CapturedCompany): string {
  const pageProps = {
    pageUrl: company.pageUrl,
    businessUnit: company.companyDetails,
    reviews: company.reviews,
    filters: {
      pagination: { currentPage: 1, totalPages: Math.ceil(company.companyDetails.numberOfReviews / 20) },
    },
  };
  // As Next.js writes it: `<` escaped so no text can end the script.
  const data = JSON.stringify({ props: { pageProps }, page: "/review/[businessUnit]" }).replace(
    /</g,
    "\\u003c",
  );
  return `<!DOCTYPE html><html lang="en-US"><head><title>Trustpilot</title></head><body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${data}</script></body></html>`;
}

const [bh, iggm, flashbay] = capture;

describe("trustpilot on a real capture (scrapfly-scrapers results/companies.json, 2023-12)", () => {
  it("holds the three profiles the tests read", () => {
    expect(capture.map((c) => [c.pageUrl, c.reviews.length])).toEqual([
      ["https://www.trustpilot.com/review/www.bhphotovideo.com", 20],
      ["https://www.trustpilot.com/review/iggm.com", 20],
      ["https://www.trustpilot.com/review/www.flashbay.com", 20],
    ]);
  });

  it("reads every review of a profile and one exactly, the body being the text without its title", async () => {
    const page = await parseReviewPage(profilePage(bh));
    expect(page).toMatchObject({ pagination: { currentPage: 1, totalPages: 15312 }, totalCount: 306224 });
    // The profile's TrustScore as the page data states it (publisher_summary.rating); the capture
    // holds no filters.reviewStatistics, so no star breakdown.
    expect(page.summary).toEqual({ rating: 4.9, ratingScale: "1-5", histogram: null });
    expect(page.reviews).toHaveLength(20);
    expect(page.reviews[0]).toEqual({
      id: "6570e5ef49d048452ad722bd",
      author_name: "Katy-Lynn Winery videography services",
      author_id: "5a393b380000ff000af38c13",
      author_url: "https://www.trustpilot.com/users/5a393b380000ff000af38c13",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Seldom do I ever get a staff member that doesn't understand my requests on equipment. When I ask to speak to someone else or they are confused about I always get transferred to another specialist.  This is key to me saving time.  Wonderful group.",
      url: "https://www.trustpilot.com/reviews/6570e5ef49d048452ad722bd",
      date: "2023-12-06T23:21:52.000Z",
      language: "en",
      // Trustpilot's own title here is the text's first words ("Seldom do I ever get a staff member…"): left out.
      likes: 0,
    });
  });

  it("reads another profile's review exactly", async () => {
    const page = await parseReviewPage(profilePage(iggm));
    expect(page.totalCount).toBe(27721);
    expect(page.reviews[1]).toEqual({
      id: "6570c89f4560162cdaa5a46b",
      author_name: "customer",
      author_id: "6570c89ec080f00012acbb1e",
      author_url: "https://www.trustpilot.com/users/6570c89ec080f00012acbb1e",
      rating: { value: 5, best: 5, worst: 1 },
      text: "I was a little skeptical at first, but they were very quick to respond to me and I received all the items I ordered. I would recommend for players like me who struggle with rng or would like to get certain items they want easily.",
      url: "https://www.trustpilot.com/reviews/6570c89f4560162cdaa5a46b",
      date: "2023-12-06T21:16:48.000Z",
      language: "en",
      title: "Not a scam!",
      likes: 0,
    });
  });

  it("reads the business's reply with its own date", async () => {
    const page = await parseReviewPage(profilePage(flashbay));
    expect(page.reviews.filter((r) => r.reply_text)).toHaveLength(19);
    expect(page.reviews[1]).toEqual({
      id: "6570ded41b8e199192db264a",
      author_name: "Briana Vanderwiel",
      author_id: "6570ded3b5be6d001288b82a",
      author_url: "https://www.trustpilot.com/users/6570ded3b5be6d001288b82a",
      rating: { value: 5, best: 5, worst: 1 },
      text: "Jill was very helpful in assisting me with our flash drive order. We went back and forth many times to decide on a size and qty of flash drives. Once we placed the order our shipment came in a very timely manner and was of great quality. We will be returning for more buisness.",
      url: "https://www.trustpilot.com/reviews/6570ded41b8e199192db264a",
      date: "2023-12-06T22:51:33.000Z",
      language: "en",
      reply_text:
        "Hello Briana,\nThank you for your kind words.\nIt\u2019s great to hear that Jill was so helpful throughout the ordering process. I will make sure to pass this along to her.\nWe appreciate your business, and look forward to working with you next time! \n-Flashbay Management",
      reply_date: "2023-12-06T23:28:04.000Z",
      title: "VERY HELPFUL",
      likes: 0,
    });
  });
});

/**
 * A results page around the captured businesses: the scraper kept `props.pageProps.businessUnits.businesses`
 * of three category pages as they were (concatenated) and nothing else; the lookup reads the same
 * list, plain or wrapped as `{businesses}`.
 */
function resultsPage(businesses: unknown[]): string {
  const data = JSON.stringify({ props: { pageProps: { businessUnits: { businesses } } } }).replace(
    /</g,
    "\\u003c",
  );
  return `<!DOCTYPE html><html><head><title>Trustpilot</title></head><body><script id="__NEXT_DATA__" type="application/json">${data}</script></body></html>`;
}

describe("trustpilot lookup on a real capture (scrapfly-scrapers results/search.json, 2023-12)", () => {
  const businesses = JSON.parse(searchRaw) as unknown[];

  it("reads every result with its address as Trustpilot gives it", async () => {
    const candidates = await parseSearchPage(resultsPage(businesses));
    expect(candidates).toHaveLength(60);
    // The whole address in one line, city and postal code empty.
    expect(candidates[0]).toEqual({
      identifyingName: "www.flashbay.com",
      displayName: "Flashbay",
      address: "Flashbay Inc. 569 Clyde Avenue, Unit 500, Mountain View, CA 94043",
      city: null,
      zipCode: null,
    });
    expect(candidates[6]).toEqual({
      identifyingName: "www.bhphotovideo.com",
      displayName: "B&H Photo-Video",
      address: "420 9th Ave",
      city: "New York",
      zipCode: "10001",
    });
    // No address at all.
    expect(candidates[1]).toEqual({
      identifyingName: "selllocked.com",
      displayName: "SellLocked.com",
      address: null,
      city: null,
      zipCode: null,
    });
  });

  it("chooses by name and street or postal code among the real results, and never a different postal code", async () => {
    const candidates = await parseSearchPage(resultsPage(businesses));
    const choose = (name: string, street: string, zip: string) =>
      chooseCandidate({ name, street, zip }, candidates)?.identifyingName ?? null;
    expect(choose("B&H Photo Video", "420 9th Avenue", "10001")).toBe("www.bhphotovideo.com");
    // The postal code found inside the one-line address.
    expect(choose("Flashbay Inc.", "1 Other Street", "94043")).toBe("www.flashbay.com");
    expect(choose("Campbell Miller Tools", "20 Jordanvale Ave", "G140QU")).toBe("campbellmillertools.co.uk");
    expect(choose("Crutchfield", "1 Crutchfield Park", "22901")).toBeNull();
    expect(choose("SellLocked", "1 Main Street", "10001")).toBeNull();
  });
});
