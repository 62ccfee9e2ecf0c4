/**
 * Hosts a deployed service must never call on a client's behalf (SSRF): loopback, private,
 * link-local, carrier-grade NAT, unspecified and cloud metadata addresses, and `localhost`.
 * Names are judged as written; the platform's egress does not reach private networks either.
 */
const BLOCKED_NAMES = [/^localhost$/, /\.localhost$/, /^metadata\.google\.internal$/, /^metadata$/, /\.internal$/, /\.local$/];

function ipv4Blocked(host: string): boolean | null {
  const m = host.match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (!m) return null;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && Number(m[3]) === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

function ipv6Blocked(host: string): boolean | null {
  if (!host.startsWith("[") && !host.includes(":")) return null;
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "::" || h === "::1") return true;
  const mapped = h.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped) return ipv4Blocked(mapped[1]) ?? true;
  if (h.startsWith("::ffff:")) return true;
  return /^f[cd]/.test(h) || /^fe[89ab]/.test(h) || h.startsWith("ff");
}

export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (BLOCKED_NAMES.some((re) => re.test(host))) return true;
  return ipv4Blocked(host) ?? ipv6Blocked(host) ?? false;
}
