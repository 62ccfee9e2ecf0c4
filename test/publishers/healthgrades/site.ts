/**
 * Fixture healthgrades.com: the provider comments API its profile pages load,
 * `POST /api4/providerprofile/comments` with a form body `currentPage, includeAllAnswers, perPage,
 * pwid, sortOption`, answering `{totalCommentCount, results: [{commentId, commentText,
 * submittedDate, overallScore, …}]}`. Structure as two public clients read it (exact-string index
 * ids 32190839008 and 33155249332: the form fields, perPage 5 and 10, `totalCommentCount`,
 * `results`, `commentId`, `commentText`, `submittedDate` printed "Jan 03, 2021", `overallScore`);
 * no capture of an answer exists. The comments are invented. Only `sortOption=1` gives newest
 * first here, so a module that forgets it gets the wrong order.
 *
 * Providers (by pwid): X2Y3Z (23 comments, three pages of 10, one without an id), Q0Q0Q (none),
 * G0NE0 (404), M0VED (an answer without `totalCommentCount`), B10CK (an HTML page with 200, as a
 * datacenter address is answered), Z5PPNNJ580 (a 10-character pwid, as a real 2025 search page
 * shows one; the first 4 of X2Y3Z's comments).
 */
import type { FixtureResponse, PublisherFixture } from "../../fixtures/sites";

export interface HealthgradesFixtureComment {
  commentId?: string;
  commentText: string;
  submittedDate: string;
  overallScore: number;
  displayName: string;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const printed = (ms: number) => {
  const d = new Date(ms);
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, "0")}, ${d.getUTCFullYear()}`;
};
const NEWEST = Date.UTC(2026, 10, 20);

function comment(i: number): HealthgradesFixtureComment {
  return {
    ...(i === 12 ? {} : { commentId: `c7f0${String(1000 - i).padStart(4, "0")}` }),
    commentText:
      i === 1 ? "  Dr. Doe listened and explained every option.  " : `Visit ${i}: kind staff, short wait.`,
    submittedDate: printed(NEWEST - i * 9 * 86_400_000),
    overallScore: (i % 5) + 1,
    displayName: `Patient ${i}`,
  };
}

export const JANE_COMMENTS: HealthgradesFixtureComment[] = Array.from({ length: 23 }, (_, i) => comment(i));

const json = (data: unknown, status = 200): FixtureResponse => ({
  status,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(data),
});

function comments(body: string): FixtureResponse {
  const form = new URLSearchParams(body);
  const pwid = form.get("pwid") ?? "";
  const perPage = Number(form.get("perPage"));
  const page = Number(form.get("currentPage"));
  if (!(perPage >= 1 && perPage <= 20) || !(page >= 1)) return json({ error: "bad request" }, 400);
  if (pwid === "G0NE0") return json({ error: "provider not found" }, 404);
  if (pwid === "B10CK")
    return {
      status: 200,
      headers: { "Content-Type": "text/html" },
      body: "<!DOCTYPE html><html><title>Access denied</title></html>",
    };
  const all =
    pwid === "X2Y3Z" || pwid === "M0VED"
      ? JANE_COMMENTS
      : pwid === "Z5PPNNJ580"
        ? JANE_COMMENTS.slice(0, 4)
        : [];
  const ordered = form.get("sortOption") === "1" ? all : [...all].reverse();
  const results = ordered.slice((page - 1) * perPage, page * perPage);
  if (pwid === "M0VED") return json({ commentCount: all.length, results });
  return json({ totalCommentCount: all.length, results });
}

const fixture: PublisherFixture = {
  domains: ["healthgrades.com"],
  site: ({ url, method, body, headers }) => {
    if (url.pathname !== "/api4/providerprofile/comments") return json({ error: "not found" }, 404);
    if (method !== "POST" || !headers["content-type"]?.startsWith("application/x-www-form-urlencoded"))
      return json({ error: "Method Not Allowed" }, 405);
    return comments(body);
  },
  // What the contract test reads to check the module's coverage claims (test/publishers/coverage.ts).
  coverageSample: { profileUrl: "https://www.healthgrades.com/physician/dr-jane-doe-x2y3z" },
};

export default fixture;
