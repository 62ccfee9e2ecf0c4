import { z } from "zod";
import { permanentError } from "../../scraping/errors";
import type { FetchedPage } from "../../scraping/client";
import { elementAttributes } from "../kit/html-scan";
import type { Adapter, AdapterPage, ScrapeContext } from "../types";
import { parseGraphqlAnswer, parseReviewsTab, reviewFromNode, type FeedChunk } from "./parse";

/**
 * The reviews feed's persisted GraphQL query. Facebook names its queries by `doc_id`, which changes
 * when the web app is redeployed; an outdated one is answered with `errors`, which fails the task as
 * publisher_error naming the message, so it shows in the logs. This one and the variables below are
 * what a 2026 public client sends (a Python reviews extractor for a page's `?sk=reviews`, Chrome 147
 * user agent; see README "Evidence").
 */
export const REVIEWS_FEED_DOC_ID = "26706360375718971";
export const REVIEWS_FEED_QUERY = "ProfileCometReviewsFeedRefetchQuery";
/** Reviews per GraphQL page, what the reviews tab itself asks for when scrolling. */
export const REVIEWS_PER_PAGE = 10;

/**
 * The Relay provider flags the web app sends with every query of this document (`__relay_internal__
 * pv__*`): a persisted query whose providers are missing is answered with errors. Values as the 2026
 * client sends them.
 */
export const RELAY_PROVIDERS = {
  __relay_internal__pv__GHLShouldChangeAdIdFieldNamerelayprovider: true,
  __relay_internal__pv__GHLShouldChangeSponsoredDataFieldNamerelayprovider: true,
  __relay_internal__pv__CometFeedStory_enable_post_permalink_white_space_clickrelayprovider: false,
  __relay_internal__pv__CometUFICommentActionLinksRewriteEnabledrelayprovider: false,
  __relay_internal__pv__CometUFICommentAvatarStickerAnimatedImagerelayprovider: false,
  __relay_internal__pv__IsWorkUserrelayprovider: false,
  __relay_internal__pv__TestPilotShouldIncludeDemoAdUseCaserelayprovider: false,
  __relay_internal__pv__FBReels_deprecate_short_form_video_context_gkrelayprovider: true,
  __relay_internal__pv__FBReels_enable_view_dubbed_audio_type_gkrelayprovider: true,
  __relay_internal__pv__CometImmersivePhotoCanUserDisable3DMotionrelayprovider: false,
  __relay_internal__pv__WorkCometIsEmployeeGKProviderrelayprovider: false,
  __relay_internal__pv__IsMergQAPollsrelayprovider: false,
  __relay_internal__pv__FBReelsMediaFooter_comet_enable_reels_ads_gkrelayprovider: true,
  __relay_internal__pv__CometUFIReactionsEnableShortNamerelayprovider: false,
  __relay_internal__pv__CometUFICommentAutoTranslationTyperelayprovider: "ORIGINAL",
  __relay_internal__pv__CometUFIShareActionMigrationrelayprovider: true,
  __relay_internal__pv__CometUFISingleLineUFIrelayprovider: false,
  __relay_internal__pv__CometUFI_dedicated_comment_routable_dialog_gkrelayprovider: true,
  __relay_internal__pv__FBReelsIFUTileContent_reelsIFUPlayOnHoverrelayprovider: true,
  __relay_internal__pv__GroupsCometGYSJFeedItemHeightrelayprovider: 206,
  __relay_internal__pv__ShouldEnableBakedInTextStoriesrelayprovider: false,
  __relay_internal__pv__StoriesShouldIncludeFbNotesrelayprovider: false,
} as const;

/** The GraphQL variables of one older page of the feed. */
export function feedVariables(pageId: string, after: string) {
  return {
    count: REVIEWS_PER_PAGE,
    cursor: after,
    feedLocation: "PAGE_SURFACE_RECOMMENDATIONS",
    feedbackSource: 0,
    focusCommentID: null,
    privacySelectorRenderLocation: "COMET_STREAM",
    referringStoryRenderLocation: null,
    renderLocation: "timeline",
    scale: 2,
    useDefaultActor: false,
    id: pageId,
    ...RELAY_PROVIDERS,
  };
}

/**
 * The walk: the reviews tab's URL, then the page id and the feed's `end_cursor` of older pages. The
 * session tokens (fb_dtsg, lsd) are never stored: each GraphQL page reads fresh ones from the tab.
 */
