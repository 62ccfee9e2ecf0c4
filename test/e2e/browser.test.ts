/** The browser path, through the real Browser Rendering binding (local Chromium). */
import { describe, expect, it } from "vitest";
import { queuePerTest } from "../helpers/queue";
import { JS_RENDERED, MEMBERS, MEMBERS_COOKIE } from "../fixtures/reviews";
import {
  expectedReview,
  fixtureCookies,
  fixtureRequests,
  newestFirst,
  retrieve,
  slug,
  submitScrape,
  taskRow,
} from "./support";

const queue = queuePerTest();

describe("pages rendered by JavaScript", () => {
  it("renders pages whose reviews and next link a script inserts, without downloading images or fonts", async () => {
    const path = `/biz/${slug("js")}`;
    const profile = `https://jsrendered.test${path}`;
    const before = await fixtureRequests("jsrendered.test", "/static/");
    const task = await submitScrape("jsrendered.test", profile);
    await queue().drain();

    const body = await retrieve(task);
    expect(body.reviews).toEqual(
      newestFirst([
        ...JS_RENDERED.slice(0, 2).map((r) => expectedReview(r, profile)),
        ...JS_RENDERED.slice(2).map((r) => expectedReview(r, `${profile}?page=2`)),
      ]),
    );
    // Each page: one plain GET (no structured data in its HTML), then one browser render.
    expect(await fixtureRequests("jsrendered.test", path)).toEqual({ [path]: 2, [`${path}?page=2`]: 2 });
    const after = await fixtureRequests("jsrendered.test", "/static/");
    expect((after["/static/app.js"] ?? 0) - (before["/static/app.js"] ?? 0)).toBeGreaterThanOrEqual(1);
    expect(after["/static/photo.jpg"]).toBeUndefined();
    expect(after["/static/font.woff2"]).toBeUndefined();
  });

  it("carries the persona's login cookies into the browser and deletes them when the task ends", async () => {
    const path = `/biz/${slug("members")}`;
    const profile = `https://members.test${path}`;
    const persona = {
      additional_cookies: {
        login: [
          { ...MEMBERS_COOKIE, domain: ".members.test" },
          { name: "other", value: "x", domain: "api.members.test" },
        ],
      },
    };
    const task = await submitScrape("members.test", profile, { persona });
    expect((await taskRow(task.taskId))!.cookies_enc).toEqual(expect.stringMatching(/^v2\./));
    await queue().drain();

    const body = await retrieve(task);
    expect(body.reviews).toEqual(newestFirst(MEMBERS.map((r) => expectedReview(r, profile))));
    expect((await taskRow(task.taskId))!.cookies_enc).toBeNull();
    // The plain GET and the browser render both sent members.test's cookie and nothing else: the
    // cookie for elsewhere.test never left (every fixture site is on 127.0.0.1, where cookies are
    // not kept apart by port, so a cookie set for the wrong domain would show up here).
    expect(await fixtureCookies("members.test", path)).toEqual({
      [path]: [
        `${MEMBERS_COOKIE.name}=${MEMBERS_COOKIE.value}`,
        `${MEMBERS_COOKIE.name}=${MEMBERS_COOKIE.value}`,
      ],
    });
  });

  it("fails with login_required when the profile shows a sign-in page instead of reviews", async () => {
    const path = `/biz/${slug("nocookie")}`;
    const task = await submitScrape("members.test", `https://members.test${path}`);
    await queue().drain();
    const body = await retrieve(task);
    expect(body.response_message).toEqual([
      { status: "failed", message: "Task processing failed", task_status: 500, reason: "login_required" },
    ]);
    expect(await fixtureRequests("members.test", path)).toEqual({ [path]: 2 });
  });
});
