/**
 * Login cookies a client hands over in persona.additional_cookies.login: validated on submit (the
 * HTTP layer's schema nests this one) and sent by the scraping layer, so both read one definition.
 */
import { z } from "@hono/zod-openapi";
import { canonicalPublisherKey } from "./publishers/canonical";
import { MSG, drfObject, drfString } from "./validation";

/** RFC 6265 cookie-name (an HTTP token): visible ASCII except separators. */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 6265 cookie-value: cookie-octets (no CTLs, whitespace, DQUOTE, comma, semicolon or backslash), optionally in DQUOTEs. */
const COOKIE_VALUE =
  /^(?:[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*|"[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*")$/;

export const COOKIE_MSG = {
  name: "Enter a valid cookie name.",
  value: "Enter a valid cookie value.",
  domain: (publisherKey: string) =>
    `Enter a domain that is ${publisherKey}, one of its subdomains or a parent domain.`,
} as const;

/**
 * Cookies go into a Cookie header and the browser's cookie jar as they are, so they must be valid
 * RFC 6265 syntax (a CR/LF or ";" in a value would otherwise fail every run, or smuggle a header).
 * The domain is checked against the publisher in checkEntry.
 */
export const CookieSchema = drfObject({
  name: drfString({ max: 4096 }).refine((name) => COOKIE_NAME.test(name), COOKIE_MSG.name),
  value: drfString({ max: 4096, allowBlank: true }).refine(
    (value) => COOKIE_VALUE.test(value),
    COOKIE_MSG.value,
  ),
  domain: drfString({ max: 255 }).refine(
    (domain) => canonicalPublisherKey(domain.replace(/^\./, "")) !== null,
    MSG.domain,
  ),
}).openapi("Cookie");

/** A login cookie from the task's persona (persona.additional_cookies.login). */
export type LoginCookie = z.output<typeof CookieSchema>;
