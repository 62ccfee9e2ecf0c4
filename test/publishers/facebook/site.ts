/**
 * facebook.com fixture site (structure sources: see ./data.ts). Pages by slug:
 * - /bluedoorcafe/reviews: 8 reviews, 3 on the tab and two GraphQL pages (3 and 2).
 * - /emptycafe/reviews: a page without reviews (empty feed, no next page).
 * - /changedcafe/reviews: a tab whose data-sjs blocks no longer hold the reviews feed.
 * - /checkpointcafe/reviews: redirects to a /checkpoint/ page served with 200.
 * - /captchacafe/reviews: a captcha form served with 200.
 * - /expiredcafe/reviews: the tab works, but GraphQL answers "log in" (an expired session).
 * Without the `xs` session cookie every page is the login form (200), as Facebook serves it.
 */
import type { FixtureRequest, FixtureResponse, PublisherFixture } from "../../fixtures/sites";
import { DTSG, LSD, PAGE_ID, PAGES, cursorFor, graphqlAnswer, tabDataBlock } from "./data";

export const DOC_ID = "26706360375718971";
const EXPIRED_PAGE_ID = "104729369999999";

const script = (data: unknown) =>
  `<script type="application/json" data-content-len="1" data-sjs>${JSON.stringify(data).replace(/</g, "\\u003c")}</script>`;

function html(body: string, head = "", status = 200): FixtureResponse {
  return {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8" },
    body: `<!DOCTYPE html><html lang="en" id="facebook"><head><meta charset="utf-8"><title>Facebook</title>${head}</head><body>${body}</body></html>`,
  };
}

const loginPage = () =>
  html(
    `<div id="loginform"><form id="login_form" action="/login/device-based/regular/login/?login_attempt=1" method="post"><input type="email" name="email"><input type="password" name="pass"><button name="login">Log in</button></form></div>`,
  );

const tokens = script({
  define: [
    ["DTSGInitialData", [], { token: DTSG }, 258],
    ["LSD", [], { token: LSD }, 323],
  ],
});

function tab(slug: string, pageId: string, dataBlock: unknown): FixtureResponse {
  const head = `<meta property="al:android:url" content="fb://profile/${pageId}"><meta property="og:title" content="Blue Door Cafe">`;
  const root = script({
    require: [
      ["ProfileCometReviewsTabRoot.react", "render", null, [{ __dr: "ProfileCometReviewsTabRoot.react" }]],
    ],
  });
  return html(
    `<div id="mount_0_0_${slug}"></div>${tokens}${root}${script({ require: [["ScheduledServerJS", "handle", null, [{ __bbox: { require: [["CometSSRBootstrap", "init", [], []]] } }]]] })}${dataBlock ? script(dataBlock) : ""}`,
    head,
  );
}

function graphql(req: FixtureRequest): FixtureResponse {
  const form = new URLSearchParams(req.body);
  const json = (body: string): FixtureResponse => ({
    status: 200,
    headers: { "Content-Type": "text/html; charset=utf-8" },
    body,
  });
  if (form.get("fb_dtsg") !== DTSG)
    return json(
      `for (;;);${JSON.stringify({ __ar: 1, error: 1357004, errorSummary: "Sorry, something went wrong", errorDescription: "Please try closing and re-opening your browser window." })}`,
    );
  if (form.get("doc_id") !== DOC_ID)
    return json(
      JSON.stringify({
        errors: [
          {
            message: "A server error field_exception occured. Check server logs for details.",
            severity: "CRITICAL",
            code: 1675030,
          },
        ],
        data: null,
      }),
    );
  if (form.get("fb_api_req_friendly_name") !== "ProfileCometReviewsFeedRefetchQuery")
    return json(JSON.stringify({ errors: [{ message: "unknown query" }], data: null }));
  const variables = JSON.parse(form.get("variables") ?? "{}") as Record<string, unknown> & {
    id?: string;
    cursor?: string;
  };
  // A persisted query without its Relay provider variables is refused (modelled; the real message differs).
  if (variables.__relay_internal__pv__CometUFICommentAutoTranslationTyperelayprovider !== "ORIGINAL")
    return json(
      JSON.stringify({
        errors: [
          {
            message:
              "Missing provided variable __relay_internal__pv__CometUFICommentAutoTranslationTyperelayprovider",
          },
        ],
        data: null,
      }),
    );
  if (variables.id === EXPIRED_PAGE_ID)
    return json(
      `for (;;);${JSON.stringify({ __ar: 1, error: 1357001, errorSummary: "You must log in to continue", payload: null })}`,
    );
  if (variables.id !== PAGE_ID)
    return json(JSON.stringify({ data: { node: null }, extensions: { is_final: true } }));
  const page = PAGES.findIndex((_, i) => cursorFor(i) === variables.cursor) + 1;
  if (page < 2) return json(JSON.stringify({ errors: [{ message: "Invalid cursor" }], data: null }));
  return {
    status: 200,
    headers: { "Content-Type": "text/html; charset=utf-8" },
    body: graphqlAnswer(PAGES[page - 1], page, PAGES.length, "bluedoorcafe"),
  };
}

function site(req: FixtureRequest): FixtureResponse {
  const path = req.url.pathname;
  if (path.startsWith("/checkpoint/"))
    return html(
      `<form action="/checkpoint/828281030927956/?next" method="post"><h2>Confirm it's you</h2></form>`,
    );
  if (!/(^|;\s*)xs=/.test(req.cookie)) return loginPage();
  if (req.method === "POST" && path === "/api/graphql/") return graphql(req);
  const slug = /^\/([^/]+)\/reviews\/?$/.exec(path)?.[1];
  switch (slug) {
    case "bluedoorcafe":
      return tab(slug, PAGE_ID, tabDataBlock(PAGES[0], slug, PAGES.length));
    case "emptycafe":
      return tab(slug, PAGE_ID, tabDataBlock([], slug, 1));
    case "changedcafe":
      return tab(slug, PAGE_ID, null);
    case "expiredcafe":
      return tab(slug, EXPIRED_PAGE_ID, tabDataBlock(PAGES[0], slug, PAGES.length));
    case "checkpointcafe":
      return {
        status: 302,
        headers: {
          Location:
            "/checkpoint/828281030927956/?next=https%3A%2F%2Fwww.facebook.com%2Fcheckpointcafe%2Freviews",
        },
        body: "",
      };
    case "captchacafe":
      return html(
        `<form action="/captcha/submit/" method="post"><div id="captcha_container"><img src="/captcha/tfbimage/?captcha_challenge_code=1"></div></form>`,
      );
    default:
      return html("<h1>This content isn't available right now</h1>", "", 404);
  }
}

const fixture: PublisherFixture = {
  domains: ["facebook.com"],
  site,
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: {
    profileUrl: "https://www.facebook.com/bluedoorcafe/reviews",
    cookie: "c_user=100000000000042; xs=42%3Afixture-session",
  },
};
export default fixture;
