import type { PageRenderer } from "../browser";
import type { LoginCookie } from "../../core/cookies";
import { BrowserRoute } from "./browser-route";
import type { RouteName } from "../../core/fetch-routes";
import { DirectRoute } from "./direct";
import { BrightDataRoute } from "./providers/brightdata";
import { ScrapflyRoute } from "./providers/scrapfly";
import { ZyteRoute } from "./providers/zyte";
import type { Route } from "./types";

export interface RouteDeps {
  env: Env;
  publisherKey: string;
  renderer: PageRenderer;
  loginCookies: readonly LoginCookie[];
  maxPageBytes: number;
}

/** The route objects for a publisher's FETCH_ROUTES list, in order. */
export function createRoutes(names: readonly RouteName[], deps: RouteDeps): Route[] {
  return names.map((name): Route => {
    switch (name) {
      case "direct":
        return new DirectRoute(deps.publisherKey);
      case "browser":
        return new BrowserRoute(deps.renderer, deps.loginCookies, deps.maxPageBytes);
      case "provider:zyte":
        return new ZyteRoute(deps.env);
      case "provider:brightdata":
        return new BrightDataRoute(deps.env);
      case "provider:scrapfly":
        return new ScrapflyRoute(deps.env);
    }
  });
}

export type { Route, RouteAnswer, RouteRequest } from "./types";