export const FacebookCursorSchema = z.object({
  url: z.string(),
  pageId: z.string().nullable(),
  after: z.string().nullable(),
});
export type FacebookCursor = z.infer<typeof FacebookCursorSchema>;

const PATH_LOGIN = /^\/(login|login\.php|recover)(\/|$)/;
const PATH_BLOCKED = /^\/(checkpoint|captcha)(\/|$)/;

/**
 * Facebook serves its walls with status 200: the login page (also as a redirect target), the
 * checkpoint ("confirm it's you", security checks) and captcha pages. Forms are found with
 * HTMLRewriter, not a regex over the page.
 */
export async function inspectFacebookPage(page: FetchedPage) {
  if (PATH_BLOCKED.test(page.url.pathname))
    return permanentError("blocked", `Facebook answered with a checkpoint page (${page.url.pathname})`);
  if (PATH_LOGIN.test(page.url.pathname))
    return permanentError(
      "login_required",
      "Facebook asks to log in: the login cookies are missing or expired",
    );
  const trimmed = page.text.trimStart();
  // GraphQL answers (JSON lines, `for (;;);…`) are read by the answer parser.
  if (trimmed.startsWith("{") || trimmed.startsWith("for (;;);")) return null;
  const forms = await elementAttributes(page.text, "form", ["id", "action"]);
  if (forms.some((f) => f.id === "login_form"))
    return permanentError(
      "login_required",
      "Facebook answered with its login form: the login cookies are missing or expired",
    );
  if (forms.some((f) => /^\/(?:captcha|checkpoint)\//i.test(f.action ?? "")))
    return permanentError("blocked", "Facebook answered with a captcha or checkpoint form");
  return null;
}

function toPage(chunk: FeedChunk, pageId: string, pageUrl: string, url: string): AdapterPage<FacebookCursor> {
  if (!chunk.sawFeed)
    throw permanentError(
      "publisher_error",
      "No reviews feed (ratings_list_feed_units.reviews_feed or page_info) in Facebook's answer",
    );
  const reviews = chunk.nodes.map((node) => reviewFromNode(node, pageId));
  const info = chunk.pageInfo;
  if (!info) throw permanentError("publisher_error", "Reviews feed without page_info");
  if (info.hasNextPage && !info.endCursor)
    throw permanentError("publisher_error", "Reviews feed has a next page but no end_cursor");
  const next = info.hasNextPage && info.endCursor ? { url: pageUrl, pageId, after: info.endCursor } : null;
  return { pageUrl: url, reviews, next, pageLanguage: null };
}

async function readTab(url: string, ctx: ScrapeContext) {
  const page = await ctx.client.request(url);
  const tab = await parseReviewsTab(page.text);
  if (!tab.pageId)
    throw permanentError(
      "publisher_error",
      "No page id (fb://profile/<id> meta or userID prop) on the reviews tab",
    );
  return { page, tab, pageId: tab.pageId };
}

export const facebookAdapter: Adapter<FacebookCursor> = {
  cursor: FacebookCursorSchema,
  inspect: inspectFacebookPage,

  async start(profileUrl) {
    return { profileUrl, cursor: { url: profileUrl, pageId: null, after: null } };
  },

  async page(cursor, ctx) {
    const { page, tab, pageId } = await readTab(cursor.url, ctx);
    const tabUrl = page.url.toString();
    if (cursor.after === null) return { ...toPage(tab.feed, pageId, tabUrl, tabUrl), profileUrl: tabUrl };
    if (!tab.fbDtsg) throw permanentError("publisher_error", "No DTSGInitialData token on the reviews tab");
    const variables = feedVariables(cursor.pageId ?? pageId, cursor.after);
    const answer = await ctx.client.request(new URL("/api/graphql/", tabUrl), {
      method: "POST",
      headers: { "X-FB-Friendly-Name": REVIEWS_FEED_QUERY, ...(tab.lsd ? { "X-FB-LSD": tab.lsd } : {}) },
      form: {
        fb_dtsg: tab.fbDtsg,
        ...(tab.lsd ? { lsd: tab.lsd } : {}),
        fb_api_caller_class: "RelayModern",
        fb_api_req_friendly_name: REVIEWS_FEED_QUERY,
        variables: JSON.stringify(variables),
        server_timestamps: "true",
        doc_id: REVIEWS_FEED_DOC_ID,
      },
    });
    return toPage(parseGraphqlAnswer(answer.text), cursor.pageId ?? pageId, tabUrl, tabUrl);
  },
};
