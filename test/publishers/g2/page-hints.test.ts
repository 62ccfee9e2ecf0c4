/** What g2's adapter tells the pipeline beside the reviews: the product's stated count, and where the walk goes. */
import { describe, expect, it } from "vitest";
import { G2CursorSchema, g2Adapter } from "../../../src/publishers/g2/adapter";
import { fixtureContext } from "../fixture-client";
import { ACME, CURRENT, SHELL, SHELL_EMPTY, SHELL_NO_CARDS } from "./data";
import fixture from "./site";

const ctx = fixtureContext(fixture, "g2.com", g2Adapter.inspect);

describe("g2 page hints", () => {
  it("states the header's count on the 2026 layout and walks by it: pages of 10, 10 and 3", async () => {
    const first = await g2Adapter.page({ slug: CURRENT.slug, page: 1, read: 0 }, ctx);
    expect(first).toMatchObject({ publisherTotal: 23, next: { slug: CURRENT.slug, page: 2, read: 10 } });
    // Cards on the reviews page itself: the walk stays on the reviews pages.
    expect(first.next).not.toHaveProperty("fragment");
    const second = await g2Adapter.page(first.next!, ctx);
    expect(second).toMatchObject({ publisherTotal: 23, next: { page: 3, read: 20 } });
    const last = await g2Adapter.page(second.next!, ctx);
    expect(last.reviews).toHaveLength(3);
    expect(last.next).toBeNull();
  });

  it("states the microdata reviewCount on the 2024 layout", async () => {
    expect(await g2Adapter.page({ slug: ACME.slug, page: 1, read: 0 }, ctx)).toMatchObject({
      publisherTotal: 23,
    });
  });

  it("moves an app shell's walk to the fragment: the cursor carries it, the page URL stays the reviews page", async () => {
    const first = await g2Adapter.page({ slug: SHELL.slug, page: 1, read: 0 }, ctx);
    expect(first).toMatchObject({
      pageUrl: `https://www.g2.com/products/${SHELL.slug}/reviews?order=most_recent`,
      profileUrl: `https://www.g2.com/products/${SHELL.slug}/reviews?order=most_recent`,
      publisherTotal: 23,
      next: { slug: SHELL.slug, page: 2, read: 10, fragment: true },
    });
    expect(first.reviews).toHaveLength(10);
    const second = await g2Adapter.page(first.next!, ctx);
    expect(second).toMatchObject({
      pageUrl: `https://www.g2.com/products/${SHELL.slug}/reviews?order=most_recent&page=2`,
      publisherTotal: 23,
      next: { page: 3, read: 20, fragment: true },
    });
    expect((await g2Adapter.page(second.next!, ctx)).next).toBeNull();
  });

  it("completes an app shell whose fragment says (0) with no reviews", async () => {
    expect(await g2Adapter.page({ slug: SHELL_EMPTY.slug, page: 1, read: 0 }, ctx)).toMatchObject({
      reviews: [],
      next: null,
      publisherTotal: 0,
    });
  });

  it("fails a later fragment page without cards, or a fragment that is gone, as publisher_error naming the fragment", async () => {
    const url = (slug: string) => `https://www.g2.com/products/${slug}/reviews_and_filters?order=most_recent`;
    await expect(
      g2Adapter.page({ slug: SHELL_NO_CARDS.slug, page: 1, read: 0, fragment: true }, ctx),
    ).rejects.toMatchObject({
      reason: "publisher_error",
      message: `G2 page 1: no review cards (article or itemprop=review) on the fragment ${url(SHELL_NO_CARDS.slug)}, for a product with 12 reviews`,
    });
    await expect(
      g2Adapter.page({ slug: ACME.slug, page: 1, read: 0, fragment: true }, ctx),
    ).rejects.toMatchObject({
      reason: "publisher_error",
      message: `G2 page 1: no review cards (article or itemprop=review) on the fragment ${url(ACME.slug)} (answered 404)`,
    });
  });

  it("checks the stored cursor's fragment flag with its schema (absent in older cursors: false)", () => {
    expect(G2CursorSchema.parse({ slug: "acme-desk", page: 2, read: 10 })).toEqual({
      slug: "acme-desk",
      page: 2,
      read: 10,
      fragment: false,
    });
    expect(G2CursorSchema.parse({ slug: "acme-desk", page: 2, read: 10, fragment: true })).toMatchObject({
      fragment: true,
    });
    expect(G2CursorSchema.safeParse({ slug: "acme-desk", page: 2, read: 10, fragment: "yes" }).success).toBe(
      false,
    );
  });
});
