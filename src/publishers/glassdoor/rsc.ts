import { embeddedDocuments } from "../kit/embedded-json";
import { MAX_WALK_DEPTH, WorkBudget } from "../kit/work-budget";
import { isObject, readResult, type JsonObject, type ReviewsResult } from "./apollo";
import { PAGE_SIZE } from "./graph";

/**
 * Page 1 when Glassdoor serves it from the Next.js App Router: no `__NEXT_DATA__` or `apolloState`,
 * but React Server Components chunks (`self.__next_f.push([1,"…"])`), as its Overview page is served
 * since 2026 (a glassdoor-collect skill, sources of 2026-09-28). That client finds the reviews call's
 * arguments in the payload as SWR keys (`#url:"/bff/…"`), so the payload is taken to hold the same
 * call's answer as SWR data: an `employerReviews` object with its `reviews` list (the JSON call's
 * shape, nested, not normalized). The employer object (`id`, `profileId`) and `gdToken`, which the
 * classic page carries inline, are read from the same payload, where they are escaped inside strings
 * and the inline readers would miss them.
 */
export interface RscFirstPage {
  result: ReviewsResult;
  profileId: number | null;
  token: string | null;
}

const WHERE = "Glassdoor page (RSC payload)";

/** What page 1 of an RSC-served reviews page holds, or null when the page has no such payload. */
export async function rscFirstPage(html: string, employerId: number): Promise<RscFirstPage | null> {
  if (!html.includes("__next_f")) return null;
  const budget = new WorkBudget("Glassdoor page's RSC payload");
  const roots = (await embeddedDocuments(html, budget)).filter((d) => d.source === "rsc").map((d) => d.value);
  let reviews: JsonObject | null = null;
  let profileId: number | null = null;
  let token: string | null = null;
  const visit = (node: unknown, depth: number): void => {
    budget.spend();
    if (depth > MAX_WALK_DEPTH || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const object = node as JsonObject;
    const result = object.employerReviews;
    if (!reviews && isObject(result) && Array.isArray(result.reviews)) reviews = result;
    if (profileId === null && isObject(object.employer) && Number(object.employer.id) === employerId) {
      const id = Number(object.employer.profileId);
      if (Number.isSafeInteger(id) && id > 0) profileId = id;
    }
    if (token === null && typeof object.gdToken === "string" && object.gdToken.length <= 1024)
      token = object.gdToken || null;
    for (const child of Object.values(object)) visit(child, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  if (!reviews) return null;
  return {
    result: readResult(reviews, WHERE, "employerReviews", { page: 1, pageSize: PAGE_SIZE }),
    profileId,
    token,
  };
}
