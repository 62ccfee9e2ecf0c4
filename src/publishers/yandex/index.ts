/**
 * Yandex Maps (yandex.ru, yandex.com): an organisation's reviews, newest first, 50 a page, from the
 * reviews API the organisation page's own scripts call, signed the way the page signs it (./sign.ts)
 * with the session values the page's state carries; the organisation's rating from the same state.
 * An organisation whose reviews all fit on the page is read from the page alone. Yandex serves only
 * the first 600 reviews of a listing: past them the task completes with `coverage` saying so. No lookup.
 */
import { z } from "zod";
import type { PageInspector } from "../../scraping/client";
import { permanentError, transientError } from "../../scraping/errors";
import { scriptTexts } from "../kit/html-scan";
import { WorkBudget } from "../kit/work-budget";
import { definePublisher, type Adapter, type AdapterPage, type ScrapeContext } from "../types";
import { YANDEX_DOMAINS, yandexProfile } from "./profile";
import {
  fetchReviewsUrl,
  newestFirst,
  orgStateOf,
  readApiAnswer,
  readReviews,
  WHAT,
  WINDOW_PAGES,
  type ApiAnswer,
  type OrgState,
  type Session,
} from "./reviews";

const CAPTCHA_PATH = /^\/(?:showcaptcha|checkcaptcha|smartcaptcha)/i;
/** What SmartCaptcha's page says ("Are you not a robot?"), and its JSON form on an API request. */
const CAPTCHA_TEXT =
  /Вы не робот\?|Подтвердите, что запросы отправляли вы|Докажите, что вы не робот|^\s*\{\s*"type"\s*:\s*"captcha"/;

/** SmartCaptcha: a redirect to `/showcaptcha`, or its page or JSON served in place of ours. */
const inspectYandexPage: PageInspector = (page) =>
  CAPTCHA_PATH.test(page.url.pathname) || CAPTCHA_TEXT.test(page.text.slice(0, 20_000))
    ? transientError("blocked", "Yandex answered with its SmartCaptcha")
    : null;

const Nullable = z.string().max(200).nullable();
const CursorSchema = z.object({
  businessId: z.string().regex(/^\d{5,20}$/),
  /** The canonical profile URL (`https://yandex.ru/maps/org/<id>/`). */
  pageUrl: z.string().url(),
  page: z.number().int().min(1).max(WINDOW_PAGES),
  csrfToken: Nullable,
  sessionId: Nullable,
  reqId: Nullable,
  pagesRead: z.number().int().min(0),
});
type Cursor = z.infer<typeof CursorSchema>;

const reviewsPage = (pageUrl: string) => new URL("reviews/", pageUrl).toString();

/**
 * One signed API page. A stale token is answered with a fresh one alone: the request is repeated
 * once with it, as the page's scripts do; a second token in a row means the signed request itself
 * is not accepted, and fails loudly.
 */
async function apiPage(
  cursor: Cursor,
  ctx: ScrapeContext,
): Promise<{ answer: Extract<ApiAnswer, { reviews: unknown[] }>; session: Session }> {
  let session: Session = { csrfToken: cursor.csrfToken, sessionId: cursor.sessionId, reqId: cursor.reqId };
  const origin = new URL(cursor.pageUrl).origin;
  for (let attempt = 0; attempt < 2; attempt++) {
    const url = fetchReviewsUrl(origin, cursor.businessId, cursor.page, session);
    const { data } = await ctx.client.json(url, {
      headers: { Referer: reviewsPage(cursor.pageUrl), "X-Requested-With": "XMLHttpRequest" },
    });
    const answer = readApiAnswer(data);
    if ("reviews" in answer) return { answer, session };
    session = { ...session, csrfToken: answer.csrfToken };
  }
  throw permanentError(
    "publisher_error",
    `${WHAT}: the API answered a fresh csrfToken twice; the signed request (its s signature or session values) is not accepted`,
  );
}

/** The reason given when the listing goes on past the pages Yandex serves. */
const windowReason = (count: number | null, pages: number) =>
  `Yandex Maps serves only the newest ${WINDOW_PAGES * 50} reviews of an organisation ` +
  `(${WINDOW_PAGES} pages of 50); it counts ${count ?? "more"} in ${pages} pages`;

/** The reviews page's state: the first page, the count, the rating and the session values. */
async function pageState(cursor: Cursor, ctx: ScrapeContext): Promise<OrgState> {
  const page = await ctx.client.request(reviewsPage(cursor.pageUrl));
  const [text] = await scriptTexts(page.text, "script.state-view");
  if (text === undefined)
    throw permanentError(
      "publisher_error",
      "Yandex Maps reviews page: no state-view script (the page state)",
    );
  return orgStateOf(text, new WorkBudget("Yandex Maps page state"));
}

/** Every review fits on the page: read it from there, newest first, without a signed request. */
function embeddedPage(cursor: Cursor, state: OrgState): AdapterPage<Cursor> {
  return {
    pageUrl: cursor.pageUrl,
    profileUrl: cursor.pageUrl,
    reviews: newestFirst(readReviews(state.embedded, cursor.pageUrl, new WorkBudget(WHAT))),
    next: null,
    publisherTotal: state.count,
    summary: state.summary,
    pageLanguage: "ru",
  };
}

async function readPage(cursor: Cursor, ctx: ScrapeContext): Promise<AdapterPage<Cursor>> {
  const state = cursor.page === 1 ? await pageState(cursor, ctx) : null;
  if (state && state.count !== null && state.count <= state.embedded.length)
    return embeddedPage(cursor, state);
  if (state)
    cursor = { ...cursor, csrfToken: state.csrfToken, sessionId: state.sessionId, reqId: state.reqId };
  const { answer, session } = await apiPage(cursor, ctx);
  const reviews = readReviews(answer.reviews, cursor.pageUrl, new WorkBudget(WHAT));
  const last = Math.min(answer.totalPages, WINDOW_PAGES);
  if (cursor.page < last && answer.reviews.length === 0)
    throw permanentError(
      "publisher_error",
      `${WHAT}: page ${cursor.page} is empty although the answer counts pages up to ${answer.totalPages}`,
    );
  const next =
    cursor.page < last
      ? { ...cursor, ...session, page: cursor.page + 1, pagesRead: cursor.pagesRead + 1 }
      : null;
  return {
    pageUrl: cursor.pageUrl,
    profileUrl: cursor.pageUrl,
    reviews,
    next,
    ...(state ? { publisherTotal: answer.count ?? state.count, summary: state.summary } : {}),
    ...(!next && answer.totalPages > WINDOW_PAGES
      ? { limitedView: windowReason(answer.count, answer.totalPages) }
      : {}),
    pageLanguage: "ru",
  };
}

const adapter: Adapter<Cursor> = {
  cursor: CursorSchema,
  inspect: inspectYandexPage,
  async start(profileUrl) {
    const businessId = yandexProfile.keyOf(new URL(profileUrl));
    if (!businessId)
      throw permanentError("profile_not_found", `${WHAT}: the profile URL names no organisation`);
    return {
      profileUrl,
      cursor: {
        businessId,
        pageUrl: profileUrl,
        page: 1,
        csrfToken: null,
        sessionId: null,
        reqId: null,
        pagesRead: 0,
      },
    };
  },
  page: readPage,
};

export const yandex = definePublisher({
  name: "yandex",
  displayName: "Yandex Maps",
  kind: "maps",
  domains: YANDEX_DOMAINS,
  loginRequired: false,
  ratingScale: "1–5 stars, kept as is",
  profile: yandexProfile,
  summaryFields: ["rating", "review_count"],
  reviewFields: ["likes"],
  queue: {
    concurrency: 1,
    retries: 4,
    retryDelay: 120,
    note: "Yandex Maps (yandex.ru, yandex.com): the signed fetchReviews API behind SmartCaptcha, so one at a time.",
  },
  adapter,
  evidenceDate: "2026-09-19",
});
