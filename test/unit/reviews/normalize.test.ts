import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  isUsableReview,
  normalizeReview,
  normalizeReviews,
  UnusableReviewError,
  type NormalizeContext,
  type RawReview,
} from "../../../src/core/reviews";
import { ReviewSchema } from "../../../src/http/schemas/retrieve";

const SCRAPED_AT = Date.UTC(2025, 5, 15, 10, 30);
const DAY = 86_400_000;
const ctx: NormalizeContext = {
  publisherKey: "example.com",
  pageUrl: "https://example.com/biz/blue-door?page=2",
  scrapedAt: SCRAPED_AT,
  pageLanguage: null,
};
const md5 = (text: string) => createHash("md5").update(text, "utf8").digest("hex");

const GERMAN = "Sehr gutes Essen und ein freundliches Personal, wir kommen gerne wieder.";
const ENGLISH = "The food was excellent and the staff were very friendly, we will come back.";

describe("normalizeReview", () => {
  it("builds an API review from a complete raw review", () => {
    const review = normalizeReview(
      {
        id: "rev-42",
        author_name: "  Ann \n Smith ",
        author_id: "user-7",
        rating: { value: "4" },
        text: "  Great <3 &   cosy\r\n\r\n\r\n\r\n  Will return.  ",
        url: "https://example.com/reviews/42",
        date: " 2024-03-03 ",
        language: "en-US",
      },
      ctx,
    );
    expect(review).toEqual({
      review_id: "rev-42",
      author_name: "Ann Smith",
      author_id: "user-7",
      rating: 4,
      text: "Great <3 & cosy\n\nWill return.",
      url: "https://example.com/reviews/42",
      posted_at: Date.UTC(2024, 2, 3),
      review_hash: md5(String.raw`["Great \u003c3 \u0026 cosy\n\nWill return.","Ann Smith"]`),
      language: "en",
      source_date: "2024-03-03",
      scraped_at: SCRAPED_AT,
    });
    expect(ReviewSchema.parse(review)).toEqual(review);
  });

  it("falls back to the page URL, no author id, and a relative date against the scrape time", () => {
    const review = normalizeReview(
      { author_name: "Bo", rating: { value: 5 }, text: ENGLISH, date: "3 weeks ago" },
      ctx,
    );
    expect(review.url).toBe(ctx.pageUrl);
    expect(review.author_id).toBeNull();
    expect(review.posted_at).toBe(SCRAPED_AT - 21 * DAY);
    expect(review.source_date).toBe("3 weeks ago");
  });

  it("uses the author's profile URL as author id when there is no id", () => {
    const review = normalizeReview(
      { author_name: "Bo", author_url: "https://example.com/u/bo", rating: { value: 5 } },
      ctx,
    );
    expect(review.author_id).toBe("https://example.com/u/bo");
  });

  it("an undated review is dated at the scrape, with an empty source_date", () => {
    const review = normalizeReview({ author_name: "Bo", rating: { value: 5 }, text: "Fine." }, ctx);
    expect(review.posted_at).toBe(SCRAPED_AT);
    expect(review.source_date).toBe("");
  });

  it("prints dates in the page's language", () => {
    const review = normalizeReview(
      { author_name: "Bo", rating: { value: 5 }, text: ENGLISH, date: "vor 2 Tagen", language: "en" },
      { ...ctx, pageLanguage: "de-DE" },
    );
    expect(review.posted_at).toBe(SCRAPED_AT - 2 * DAY);
    expect(review.language).toBe("en");
  });

  it("maps the rating scale", () => {
    expect(normalizeReview({ author_name: "Bo", rating: { value: 9, best: 10 } }, ctx).rating).toBe(5);
    expect(
      normalizeReview({ author_name: "Bo", rating: { value: 60, best: 100, worst: 0 } }, ctx).rating,
    ).toBe(3);
  });

  it("includes the owner's reply in the hash", () => {
    const review = normalizeReview(
      { author_name: "Ann", rating: { value: 5 }, text: "Good", reply_text: " Thanks   Ann! " },
      ctx,
    );
    expect(review.review_hash).toBe(md5(`["Good","Ann","Thanks Ann!"]`));
  });

  it("hashes the review id when there is neither text nor author", () => {
    const review = normalizeReview({ id: "abc", rating: { value: 3 } }, ctx);
    expect(review.review_hash).toBe(md5(`["abc"]`));
    expect(review.language).toBe("und");
  });

  describe("language", () => {
    it("the review's own tag wins", () => {
      expect(
        normalizeReview(
          { author_name: "A", rating: { value: 5 }, text: ENGLISH, language: "de-AT" },
          { ...ctx, pageLanguage: "fr" },
        ).language,
      ).toBe("de");
    });
    it("then detection from the text, whatever the page's interface language", () => {
      expect(normalizeReview({ author_name: "A", rating: { value: 5 }, text: GERMAN }, ctx).language).toBe(
        "de",
      );
      expect(normalizeReview({ author_name: "A", rating: { value: 5 }, text: ENGLISH }, ctx).language).toBe(
        "en",
      );
      // A German review on a page whose <html lang> is English is German, and the other way round.
      expect(
        normalizeReview(
          { author_name: "A", rating: { value: 5 }, text: GERMAN },
          { ...ctx, pageLanguage: "en-GB" },
        ).language,
      ).toBe("de");
      expect(
        normalizeReview(
          { author_name: "A", rating: { value: 5 }, text: ENGLISH },
          { ...ctx, pageLanguage: "de" },
        ).language,
      ).toBe("en");
    });
    it("the page's language only breaks an unreliable detection, among the languages the text could be in", () => {
      // "Sehr gut" and "Great" are too short for a reliable detection on their own.
      expect(
        normalizeReview({ author_name: "A", rating: { value: 5 }, text: "Sehr gut" }, ctx).language,
      ).toBe("und");
      expect(
        normalizeReview(
          { author_name: "A", rating: { value: 5 }, text: "Sehr gut" },
          { ...ctx, pageLanguage: "de-DE" },
        ).language,
      ).toBe("de");
      expect(
        normalizeReview(
          { author_name: "A", rating: { value: 5 }, text: "Great" },
          { ...ctx, pageLanguage: "en" },
        ).language,
      ).toBe("en");
      // Not a language the text could be in: still undetermined.
      expect(
        normalizeReview(
          { author_name: "A", rating: { value: 5 }, text: "Sehr gut" },
          { ...ctx, pageLanguage: "ja" },
        ).language,
      ).toBe("und");
      // Nothing to read a language from.
      for (const text of ["", "👍👍", "10/10"])
        expect(
          normalizeReview({ author_name: "A", rating: { value: 5 }, text }, { ...ctx, pageLanguage: "de" })
            .language,
        ).toBe("und");
    });
    it.each(["", "ok", "👍👍", "10/10"])("und when it cannot be told (%j)", (text) => {
      expect(normalizeReview({ author_name: "A", rating: { value: 5 }, text }, ctx).language).toBe("und");
    });
    it.each([
      ["en-US", "en"],
      ["EN_gb", "en"],
      ["zh-Hant-TW", "zh"],
      ["iw", "he"],
      ["in-ID", "id"],
    ])("tag %s is language %s", (tag, expected) => {
      expect(normalizeReview({ author_name: "A", rating: { value: 5 }, language: tag }, ctx).language).toBe(
        expected,
      );
    });
    it("a tag without a two-letter language is ignored", () => {
      expect(
        normalizeReview({ author_name: "A", rating: { value: 5 }, text: GERMAN, language: "x-klingon" }, ctx)
          .language,
      ).toBe("de");
    });
  });

  describe("machine-translated text keeps the original", () => {
    const page = { ...ctx, pageLanguage: "en" };

    it("(Translated by Google) … (Original) …", () => {
      const review = normalizeReview(
        {
          author_name: "Jörg",
          rating: { value: 5 },
          text: `(Translated by Google) Very good food and friendly staff, we will gladly come again.\n\n(Original)\n${GERMAN}`,
        },
        page,
      );
      expect(review.text).toBe(GERMAN);
      expect(review.language).toBe("de");
      expect(review.review_hash).toBe(md5(`["${GERMAN}","Jörg"]`));
    });

    it("(Original) … (Translated by Google) …", () => {
      const review = normalizeReview(
        {
          author_name: "Jörg",
          rating: { value: 5 },
          text: `(Original)\n${GERMAN}\n\n(Translated by Google)\n${ENGLISH}`,
        },
        page,
      );
      expect(review.text).toBe(GERMAN);
    });

    it("a localized marker", () => {
      const review = normalizeReview(
        {
          author_name: "Jörg",
          rating: { value: 5 },
          text: `(Übersetzt von Google) ${GERMAN} (Original) ${ENGLISH}`,
        },
        { ...ctx, pageLanguage: "de" },
      );
      expect(review.text).toBe(ENGLISH);
      expect(review.language).toBe("en");
    });

    it("a translation without the original loses only the marker", () => {
      const review = normalizeReview(
        { author_name: "Jörg", rating: { value: 5 }, text: `(Translated by Google) ${ENGLISH}` },
        page,
      );
      expect(review.text).toBe(ENGLISH);
    });

    it("the owner's reply likewise", () => {
      const review = normalizeReview(
        {
          author_name: "A",
          rating: { value: 5 },
          text: "Gut",
          reply_text: "(Translated by Google) Thanks (Original) Danke",
        },
        page,
      );
      expect(review.review_hash).toBe(md5(`["Gut","A","Danke"]`));
    });

    it("ordinary parentheses are left alone", () => {
      const text = "Great pizza (the original one) and pasta (translated menu available).";
      expect(normalizeReview({ author_name: "A", rating: { value: 5 }, text }, page).text).toBe(text);
    });
  });

  describe("review_id", () => {
    it("the publisher's id where it has one", () => {
      expect(normalizeReview({ id: " 123 ", author_name: "A", rating: { value: 5 } }, ctx).review_id).toBe(
        "123",
      );
    });

    it("otherwise derived from the content, stable across scrapes of a relative date", () => {
      const raw: RawReview = {
        author_name: "Ann",
        rating: { value: 5 },
        text: "Lovely",
        date: "3 weeks ago",
      };
      const first = normalizeReview(raw, ctx).review_id;
      const later = normalizeReview(raw, {
        ...ctx,
        scrapedAt: SCRAPED_AT + 5 * DAY,
        pageUrl: "https://example.com/biz/blue-door",
      }).review_id;
      expect(first).toMatch(/^gen_[0-9a-f]{32}$/);
      expect(later).toBe(first);
    });

    it("differs by publisher, author, text and absolute date", () => {
      const base: RawReview = {
        author_name: "Ann",
        rating: { value: 5 },
        text: "Lovely",
        date: "2024-03-03",
      };
      const id = (raw: RawReview, publisherKey = "example.com") =>
        normalizeReview(raw, { ...ctx, publisherKey }).review_id;
      const ids = new Set([
        id(base),
        id(base, "other.com"),
        id({ ...base, author_name: "Bob" }),
        id({ ...base, text: "Lovely!" }),
        id({ ...base, date: "2024-03-04" }),
      ]);
      expect(ids.size).toBe(5);
      // Whitespace and rating do not change the identity of a review.
      expect(id({ ...base, text: "  Lovely ", rating: { value: 4 } })).toBe(id(base));
    });
  });
});

