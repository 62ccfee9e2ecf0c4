/**
 * Expedia Group's brands as keys of the Expedia module: each resolves to it. The brand walks are in
 * expedia.test.ts ("expedia brands end to end"): fixture request counts are shared by the files of
 * one fixture site running at once.
 */
import { describe, expect, it } from "vitest";
import { publisherFor } from "../../../src/publishers/registry";
import { expediaProfile } from "../../../src/publishers/expedia/profile";

const BRANDS = [
  "hotels.com",
  "orbitz.com",
  "travelocity.com",
  "vrbo.com",
  "abritel.fr",
  "fewo-direkt.de",
  "stayz.com.au",
  "bookabach.co.nz",
];

describe("expedia brands", () => {
  it.each(BRANDS)("%s resolves to the expedia module as a dedicated publisher", (key) => {
    const publisher = publisherFor(key);
    expect(publisher.module.name).toBe("expedia");
    expect(publisher.dedicated).toBe(true);
  });

  it("the walk's key of every brand's canonical page is the property id", () => {
    for (const url of [
      "https://www.orbitz.com/h96727634.Hotel-Information",
      "https://www.stayz.com.au/pdp/lo/96727634",
      "https://www.bookabach.co.nz/pdp/lo/96727634",
    ])
      expect(expediaProfile.keyOf(new URL(url))).toBe("96727634");
  });
});
