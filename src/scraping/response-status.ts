import { permanentError, transientError, type ScrapeError } from "./errors";

/** Longest Retry-After the pipeline honours; longer waits are the publisher blocking us. */
const MAX_RETRY_AFTER_SECONDS = 600;

function retryAfterSeconds(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds >= 0
    ? Math.min(Math.ceil(seconds), MAX_RETRY_AFTER_SECONDS)
    : undefined;
}

/** True when the page asks the visitor to sign in: it has a password field. */
export async function hasLoginForm(html: string): Promise<boolean> {
  let found = false;
  await new HTMLRewriter()
    .on('input[type="password" i]', {
      element() {
        found = true;
      },
    })
    .transform(new Response(html))
    .arrayBuffer();
  return found;
}

/**
 * What an HTTP answer from a publisher means for the task:
 * 404/410 → profile_not_found; 401 → login_required; 403 → login_required when the page is a login
 * wall, otherwise blocked; 429/503 → retry later, then blocked; other 5xx → retry later, then
 * publisher_error; any other non-2xx → publisher_error. Null means the page is usable.
 */
export async function errorForStatus(
  status: number,
  headers: Headers,
  body: string,
): Promise<ScrapeError | null> {
  if (status >= 200 && status < 300) return null;
  if (status === 404 || status === 410)
    return permanentError("profile_not_found", `Publisher answered ${status}`);
  if (status === 401) return permanentError("login_required", "Publisher answered 401");
  if (status === 403) {
    return (await hasLoginForm(body))
      ? permanentError("login_required", "Publisher shows a login wall (403)")
      : permanentError("blocked", "Publisher refused access (403)");
  }
  if (status === 429 || status === 503) {
    return transientError(
      "blocked",
      `Publisher answered ${status}`,
      retryAfterSeconds(headers.get("Retry-After")),
    );
  }
  if (status >= 500) return transientError("publisher_error", `Publisher answered ${status}`);
  return permanentError("publisher_error", `Publisher answered ${status}`);
}
