/**
 * The query signature Yandex Maps' front end puts on every `/maps/api/…` request: `s` is the
 * djb2-xor hash (`h = 33·h ^ code`, from 5381, unsigned 32 bits, in decimal) of the query string
 * without `s`, its keys sorted case-insensitively and keys and values percent-encoded like
 * `encodeURIComponent`. Pure; README.md names the public clients this follows.
 */

/** The djb2-xor hash of a string's UTF-16 code units, as an unsigned 32-bit number. */
export function djb2Xor(text: string): number {
  let hash = 5381;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(33, hash) ^ text.charCodeAt(i)) >>> 0;
  return hash;
}

function encode(entries: [string, string][]): string {
  return entries.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join("&");
}

const byKey = (a: [string, string], b: [string, string]) => {
  const [x, y] = [a[0].toLowerCase(), b[0].toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The signed query string (without `?`): the params sorted by key, with `s` among them. */
export function signedQuery(params: Readonly<Record<string, string>>): string {
  const entries = Object.entries(params)
    .filter(([key]) => key !== "s")
    .sort(byKey);
  return encode([...entries, ["s", String(djb2Xor(encode(entries)))] as [string, string]].sort(byKey));
}