describe("dropping what is not a review", () => {
  const keep: RawReview[] = [
    { author_name: "A", rating: { value: 5 } },
    { text: "Anonymous but said something", rating: { value: "2" } },
    { id: "x1", rating: { value: 1 } },
  ];
  const drop: RawReview[] = [
    { author_name: "A", text: "No rating" },
    { author_name: "A", rating: { value: "n/a" } },
    { rating: { value: 5 } },
    { author_name: "  ", text: "\n", id: " ", rating: { value: 5 } },
    {},
  ];

  it("isUsableReview tells them apart", () => {
    expect(keep.map(isUsableReview)).toEqual([true, true, true]);
    expect(drop.map(isUsableReview)).toEqual([false, false, false, false, false]);
  });

  it("normalizeReviews keeps only the usable ones, in order", () => {
    const reviews = normalizeReviews([drop[0], keep[0], drop[1], keep[1], keep[2], drop[2]], ctx);
    expect(reviews.map((r) => [r.author_name, r.rating])).toEqual([
      ["A", 5],
      ["", 2],
      ["", 1],
    ]);
  });

  it("normalizeReview refuses an unusable one", () => {
    expect(() => normalizeReview(drop[0], ctx)).toThrow(UnusableReviewError);
  });
});

describe("author_country and visited_at", () => {
  const base: RawReview = {
    id: "r1",
    author_name: "Ann",
    rating: { value: 5 },
    text: "Lovely stay.",
    date: "2025-06-01",
  };

  it("maps an alpha-2 or alpha-3 country in any case to upper-case alpha-3, and a stay date to UTC midnight of its first day", () => {
    const review = normalizeReview({ ...base, author_country: "gb", visit_date: "2025-05-28" }, ctx);
    expect(review).toMatchObject({ author_country: "GBR", visited_at: Date.UTC(2025, 4, 28) });
    expect(ReviewSchema.safeParse(review).success).toBe(true);
    expect(
      normalizeReview({ ...base, author_country: " deu ", visit_date: "2025-05-28T15:00:00+02:00" }, ctx),
    ).toMatchObject({
      author_country: "DEU",
      visited_at: Date.UTC(2025, 4, 28),
    });
    expect(normalizeReview({ ...base, author_country: "UK" }, ctx).author_country).toBe("GBR");
  });

  it("takes the first day of the month where only the month is given", () => {
    expect(normalizeReview({ ...base, visit_date: "2025-02" }, ctx).visited_at).toBe(Date.UTC(2025, 1, 1));
  });

  it("leaves both out when not given or not a code or date, and never hashes them", () => {
    const plain = normalizeReview(base, ctx);
    expect(plain).not.toHaveProperty("author_country");
    expect(plain).not.toHaveProperty("visited_at");
    for (const [author_country, visit_date] of [
      ["", ""],
      ["xk", "2025-02-30"],
      ["United Kingdom", "May 2025"],
      ["ZZZ", "2025-13"],
      ["g", "2025-05-28 and more text"],
      ["gb".padStart(9, " "), "2025-05-28".padEnd(41, " ")],
    ]) {
      const review = normalizeReview({ ...base, author_country, visit_date }, ctx);
      expect(review, `${author_country} / ${visit_date}`).not.toHaveProperty("author_country");
      expect(review, `${author_country} / ${visit_date}`).not.toHaveProperty("visited_at");
    }
    expect(
      normalizeReview({ ...base, author_country: "fr", visit_date: "2025-05-01" }, ctx).review_hash,
    ).toBe(plain.review_hash);
  });
});

describe("author_review_count and author_photo_count", () => {
  const base: RawReview = {
    id: "r1",
    author_name: "Ann",
    rating: { value: 5 },
    text: "Lovely stay.",
    date: "2025-06-01",
  };

  it("keeps whole counts from 0 up, leaves anything else out, and never hashes them", () => {
    const plain = normalizeReview(base, ctx);
    expect(plain).not.toHaveProperty("author_review_count");
    expect(plain).not.toHaveProperty("author_photo_count");
    const counted = normalizeReview({ ...base, author_review_count: 27, author_photo_count: 0 }, ctx);
    expect(counted).toMatchObject({ author_review_count: 27, author_photo_count: 0 });
    expect(ReviewSchema.safeParse(counted).success).toBe(true);
    expect(counted.review_hash).toBe(plain.review_hash);
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) {
      const review = normalizeReview({ ...base, author_review_count: bad, author_photo_count: bad }, ctx);
      expect(review, String(bad)).not.toHaveProperty("author_review_count");
      expect(review, String(bad)).not.toHaveProperty("author_photo_count");
    }
  });
});
