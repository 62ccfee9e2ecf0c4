import type { Business } from "./business";
import type { CollectionOptions } from "./collection";

/** One publisher of a validated submit: its canonical key, resolved profile and scrape options. */
export interface NewTaskInput {
  publisherKey: string;
  /** The resolved profile URL, or "" where the publisher's module looks the business up. */
  profileUrl: string;
  /** profile_key as the client sent it. */
  profileKey: string;
  config: CollectionOptions & {
    last_review_hashes: string[];
    first_page_only: boolean;
    persona?: { additional_cookies?: { login?: { name: string; value: string; domain: string }[] } };
  };
}

/** What a validated submit asks for (the HTTP layer's SubmitInput is checked against it at compile time). */
export interface NewRequest {
  data: {
    foreign_key: string;
    lazy?: boolean;
    business: Business;
    publishers: NewTaskInput[];
  };
}
