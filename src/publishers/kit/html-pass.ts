import { permanentError, ScrapeError } from "../../scraping/errors";
import type { WorkBudget } from "./work-budget";

/**
 * Runs one HTMLRewriter pass over a publisher's page. The rewriter's own failures (its parser gives
 * up on a page nested deeper than its memory limit allows, with a TypeError) and a handler's thrown
 * budget overrun both become `publisher_error`, so a hostile page ends the task as a publisher fault
 * instead of `internal`.
 */
export async function htmlPass(rewriter: HTMLRewriter, html: string, budget: WorkBudget): Promise<void> {
  try {
    await rewriter
      .transform(new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }))
      .arrayBuffer();
  } catch (err) {
    if (err instanceof ScrapeError) throw err;
    // A handler's budget overrun may reach us wrapped by the rewriter: say what it was.
    if (budget.used > budget.limit)
      throw permanentError(
        "publisher_error",
        `${budget.what}: the answer needs more than ${budget.limit} steps to read`,
      );
    throw permanentError(
      "publisher_error",
      `${budget.what}: the page could not be parsed (${err instanceof Error ? err.message.slice(0, 200) : "unknown error"})`,
    );
  }
}
