const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * The canonical publisher key for a domain as a client wrote it: lower-case, no leading `www.`,
 * no trailing dot. Returns null when the text is not a domain name (a URL, a path, an IP address).
 */
export function canonicalPublisherKey(raw: string): string | null {
  let domain = raw.trim().toLowerCase().replace(/\.$/, "");
  if (domain.startsWith("www.")) domain = domain.slice(4);
  if (!domain || domain.length > 253) return null;
  const labels = domain.split(".");
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  if (!TLD.test(labels[labels.length - 1])) return null;
  return domain;
}

/** True when `host` is `domain` itself or one of its subdomains. */
export function isOnDomain(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return h === domain || h.endsWith(`.${domain}`);
}
