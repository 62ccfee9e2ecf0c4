/** g2.com: the review-card parser on the fixture's pages, submit rules, and the module end to end. */
import { createHash } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { inspectG2Page } from "../../../src/publishers/g2/adapter";
import { cardReview, ratingText, readG2Page } from "../../../src/publishers/g2/cards";
import { fixtureRequests, retrieve, submitScrape } from "../../e2e/support";
import { failed, queuePerTest, scrapeError } from "../support";
import {
  ACME,
  AUGUST_2025,
  CHANGED,
  CURRENT,
  CLOUDFLARE,
  DATADOME,
  DATADOME_403,
  EMPTY_PRODUCT,
  NO_TEXT,
  PORTUGUESE,
  SHELL,
  SHELL_NO_CARDS,
  SIGN_IN,
  WITH_REPLY,
  newestFirst,
  type FixtureG2Review,
} from "./data";
import fixture from "./site";

const reviewsUrl = (slug: string, page = 1) =>
  `https://www.g2.com/products/${slug}/reviews?order=most_recent${page > 1 ? `&page=${page}` : ""}`;
const fragmentUrl = (slug: string, page = 1) =>
  `https://www.g2.com/products/${slug}/reviews_and_filters?order=most_recent${page > 1 ? `&page=${page}` : ""}`;

function answer(url: string) {
  const u = new URL(url);
  return fixture.site({ url: u, host: u.host, method: "GET", cookie: "", count: 1, headers: {}, body: "" });
}

/** The documented text layout: the title, then each question heading over its answer, blank lines between. */
function documentedText(r: FixtureG2Review): string {
  return [r.title, ...r.sections.map((s) => `${s.heading}\n${s.paragraphs.join("\n")}`)]
    .filter(Boolean)
    .join("\n\n");
}

/** Half stars to 1..5: N / 2 stars, halves rounded up, at least 1. */
const FIVE = [1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5];

/** md5 of the Go-style JSON review_hash uses (docs/architecture.md): like JSON.stringify, but Go escapes &, < and >. */
function goHash(fields: string[]): string {
  return createHash("md5")
    .update(JSON.stringify(fields).replace(/&/g, "\\u0026").replace(/</g, "\\u003c").replace(/>/g, "\\u003e"))
    .digest("hex");
}

function expected(r: FixtureG2Review, slug = "acme-crm") {
  const text = documentedText(r);
  const author = r.author?.name ?? "";
  return {
    review_id: String(r.id),
    author_name: author,
    author_id: r.author?.url ?? null,
    rating: FIVE[r.stars],
    text,
    url: `https://www.g2.com/products/${slug}/reviews/${slug}-review-${r.id}`,
    posted_at: Date.parse(`${r.date}T00:00:00Z`),
    review_hash: goHash(
      !text && !author ? [String(r.id)] : r.reply ? [text, author, r.reply.text] : [text, author],
    ),
    language: r.language ?? (r.title ? "en" : "und"),
    source_date: r.date,
    scraped_at: expect.any(Number),
    // The title is also a field of its own (issue 36), beside the text and its hash.
    ...(r.title ? { title: r.title } : {}),
    ...(r.reply
      ? { owner_reply: { text: r.reply.text, posted_at: Date.parse(`${r.reply.date}T00:00:00Z`) } }
      : {}),
  };
}

