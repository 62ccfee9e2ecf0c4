import { z } from "zod";
import { firstIssue } from "../../scraping/answer-schema";
import { permanentError } from "../../scraping/errors";
import { htmlPass } from "../kit/html-pass";
import { WorkBudget } from "../kit/work-budget";

/**
 * Trustpilot's pages are Next.js pages: everything the page shows is in one JSON document,
 * `<script id="__NEXT_DATA__" type="application/json">`, under `props.pageProps`. Reading that
 * document is far steadier than reading the markup, whose class names change with every release.
 */
export async function nextDataText(
  html: string,
  budget = new WorkBudget("Trustpilot page"),
): Promise<string | null> {
  let text: string | null = null;
  // Only the first such script is read: a page repeating the id cannot make the text grow twice.
  let scripts = 0;
  const rewriter = new HTMLRewriter().on("script#__NEXT_DATA__", {
    element() {
      budget.spend();
      scripts++;
    },
    text(chunk) {
      budget.spend();
      if (scripts === 1) text = (text ?? "") + chunk.text;
    },
  });
  await htmlPass(rewriter, html, budget);
  return text;
}

/** Quick test used by the page inspector, before any parsing: does the page carry its data? */
export function hasNextData(html: string): boolean {
  // No regex over the whole page (a page of unclosed `<script ` openings would make `[^>]*` rescan
  // the rest of it at each one): find the id with indexOf, then test only the short slice before it
  // for the opening of its script tag.
  let from = 0;
  for (let seen = 0; seen < MAX_ID_HITS; seen++) {
    const at = html.indexOf("__NEXT_DATA__", from);
    if (at < 0) return false;
    const before = html.slice(Math.max(0, at - TAG_SLICE), at);
    const open = before.lastIndexOf("<");
    if (open >= 0 && SCRIPT_ID_OPENING.test(before.slice(open))) return true;
    from = at + 1;
  }
  return false;
}

/** How far before the id its `<script` may start (the attributes Next.js writes are far shorter). */
const TAG_SLICE = 256;
/** A page names `__NEXT_DATA__` a few times at most (the tag, perhaps a script reading it). */
const MAX_ID_HITS = 64;
const SCRIPT_ID_OPENING = /^<script\b[^<>]*\bid=["']?$/i;

/** `props.pageProps` of a page, checked against `schema`; a page that does not fit is a publisher_error naming what was missing. */
export async function pageProps<T extends z.ZodType>(
  html: string,
  schema: T,
  what: string,
  budget = new WorkBudget(`Trustpilot ${what}`),
): Promise<z.output<T>> {
  const text = await nextDataText(html, budget);
  if (text === null) throw permanentError("publisher_error", `Trustpilot ${what}: no __NEXT_DATA__ script`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw permanentError("publisher_error", `Trustpilot ${what}: __NEXT_DATA__ is not JSON`);
  }
  const parsed = z.object({ props: z.object({ pageProps: schema }) }).safeParse(data);
  if (!parsed.success) {
    const { path, message } = firstIssue(parsed.error, ["__NEXT_DATA__"]);
    throw permanentError(
      "publisher_error",
      `Trustpilot ${what}: ${path} is missing or malformed (${message})`,
    );
  }
  return (parsed.data as { props: { pageProps: z.output<T> } }).props.pageProps;
}
