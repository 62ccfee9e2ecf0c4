/**
 * facebook.com fixture data: a page's reviews ("recommendations") in the shapes the logged-in web
 * app (Comet) serves them.
 *
 * Structure copied from public sources (field names and nesting only; values are invented):
 * - GitHub code search, a Python "ReviewScrape" class reading facebook.com/<page>/reviews: the
 *   data-sjs `require[0][3][0].__bbox.require` list with `RelayPrefetchedStreamCache` entries whose
 *   `__bbox.result.data.user.ratings_list_feed_units.reviews_feed.edges[].node`; the page id from
 *   `content="fb://profile/<id>"`; POST https://www.facebook.com/api/graphql/ with
 *   `fb_api_req_friendly_name=ProfileCometReviewsFeedRefetchQuery`, `doc_id`, and `variables`
 *   {count, cursor, feedLocation: "PAGE_SURFACE_RECOMMENDATIONS", scale, id}; the JSON-lines answer
 *   (first line `data.node.ratings_list_feed_units.reviews_feed.edges`, then streamed edges as
 *   `data.node`, then `data.page_info` with `end_cursor` a JSON text holding
 *   `local_rec_pattern_cursor`); story fields `post_id`, `comet_sections.content.story.actors[0].name`,
 *   `.message.text`, `.wwwURL`, `comet_sections.context_layout.story.comet_sections.title.story.title
 *   .text` ("… recommends …"), `.metadata[0].story.creation_time`, and the comment list under
 *   `comet_sections.feedback.story.story_ufi_container.story.feedback_context
 *   .feedback_target_with_context.comment_list_renderer.feedback
 *   .comment_rendering_instance_for_feed_location.comments.edges[].node` (`created_time`,
 *   `legacy_fbid`, `body_renderer.text`, `user`/`author`).
 * - kevinzg/facebook-scraper issue #629 (page reviews as "<name> recommends <page>" with a timestamp).
 * - "ProfileCometReviewsTabRoot.react" `props.userID` (a browser extension reading the reviews tab).
 * - A 2026 Python reviews extractor (doc_id 26706360375718971 for ProfileCometReviewsFeedRefetchQuery,
 *   the `__relay_internal__pv__*` variables, `recommendation_type` POSITIVE/NEGATIVE found by searching
 *   the answer; see src/publishers/facebook/README.md "Evidence").
 * Not verified: whether the current doc_id still answers (Facebook rotates them), where exactly in the
 * story node `recommendation_type` sits, whether comments carry `body.text` or
 * `body_renderer.text` today (the parser reads both), the wording of titles in other interface
 * languages, and the exact `for (;;);{"error":1357001}` answer to a GraphQL call without a session
 * (known from Facebook's older AJAX endpoints).
 */

export const PAGE_ID = "104729361234567";
export const PAGE_NAME = "Blue Door Cafe";
export const DTSG = "NAcP-fixture-dtsg:31:1717901263";
export const LSD = "a0tVGc3w-fixture-lsd";

export interface FbReview {
  postId: string;
  author: { id: string; name: string };
  recommends: boolean;
  text?: string;
  /** Epoch seconds. */
  time: number;
  comments?: { id: string; author: { id: string; name: string }; text: string; time: number }[];
}

const OWNER = { id: PAGE_ID, name: PAGE_NAME };

/** Newest first, as the feed gives them: 3 on the tab, then two GraphQL pages of 3 and 2. */
export const REVIEWS: FbReview[] = [
  {
    postId: "1228004001",
    author: { id: "100000000000001", name: "Dana Kim" },
    recommends: true,
    text: "Best flat white in town.\nFriendly staff too.",
    time: 1719705600, // 2024-06-30T00:00:00Z
    comments: [
      { id: "9001", author: { id: "100000000000009", name: "Sam Lee" }, text: "Agreed!", time: 1719710000 },
      { id: "9002", author: OWNER, text: "Thank you Dana, see you soon!", time: 1719792000 },
    ],
  },
  {
    postId: "1228004002",
    author: { id: "100000000000002", name: "Chris Park" },
    recommends: false,
    text: "Cold coffee and a long wait.",
    time: 1717200000,
  },
  {
    postId: "1228004003",
    author: { id: "100000000000003", name: "Ana Silva" },
    recommends: true,
    time: 1714521600,
  },
  {
    postId: "1228004004",
    author: { id: "100000000000004", name: "Lee Wong" },
    recommends: true,
    text: "Great pastries and quick service every morning.",
    time: 1711929600,
  },
  {
    postId: "1228004005",
    author: { id: "100000000000005", name: "Marie Dubois" },
    recommends: true,
    text: "Très bon café, le service est rapide et le personnel est très aimable.",
    time: 1709251200,
  },
  {
    postId: "1228004006",
    author: { id: "100000000000006", name: "Tom Brown" },
    recommends: false,
    text: "Overpriced for what you get.",
    time: 1706745600,
  },
  {
    postId: "1228004007",
    author: { id: "100000000000007", name: "Jo Evans" },
    recommends: true,
    text: "Lovely spot to work from.",
    time: 1704067200,
  },
  {
    postId: "1228004008",
    author: { id: "100000000000008", name: "Kai Müller" },
    recommends: true,
    text: "Nice music and good cake.",
    time: 1701388800,
  },
];

