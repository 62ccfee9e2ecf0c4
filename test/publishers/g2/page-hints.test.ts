/** What g2's adapter tells the pipeline beside the reviews: the product's stated count, and where the walk goes. */
import { describe, expect, it } from "vitest";
import { g2Adapter } from "../../../src/publishers/g2/adapter";
import { fixtureContext } from "../fixture-client";
import { ACME, CURRENT } from "./data";
import fixture from "./site";

const ctx = fixtureContext(fixture, "g2.com", g2Adapter.inspect);

describe("g2 page hints", () => {
  it("states the header's count on the 2026 layout and walks by it: pages of 10, 10 and 3", async () => {
    const first = await g2Adapter.page({ slug: CURRENT.slug, page: 1, read: 0 }, ctx);
    expect(first).toMatchObject({ publisherTotal: 23, next: { slug: CURRENT.slug, page: 2, read: 10 } });
    const second = await g2Adapter.page(first.next!, ctx);
    expect(second).toMatchObject({ publisherTotal: 23, next: { page: 3, read: 20 } });
    const last = await g2Adapter.page(second.next!, ctx);
    expect(last.reviews).toHaveLength(3);
    expect(last.next).toBeNull();
  });

  it("states the microdata reviewCount on the 2024 layout", async () => {
    expect(await g2Adapter.page({ slug: ACME.slug, page: 1, read: 0 }, ctx)).toMatchObject({ publisherTotal: 23 });
  });
});
