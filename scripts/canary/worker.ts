/**
 * The Worker behind `npm run canary` (scripts/canary.mjs): runs one first-page scrape of one
 * publisher with the service's own modules, client and checks, and answers every step it took (each
 * request with its answer status, what the adapter parsed, the verdict) as JSON. It is started by the
 * script with wrangler dev and never deployed: the service's Worker is src/index.ts.
 */
import { normalizeReviews } from "../../src/core/reviews";
import { publisherFor } from "../../src/publishers/registry";
import type { ScrapeContext } from "../../src/publishers/types";
import { PublisherClient, type FetchedPage, type RequestOptions } from "../../src/scraping/client";
import { ScrapeError } from "../../src/scraping/errors";

// Every Durable Object class the service's bindings name (wrangler.toml): the service entry's named
// exports (`export *` leaves its default, the service's handlers, out).
export * from "../../src/index";

interface Step {
  step: string;
  detail: Record<string, unknown>;
}

/** An answer as the client received it, for `--save` (the body decoded as UTF-8, nothing else changed). */
interface Capture {
  method: string;
  url: string;
  final_url: string;
  status: number;
  content_type: string | null;
  rendered: boolean;
  body: string;
}

/** The service's client, noting every request it makes and what came back. */
class RecordingClient extends PublisherClient {
  readonly steps: Step[] = [];
  /** Every answer's body, kept only when the operator asked to save them (`keepAnswers`). */
  captures: Capture[] | null = null;

  keepAnswers(): void {
    this.captures = [];
  }

  private keep(method: string, url: URL | string, page: FetchedPage): void {
    this.captures?.push({
      method,
      url: String(url),
      final_url: page.url.toString(),
      status: page.status,
      content_type: page.headers.get("content-type"),
      rendered: page.rendered,
      body: page.text,
    });
  }

  override async request(url: URL | string, options: RequestOptions = {}): Promise<FetchedPage> {
    const started = Date.now();
    const method = options.method ?? "GET";
    try {
      const page = await super.request(url, options);
      this.keep(method, url, page);
      this.steps.push({
        step: "request",
        detail: {
          method,
          url: String(url),
          status: page.status,
          final_url: page.url.toString(),
          bytes: page.text.length,
          ms: Date.now() - started,
        },
      });
      return page;
    } catch (err) {
      this.steps.push({
        step: "request",
        detail: { method, url: String(url), error: describe(err), ms: Date.now() - started },
      });
      throw err;
    }
  }

  override async render(url: URL | string): Promise<FetchedPage> {
    const started = Date.now();
    try {
      const page = await super.render(url);
      this.keep("RENDER", url, page);
      this.steps.push({
        step: "render",
        detail: {
          url: String(url),
          status: page.status,
          final_url: page.url.toString(),
          bytes: page.text.length,
          ms: Date.now() - started,
        },
      });
      return page;
    } catch (err) {
      this.steps.push({
        step: "render",
        detail: { url: String(url), error: describe(err), ms: Date.now() - started },
      });
      throw err;
    }
  }
}

function describe(err: unknown): string {
  if (err instanceof ScrapeError) return `${err.reason}: ${err.message}`;
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

interface RunResult {
  ok: boolean;
  steps: Step[];
  verdict: string;
  captures?: Capture[];
}

async function run(env: Env, publisherKey: string, profileKey: string, save: boolean): Promise<RunResult> {
  const publisher = publisherFor(publisherKey);
  const module = publisher.module;
  const resolved = publisher.resolveProfileKey(profileKey);
  if ("error" in resolved) return { ok: false, steps: [], verdict: `profile_key refused: ${resolved.error}` };
  const client = new RecordingClient(env, {
    cookies: [],
    deadline: Date.now() + 120_000,
    inspect: module.adapter.inspect,
  });
  if (save) client.keepAnswers();
  const steps = client.steps;
  const withCaptures = (result: RunResult): RunResult =>
    client.captures ? { ...result, captures: client.captures } : result;
  steps.push({
    step: "module",
    detail: { publisher: publisherKey, module: module.name, profile_url: resolved.url },
  });
  const ctx: ScrapeContext = { publisherKey, client };
  try {
    const opened = await module.adapter.start(resolved.url, ctx);
    steps.push({ step: "start", detail: { profile_url: opened.profileUrl } });
    const scrapedAt = Date.now();
    const page = await module.adapter.page(opened.cursor, ctx);
    const reviews = normalizeReviews(page.reviews, {
      publisherKey,
      pageUrl: page.pageUrl,
      scrapedAt,
      pageLanguage: page.pageLanguage ?? null,
    });
    steps.push({
      step: "parsed",
      detail: {
        reviews: reviews.length,
        more_pages: page.next !== null,
        publisher_total: page.publisherTotal ?? null,
        limited_view: page.limitedView ?? null,
        newest: reviews[0]
          ? {
              review_id: reviews[0].review_id,
              rating: reviews[0].rating,
              posted_at: reviews[0].posted_at,
              author_name: reviews[0].author_name,
            }
          : null,
      },
    });
    const ok = reviews.length > 0;
    return withCaptures({
      ok,
      steps,
      verdict: ok
        ? `ok: ${reviews.length} reviews on the first page`
        : "failed: the first page parsed, but holds no reviews",
    });
  } catch (err) {
    return withCaptures({ ok: false, steps, verdict: `failed: ${describe(err)}` });
  } finally {
    await client.close();
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname !== "/run")
      return new Response("canary worker: POST /run?publisher=&profile=[&save=1]", { status: 404 });
    const publisher = url.searchParams.get("publisher") ?? "";
    const profile = url.searchParams.get("profile") ?? "";
    return Response.json(await run(env, publisher, profile, url.searchParams.get("save") === "1"));
  },
} satisfies ExportedHandler<Env>;