/** The feed's pages: [0] embedded in the tab, then the GraphQL pages. */
export const PAGES: FbReview[][] = [REVIEWS.slice(0, 3), REVIEWS.slice(3, 6), REVIEWS.slice(6)];

/** Facebook's end_cursor: a JSON text. Page n's cursor leads to page n + 1. */
export const cursorFor = (page: number) =>
  JSON.stringify({
    in_progresscursor_type: "online",
    local_rec_pattern_cursor: `AQHRfixture${page}`,
    rating_cursor: "",
    offline_offset: -1,
  });

export function storyNode(review: FbReview, pageSlug: string) {
  const comments = (review.comments ?? []).map((c) => ({
    node: {
      __typename: "Comment",
      id: `Y29tbWVudDo${c.id}`,
      legacy_fbid: c.id,
      created_time: c.time,
      author: { __typename: c.author.id === PAGE_ID ? "Page" : "User", id: c.author.id, name: c.author.name },
      body: { text: c.text },
    },
  }));
  return {
    __typename: "Story",
    id: `UzpfSTEwMDA6${review.postId}`,
    post_id: review.postId,
    comet_sections: {
      content: {
        story: {
          actors: [
            {
              __typename: "User",
              id: review.author.id,
              name: review.author.name,
              url: `https://www.facebook.com/profile.php?id=${review.author.id}`,
            },
          ],
          ...(review.text ? { message: { text: review.text, ranges: [] } } : { message: null }),
          wwwURL: `https://www.facebook.com/${review.author.id}/posts/${review.postId}`,
          // Where in the node it sits is invented: the 2026 client finds it by searching the node.
          recommendation_type: review.recommends ? "POSITIVE" : "NEGATIVE",
        },
      },
      context_layout: {
        story: {
          comet_sections: {
            title: {
              story: {
                title: {
                  text: `${review.author.name} ${review.recommends ? "recommends" : "doesn't recommend"} ${PAGE_NAME}.`,
                },
              },
            },
            metadata: [
              { __typename: "CometFeedStoryAudienceStrategy", story: { privacy_scope: {} } },
              {
                __typename: "CometFeedStoryMinimizedTimestampStrategy",
                story: { creation_time: review.time, url: `https://www.facebook.com/${pageSlug}/reviews` },
              },
            ],
          },
        },
      },
      feedback: {
        story: {
          story_ufi_container: {
            story: {
              feedback_context: {
                feedback_target_with_context: {
                  comment_list_renderer: {
                    feedback: {
                      comment_rendering_instance: { comments: { total_count: comments.length } },
                      comment_rendering_instance_for_feed_location: { comments: { edges: comments } },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}

const pageInfo = (page: number, pages: number) => ({
  has_next_page: page < pages,
  end_cursor: page < pages ? cursorFor(page) : null,
});

/** The tab's data-sjs block holding the preloaded first page (page 1 of `pages`). */
export function tabDataBlock(reviews: FbReview[], pageSlug: string, pages: number) {
  const data = {
    user: {
      id: PAGE_ID,
      ratings_list_feed_units: {
        reviews_feed: {
          edges: reviews.map((r) => ({ node: storyNode(r, pageSlug), cursor: null })),
          page_info: pageInfo(1, pages),
        },
      },
    },
  };
  return {
    require: [
      [
        "ScheduledServerJS",
        "handle",
        null,
        [
          {
            __bbox: {
              require: [
                [
                  "RelayPrefetchedStreamCache",
                  "next",
                  [],
                  [
                    "adp_ProfileCometReviewsTabQueryRelayPreloader_fixture",
                    { __bbox: { complete: true, result: { data, extensions: {} } } },
                  ],
                ],
              ],
            },
          },
        ],
      ],
    ],
  };
}

/** A GraphQL answer for feed page `page` (2-based): JSON lines, first edge inline, the rest streamed, page_info last. */
export function graphqlAnswer(reviews: FbReview[], page: number, pages: number, pageSlug: string): string {
  const [first, ...rest] = reviews.map((r) => ({ node: storyNode(r, pageSlug), cursor: null }));
  const lines: unknown[] = [
    {
      data: {
        node: {
          __typename: "Page",
          id: PAGE_ID,
          ratings_list_feed_units: { reviews_feed: { edges: first ? [first] : [] } },
        },
      },
      extensions: { is_final: false },
    },
    ...rest.map((edge, i) => ({
      label: "ProfileCometReviewsFeed_user$stream$ProfileCometReviewsFeed_user_reviews_feed",
      path: ["node", "ratings_list_feed_units", "reviews_feed", "edges", i + 1],
      data: edge,
    })),
    {
      label: "ProfileCometReviewsFeed_user$defer$ProfileCometReviewsFeed_user_reviews_feed$page_info",
      path: ["node", "ratings_list_feed_units", "reviews_feed"],
      data: { page_info: pageInfo(page, pages) },
      extensions: { is_final: true },
    },
  ];
  return lines.map((line) => JSON.stringify(line)).join("\n");
}
