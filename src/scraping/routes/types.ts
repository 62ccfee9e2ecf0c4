import type { Target } from "../target";
import type { RouteKind, RouteName } from "../../core/fetch-routes";

/** One request as a route sends it: the adapter's own headers, the body, and where it goes. */
export interface RouteRequest {
  target: Target;
  method: "GET" | "POST";
  /** The adapter's headers (Accept, Content-Type, Referer, API headers); no User-Agent or cookies. */
  headers: Headers;
  body?: string;
  /** True for an API call (JSON, POST, fetch-style); false for a page the browser would navigate to. */
  api: boolean;
  /** The cookies for this host: the task's login cookies and the run's jar. */
  cookies: { name: string; value: string }[];
  signal: AbortSignal;
  timeoutMs: number;
  /** Reads an answer's body within the page size cap (MAX_PAGE_BYTES). */
  read(response: Response): Promise<string>;
}

/** What the publisher answered, as a route relays it. */
export interface RouteAnswer {
  status: number;
  headers: Headers;
  text: string;
  /**
   * The URL the answer is for, on the request side: the request's own unless the route followed
   * redirects itself (the browser, some providers), in which case the client checks it again.
   */
  url: URL;
}

export interface Route {
  readonly name: RouteName;
  readonly kind: RouteKind;
  send(request: RouteRequest): Promise<RouteAnswer>;
  close?(): Promise<void>;
}
