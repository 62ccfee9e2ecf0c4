import ipaddr from "ipaddr.js";

/**
 * Hosts a deployed service must never call on a client's behalf (SSRF). This is the one place that
 * decides it, for webhooks (at create-webhook and again at every delivery) and for every page and
 * redirect the scraper requests.
 *
 * - IP literals (URL-normalized, so "2130706433" or "0x7f.1" already read as 127.0.0.1) must be
 *   public unicast by ipaddr.js's maintained range tables: loopback, private, link-local, carrier-
 *   grade NAT, reserved, multicast and the like are refused. IPv6 must also lie in global unicast
 *   (2000::/3); every form that embeds or tunnels an IPv4 address (IPv4-mapped and -compatible,
 *   NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo) is refused whatever the address inside.
 * - Names are judged as written, without resolving them: single-label names ("vm", "printer"),
 *   names under suffixes that only exist on internal networks (".lan", ".internal", ".svc",
 *   ".cluster.local", ".home.arpa", ".corp", ...), names of well-known wildcard DNS services that
 *   answer with loopback ("lvh.me", "localtest.me"), and names that embed a non-public IPv4 address
 *   the way wildcard DNS services (nip.io, sslip.io) read it back ("127.0.0.1.nip.io",
 *   "10-0-0-1.sslip.io", "app-192.168.0.1.example.com").
 * - What is left is a public-looking name, which may still resolve to a private address (DNS
 *   rebinding, a client's own zone). Names are not resolved here: a Worker's outgoing fetch runs on
 *   Cloudflare's network, whose egress reaches only the public internet, so that last step relies on
 *   the platform, as documented in the README's security section.
 */

/** Suffixes (and whole names) that only resolve inside private networks, or are reserved for it. */
const INTERNAL_SUFFIXES = [
  "localhost",
  "localdomain",
  "local",
  "lan",
  "home",
  "home.arpa",
  "internal",
  "intranet",
  "private",
  "corp",
  "svc",
  "cluster.local",
  "test",
  "invalid",
  "example",
  "arpa",
  "onion",
];

/** Wildcard DNS domains that answer every name under them with a loopback address. */
const LOOPBACK_WILDCARD_DOMAINS = [
  "lvh.me",
  "localtest.me",
  "vcap.me",
  "localho.st",
  "fuf.me",
  "lacolhost.com",
];

function onSuffix(host: string, suffix: string): boolean {
  return host === suffix || host.endsWith(`.${suffix}`);
}

const GLOBAL_UNICAST = ipaddr.IPv6.parse("2000::");

/** True for an IPv4 or IPv6 address that is not plain public unicast. */
function isNonPublicAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === "ipv4") return address.range() !== "unicast";
  const v6 = address as ipaddr.IPv6;
  // Only 2000::/3 is global unicast; ipaddr.js's "unicast" is merely "no special range known".
  return v6.range() !== "unicast" || !v6.match(GLOBAL_UNICAST, 3);
}

/** IPv4 addresses that wildcard DNS services read out of a name: dotted across labels, or dashed (or dotted) inside one label. */
function embeddedIpv4(host: string): string[] {
  const found: string[] = [];
  const labels = host.split(".");
  for (let i = 0; i + 4 <= labels.length; i++) {
    const quad = labels.slice(i, i + 4);
    if (quad.every((l) => /^\d{1,3}$/.test(l))) found.push(quad.join("."));
  }
  // "10-0-0-1.sslip.io", "app-127-0-0-1.nip.io", "7f000001.nip.io" (hex form)
  for (const label of labels) {
    for (const m of label.matchAll(/(?:^|[^\d])(\d{1,3})-(\d{1,3})-(\d{1,3})-(\d{1,3})(?=$|[^\d])/g))
      found.push(`${m[1]}.${m[2]}.${m[3]}.${m[4]}`);
    for (const m of label.matchAll(/(?:^|-)([0-9a-f]{8})(?=$|-)/g)) {
      const n = Number.parseInt(m[1], 16);
      found.push([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join("."));
    }
  }
  return found;
}

export function isPrivateHost(hostname: string): boolean {
  // Bracketed IPv6 as URL.hostname gives it; a trailing dot names the same host.
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  if (!host) return true;
  if (ipaddr.isValid(host)) {
    // Only strict dotted-quad IPv4 here: other forms never reach us from a parsed URL, and a name
    // made of digits is not an address.
    if (host.includes(":") || ipaddr.IPv4.isValidFourPartDecimal(host))
      return isNonPublicAddress(ipaddr.parse(host));
  }
  if (host.includes(":")) return true; // not an address, not a name
  if (!host.includes(".")) return true; // single label: resolved by a local search domain or hosts file
  if (INTERNAL_SUFFIXES.some((suffix) => onSuffix(host, suffix))) return true;
  if (LOOPBACK_WILDCARD_DOMAINS.some((domain) => onSuffix(host, domain))) return true;
  return embeddedIpv4(host).some(
    (ip) => !ipaddr.IPv4.isValidFourPartDecimal(ip) || isNonPublicAddress(ipaddr.IPv4.parse(ip)),
  );
}

/** Ports a deployed service sends webhooks to: the usual web ports, so the delivery log is no port scanner. */
export const WEBHOOK_PORTS: ReadonlySet<string> = new Set(["80", "443", "8080", "8443"]);

/** The URL's effective port ("" means the scheme's default). */
export function webhookPortAllowed(url: URL): boolean {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return WEBHOOK_PORTS.has(port);
}
