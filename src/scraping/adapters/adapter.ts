import type { RawReview } from "../../domain/reviews";
import type { PageRenderer } from "../browser";
import type { LoginCookie } from "../cookies";

/** What an adapter may use while it scrapes one page of a task. */
export interface ScrapeContext {
  env: Env;
  publisherKey: string;
  cookies: readonly LoginCookie[];
  /** Opens a browser session only when a page needs one. */
  renderer: PageRenderer;
  /** How long the next page load may take: the page timeout, capped by the task's remaining time. */
  pageTimeoutMs(): number;
}

/** One page of reviews as the publisher shows it, newest first. */
export interface ScrapedPage {
  /** The page's URL as the publisher addresses it (after redirects). */
  pageUrl: string;
  reviews: RawReview[];
  /** The next (older) page, or null on the last one. */
  nextUrl: string | null;
  /** The page's declared language (`<html lang>`), as written. */
  pageLanguage: string | null;
}

export interface ProfileRef {
  profileKey: string;
  /** The profile URL resolved at submit, or null where the adapter looks the business up. */
  profileUrl: string | null;
}

/** Scrapes one publisher. Adapters are stateless: everything a run resumes from is in the cursor. */
export interface Adapter {
  /** URL of the profile's first (newest) page of reviews. */
  firstPageUrl(profile: ProfileRef, ctx: ScrapeContext): Promise<string>;
  scrapePage(url: string, ctx: ScrapeContext): Promise<ScrapedPage>;
}
