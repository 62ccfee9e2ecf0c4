import { z } from "zod";
import { firstIssue } from "../../scraping/answer-schema";
import { permanentError } from "../../scraping/errors";

/**
 * Trustpilot's pages are Next.js pages: everything the page shows is in one JSON document,
 * `<script id="__NEXT_DATA__" type="application/json">`, under `props.pageProps`. Reading that
 * document is far steadier than reading the markup, whose class names change with every release.
 */
export async function nextDataText(html: string): Promise<string | null> {
  let text: string | null = null;
  await new HTMLRewriter()
    .on("script#__NEXT_DATA__", {
      text(chunk) {
        text = (text ?? "") + chunk.text;
      },
    })
    .transform(new Response(html))
    .arrayBuffer();
  return text;
}

/** Quick test used by the page inspector, before any parsing: does the page carry its data? */
export function hasNextData(html: string): boolean {
  return /<script[^>]*\bid=["']?__NEXT_DATA__/i.test(html);
}

/** `props.pageProps` of a page, checked against `schema`; a page that does not fit is a publisher_error naming what was missing. */
export async function pageProps<T extends z.ZodType>(html: string, schema: T, what: string): Promise<z.output<T>> {
  const text = await nextDataText(html);
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
    throw permanentError("publisher_error", `Trustpilot ${what}: ${path} is missing or malformed (${message})`);
  }
  return (parsed.data as { props: { pageProps: z.output<T> } }).props.pageProps;
}
