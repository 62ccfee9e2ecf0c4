/**
 * Reads a module's coverage sample (`coverageSample` of its fixture, test/fixtures/sites.ts) as a task
 * would read it: the module's own adapter on its fixture site, page after page, each page's reviews
 * normalized as the pipeline normalizes them and its totals checked as the walk stores them. What it
 * returns is what the sample shows; the contract test compares that with what the module claims.
 */
import { normalizeReviews, OPTIONAL_REVIEW_FIELDS, optionalFieldsOf } from "../../src/core/reviews";
import type { OptionalReviewField } from "../../src/core/reviews";
import {
  checkedSummary,
  publisherSummary,
  SUMMARY_FIELDS,
  type SummaryField,
} from "../../src/core/tasks/publisher-summary";
import type { PublisherModule } from "../../src/publishers/types";
import type { CoverageSample, PublisherFixture } from "../fixtures/sites";
import { fixtureContext } from "./fixture-client";

export interface ShownCoverage {
  /** Usable reviews the sample's pages held. */
  reviews: number;
  /** The optional review fields at least one of them carries, in the API's order. */
  reviewFields: OptionalReviewField[];
  /** The parts of `publisher_summary` the pages showed, in the API's order. */
  summaryFields: SummaryField[];
}

/** Most pages a sample may ask for: a sample shows a claim, it does not walk a profile. */
const MAX_SAMPLE_PAGES = 5;

export async function readCoverageSample(
  module: PublisherModule,
  fixture: PublisherFixture,
  sample: CoverageSample,
): Promise<ShownCoverage> {
  const publisherKey = sample.publisher ?? module.domains[0];
  const ctx = fixtureContext(fixture, publisherKey, module.adapter.inspect, sample.cookie);
  const pages = Math.min(Math.max(sample.pages ?? 1, 1), MAX_SAMPLE_PAGES);
  const fields = new Set<OptionalReviewField>();
  const summary = new Set<SummaryField>();
  let count = 0;
  let cursor: unknown = (await module.adapter.start(sample.profileUrl, ctx)).cursor;
  for (let page = 0; page < pages && cursor !== null; page++) {
    const read = await module.adapter.page(cursor, ctx);
    const reviews = normalizeReviews(read.reviews, {
      publisherKey,
      pageUrl: read.pageUrl,
      scrapedAt: Date.now(),
      pageLanguage: read.pageLanguage ?? null,
    });
    count += reviews.length;
    for (const review of reviews) for (const field of optionalFieldsOf(review)) fields.add(field);
    const shown = publisherSummary(checkedSummary(read.summary), read.publisherTotal ?? null);
    for (const part of SUMMARY_FIELDS) if (shown && shown[part] !== null) summary.add(part);
    cursor = read.next;
  }
  return {
    reviews: count,
    reviewFields: OPTIONAL_REVIEW_FIELDS.filter((field) => fields.has(field)),
    summaryFields: SUMMARY_FIELDS.filter((part) => summary.has(part)),
  };
}