describe("g2 parser", () => {
  it("reads ids, authors, half stars, dates, titles, question sections, languages and vendor responses from the cards", async () => {
    const first = await readG2Page(answer(reviewsUrl("acme-crm")).body);
    expect(first).toMatchObject({ reviewCount: 23, hasNext: true });
    expect(first.cards).toHaveLength(10);
    expect(first.cards.slice(0, 3).map((c, i) => cardReview(c, i, "acme-crm"))).toEqual([
      {
        id: "10900001",
        author_name: "Dana K.",
        author_url: "https://www.g2.com/users/dana-k",
        rating: { value: 4.5, best: 5, worst: 1 },
        text:
          "Pipelines that finally make sense\n\nWhat do you like best about Acme CRM?\nThe pipeline board & its filters.\n\nWhat do you dislike about Acme CRM?\nReports take a while to load.\n\n" +
          "What problems is Acme CRM solving and how is that benefiting you?\nWe stopped losing leads in spreadsheets.\nOnboarding new reps takes a day.",
        url: "https://www.g2.com/products/acme-crm/reviews/acme-crm-review-10900001",
        date: "2026-10-02",
        title: "Pipelines that finally make sense",
        reply_text: "Thanks Dana! Faster reports ship next month.",
        reply_date: "2026-10-04",
      },
      {
        id: "10900002",
        author_name: "João P.",
        author_url: "https://www.g2.com/users/joao-p",
        rating: { value: 3.5, best: 5, worst: 1 },
        text: "Bom, mas caro\n\nWhat do you like best about Acme CRM?\nA integração com o e-mail.\n\nWhat do you dislike about Acme CRM?\nO preço para equipes pequenas.",
        url: "https://www.g2.com/products/acme-crm/reviews/acme-crm-review-10900002",
        date: "2026-10-01",
        title: "Bom, mas caro",
        language: "pt",
      },
      {
        id: "10900003",
        rating: { value: 2, best: 5, worst: 1 },
        text: "",
        url: "https://www.g2.com/products/acme-crm/reviews/acme-crm-review-10900003",
        date: "2026-09-30",
      },
    ]);
    const last = await readG2Page(answer(reviewsUrl("acme-crm", 3)).body);
    expect(last).toMatchObject({ reviewCount: 23, hasNext: false });
    expect(last.cards).toHaveLength(3);
  });

  it("reads the 2026-07 layout: article ids, the rating as N/5 text, a dated meta, elv-* names and titles, sections without G2's attribution line", async () => {
    const first = await readG2Page(answer(reviewsUrl(CURRENT.slug)).body);
    // No microdata: the list heading's "(23)" is the count; the pagination's named "next" link leads on.
    expect(first).toMatchObject({ reviewCount: 23, hasNext: true });
    expect(await readG2Page(answer(reviewsUrl(CURRENT.slug, 3)).body)).toMatchObject({
      reviewCount: 23,
      hasNext: false,
    });
    expect(first.cards).toHaveLength(10);
    expect(first.cards.slice(0, 3).map((c, i) => cardReview(c, i, CURRENT.slug))).toEqual([
      {
        id: "11900001",
        author_name: "Dana K.",
        rating: { value: 4.5, best: 5, worst: 1 },
        text:
          "Pipelines that finally make sense\n\nWhat do you like best about Acme CRM?\nThe pipeline board & its filters.\n\nWhat do you dislike about Acme CRM?\nReports take a while to load.\n\n" +
          "What problems is Acme CRM solving and how is that benefiting you?\nWe stopped losing leads in spreadsheets.\nOnboarding new reps takes a day.",
        url: "https://www.g2.com/products/acme-hr/reviews/acme-hr-review-11900001",
        date: "2026-10-02",
        title: "Pipelines that finally make sense",
      },
      {
        id: "11900002",
        author_name: "João P.",
        rating: { value: 3.5, best: 5, worst: 1 },
        text: "Bom, mas caro\n\nWhat do you like best about Acme CRM?\nA integração com o e-mail.\n\nWhat do you dislike about Acme CRM?\nO preço para equipes pequenas.",
        url: "https://www.g2.com/products/acme-hr/reviews/acme-hr-review-11900002",
        date: "2026-10-01",
        title: "Bom, mas caro",
      },
      {
        id: "11900003",
        rating: { value: 2, best: 5, worst: 1 },
        text: "",
        url: "https://www.g2.com/products/acme-hr/reviews/acme-hr-review-11900003",
        date: "2026-09-30",
      },
    ]);
  });

  it("reads the reviews_and_filters fragment with the same reader: a turbo-frame of 2026-07 cards, its count and next link; the shell has no cards", async () => {
    const shell = await readG2Page(answer(reviewsUrl(SHELL.slug)).body);
    expect(shell).toEqual({ cards: [], reviewCount: null, hasNext: false });
    const first = await readG2Page(answer(fragmentUrl(SHELL.slug)).body);
    expect(first).toMatchObject({ reviewCount: 23, hasNext: true });
    expect(first.cards.map((c) => c.id)).toEqual(
      newestFirst(SHELL)
        .slice(0, 10)
        .map((r) => String(r.id)),
    );
    expect(await readG2Page(answer(fragmentUrl(SHELL.slug, 3)).body)).toMatchObject({
      reviewCount: 23,
      hasNext: false,
    });
  });

  it("reads the 2025-08 layout: article cards with reviewRating/ratingValue, datePublished, author and title microdata", async () => {
    const first = await readG2Page(answer(reviewsUrl(AUGUST_2025.slug)).body);
    expect(first).toMatchObject({ reviewCount: null, hasNext: true });
    expect(first.cards).toHaveLength(10);
    const [newest] = newestFirst(AUGUST_2025);
    expect(cardReview(first.cards[0], 0, AUGUST_2025.slug)).toEqual({
      id: String(newest.id),
      author_name: newest.author!.name,
      rating: { value: newest.stars / 2, best: 5, worst: 1 },
      text: documentedText(newest),
      url: `https://www.g2.com/products/acme-erp/reviews/acme-erp-review-${newest.id}`,
      date: newest.date,
      ...(newest.title ? { title: newest.title } : {}),
    });
  });

  it("takes the header's .elv-star-wrapper__desc__count when the list heading has none, and no prev link for a next one", async () => {
    const prev = `<ul aria-label="Pagination"><li><a class="pagination__named-link" data-event-options="{&quot;value&quot;:&quot;prev&quot;}" href="?page=1">Prev</a></li></ul>`;
    const page = await readG2Page(
      `<div class="elv-star-wrapper__desc"><span class="elv-star-wrapper__desc__count">(1,234)</span></div>${prev}`,
    );
    expect(page).toEqual({ cards: [], reviewCount: 1234, hasNext: false });
  });

  it("reads the rating text G2 writes and nothing else", () => {
    expect([ratingText("4.5/5"), ratingText(" 4 / 5 "), ratingText("4,5/5"), ratingText("5/5")]).toEqual([
      4.5, 4, 4.5, 5,
    ]);
    expect([ratingText("9/10"), ratingText("4.5"), ratingText("6/5"), ratingText("")]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it("keeps each card's answers to itself, headed or not", async () => {
    const card = (id: number, body: string) =>
      `<div id="survey-response-${id}" itemprop="review"><meta itemprop="datePublished" content="2026-01-0${id}"><div class="stars stars-8"></div><div itemprop="reviewBody">${body}</div></div>`;
    const { cards } = await readG2Page(
      `<html><body>${card(1, "<h5>Best?</h5><p>One</p>")}${card(2, "<p>Two</p>")}</body></html>`,
    );
    expect(cards.map((c) => c.sections)).toEqual([
      [{ heading: "Best?", body: "One" }],
      [{ heading: "", body: "Two" }],
    ]);
  });

  it("names what is missing when the page changed", async () => {
    const changed = await readG2Page(answer(reviewsUrl(CHANGED.slug)).body);
    expect(changed).toEqual({ cards: [], reviewCount: null, hasNext: false });
    const [card] = (await readG2Page(answer(reviewsUrl("acme-crm")).body)).cards;
    expect(scrapeError(() => cardReview({ ...card, rating: null }, 4, "acme-crm")).message).toBe(
      "G2 page: review 4 has no rating (elv-star-wrapper__desc__rating, ratingValue or stars-N)",
    );
    expect(scrapeError(() => cardReview({ ...card, id: null }, 2, "acme-crm")).message).toBe(
      "G2 page: review 2 has no review id (survey-response-N or <slug>-review-N)",
    );
    expect(scrapeError(() => cardReview({ ...card, date: null }, 1, "acme-crm")).message).toBe(
      "G2 page: review 1 has no date (datePublished or a dated meta)",
    );
  });

  it("sees DataDome's and Cloudflare's challenge pages and lets review pages through", () => {
    const page = (url: string) => ({
      url: new URL(url),
      status: 200,
      headers: new Headers(),
      text: answer(url).body,
      rendered: false,
    });
    expect(inspectG2Page(page(reviewsUrl(DATADOME.slug)))).toMatchObject({ reason: "blocked" });
    expect(inspectG2Page(page(reviewsUrl(CLOUDFLARE.slug)))).toMatchObject({ reason: "blocked" });
    expect(inspectG2Page(page(reviewsUrl(ACME.slug)))).toBeNull();
  });
});

describe("g2 end to end", () => {
  const queue = queuePerTest();

  it("walks every page newest first with titles, answers, exact ids, dates, hashes and vendor responses", async () => {
    const task = await submitScrape("g2.com", "https://www.g2.com/products/acme-crm");
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.business.profile_key).toBe(reviewsUrl("acme-crm"));
    expect(body.pagination).toMatchObject({ total_reviews: 23, total_pages: 1 });
    expect(body.reviews).toEqual(newestFirst(ACME).map((r) => expected(r)));
    expect(body.reviews[0]).toMatchObject({
      review_id: String(WITH_REPLY.id),
      rating: 5,
      owner_reply: { text: WITH_REPLY.reply!.text, posted_at: Date.parse("2026-10-04T00:00:00Z") },
    });
    expect(body.reviews[1]).toMatchObject({
      review_id: String(PORTUGUESE.id),
      language: "pt",
      rating: 4,
      text: documentedText(PORTUGUESE),
    });
    expect(body.reviews[2]).toMatchObject({ review_id: String(NO_TEXT.id), text: "", rating: 2 });
    expect(body.reviews.at(-1)).toMatchObject({ review_id: String(newestFirst(ACME).at(-1)!.id) });
  });

  it("walks the 2026-07 layout to its stated count without a next link, and states the publisher's total", async () => {
    const task = await submitScrape("g2.com", `https://www.g2.com/products/${CURRENT.slug}/reviews`);
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.pagination).toMatchObject({ total_reviews: 23 });
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      newestFirst(CURRENT).map((r) => String(r.id)),
    );
    expect(body.reviews[0]).toMatchObject({
      review_id: "11900001",
      author_name: "Dana K.",
      rating: 5,
      posted_at: Date.parse("2026-10-02T00:00:00Z"),
    });
    // Pages that hold their cards cost one request each: the fragment is never asked.
    expect(await fixtureRequests("g2.com", `/products/${CURRENT.slug}/reviews_and_filters`)).toEqual({});
  });

  it("reads an app shell's cards from its reviews_and_filters fragment, newest first, and walks the later pages on the fragment alone", async () => {
    const task = await submitScrape("g2.com", `https://www.g2.com/products/${SHELL.slug}`);
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.business.profile_key).toBe(reviewsUrl(SHELL.slug));
    expect(body.pagination).toMatchObject({ total_reviews: 23, total_pages: 1 });
    expect(body.coverage).toMatchObject({ publisher_total: 23, collected: 23, complete: true });
    // Every field of every review, in most-recent order (the fixture's fragment sorts by rating unless asked order=most_recent).
    expect(body.reviews).toEqual(
      newestFirst(SHELL).map((r) => ({ ...expected(r, SHELL.slug), author_id: null })),
    );
    const text =
      "Pipelines that finally make sense\n\nWhat do you like best about Acme CRM?\nThe pipeline board & its filters.\n\nWhat do you dislike about Acme CRM?\nReports take a while to load.\n\n" +
      "What problems is Acme CRM solving and how is that benefiting you?\nWe stopped losing leads in spreadsheets.\nOnboarding new reps takes a day.";
    expect(body.reviews[0]).toEqual({
      review_id: "13900001",
      author_name: "Dana K.",
      author_id: null,
      rating: 5,
      text,
      url: "https://www.g2.com/products/acme-desk/reviews/acme-desk-review-13900001",
      posted_at: Date.parse("2026-10-02T00:00:00Z"),
      review_hash: goHash([text, "Dana K."]),
      language: "en",
      source_date: "2026-10-02",
      scraped_at: expect.any(Number),
      title: "Pipelines that finally make sense",
    });
    expect(body.reviews[1]).toMatchObject({
      review_id: "13900003",
      rating: 2,
      text: "",
      posted_at: Date.parse("2026-09-30T00:00:00Z"),
    });
    // Page 1 asked the shell, then its fragment; pages 2 and 3 went straight to the fragment.
    expect(await fixtureRequests("g2.com", `/products/${SHELL.slug}/`)).toEqual({
      [`/products/${SHELL.slug}/reviews?order=most_recent`]: 1,
      [`/products/${SHELL.slug}/reviews_and_filters?order=most_recent`]: 1,
      [`/products/${SHELL.slug}/reviews_and_filters?order=most_recent&page=2`]: 1,
      [`/products/${SHELL.slug}/reviews_and_filters?order=most_recent&page=3`]: 1,
    });
  });

  it("walks the 2025-08 layout by its next links", async () => {
    const task = await submitScrape("g2.com", AUGUST_2025.slug);
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      newestFirst(AUGUST_2025).map((r) => String(r.id)),
    );
  });

  it("asks for the most recent reviews: the first page alone holds the ten newest", async () => {
    const task = await submitScrape("g2.com", "acme-crm", { first_page_only: true });
    await queue().drain();
    const body = await retrieve(task, 1, 50);
    expect(body.reviews.map((r: { review_id: string }) => r.review_id)).toEqual(
      newestFirst(ACME)
        .slice(0, 10)
        .map((r) => String(r.id)),
    );
  });

  it("completes with no reviews for a product nobody reviewed", async () => {
    const task = await submitScrape("g2.com", EMPTY_PRODUCT.slug);
    await queue().drain();
    expect((await retrieve(task)).pagination).toMatchObject({ total_reviews: 0 });
  });

  it.each([
    ["DataDome's captcha page (200)", DATADOME.slug, "blocked", "G2 answered with its bot check"],
    ["DataDome's captcha page (403)", DATADOME_403.slug, "blocked", "403"],
    ["Cloudflare's challenge", CLOUDFLARE.slug, "blocked", "G2 answered with its bot check"],
    ["a missing product", "no-such-product", "profile_not_found", "404"],
    ["a sign-in page", SIGN_IN.slug, "login_required", "G2 shows a sign-in form instead of reviews"],
    [
      "a changed page layout (and no fragment)",
      CHANGED.slug,
      "publisher_error",
      `G2 page 1: no review cards (article or itemprop=review) on ${reviewsUrl(CHANGED.slug)} nor on its fragment ${fragmentUrl(CHANGED.slug)} (answered 404), and no review count`,
    ],
    [
      "an app shell whose fragment holds no cards either",
      SHELL_NO_CARDS.slug,
      "publisher_error",
      `G2 page 1: no review cards (article or itemprop=review) on ${reviewsUrl(SHELL_NO_CARDS.slug)} nor on its fragment ${fragmentUrl(SHELL_NO_CARDS.slug)}, for a product with 12 reviews`,
    ],
  ])("fails behind %s and logs why", async (_, slug, reason, message) => {
    const warn = vi.spyOn(console, "warn");
    const task = await submitScrape("g2.com", slug);
    await queue().drain();
    expect((await retrieve(task)).response_message).toEqual(failed(reason));
    expect(warn.mock.calls.flat().join("\n")).toContain(message);
  });
});
