/**
 * What retrieve answers for a task, as the domain builds it. The HTTP layer documents and validates
 * the same shapes with zod (src/http/schemas/retrieve.ts) and checks at compile time that its schemas
 * and these types are the same, so the domain never imports the HTTP layer for them.
 */
import type { Review } from "../reviews/review";
import type { Coverage } from "./coverage";
import type { PublisherSummary } from "./publisher-summary";
import type { Business } from "./business";
import type { FailureReason } from "./status";

export interface Pagination {
  total_reviews: number;
  page: number;
  page_size: number;
  total_pages: number;
  has_next: boolean;
  has_previous: boolean;
}

export interface CompletedBusiness extends Business {
  publisher: string;
  /** The resolved profile URL at the publisher. */
  profile_key: string;
  /** The publisher's own rating, count and histogram for the profile; null where it shows none. */
  publisher_summary: PublisherSummary | null;
  /** Signed, expiring URLs of the raw JSON Lines review files. */
  reviews_urls: string[];
}

/** Requests a task made to the publisher, by route kind (FETCH_ROUTES). */
export interface RequestCounts {
  direct: number;
  browser: number;
  provider: number;
}

export interface CompletedTask {
  foreign_key: string;
  batch_id: string;
  task_id: string;
  related_task_ids: string[];
  task_status: 200;
  business: CompletedBusiness;
  reviews: Review[];
  pagination: Pagination;
  coverage: Coverage;
  requests: RequestCounts;
}

export interface ResponseMessage {
  status: "queued" | "in_progress" | "failed";
  message: string;
  task_status: 100 | 101 | 500;
  reason?: FailureReason;
  progress?: { pages_scraped: number; reviews_found: number; requests: RequestCounts };
}

export interface UnfinishedTask {
  task_id: string;
  foreign_key: string;
  publisher_key: string;
  response_message: ResponseMessage[];
}
