// Outbound URL safety (SSRF guard) for webhooks, panel URLs, SFTP hosts and OAuth endpoints.
//
// Rule (docs/events.md "URL safety"): only http(s); a host that is, or resolves to, a loopback,
// private, shared (CGNAT), link-local, unspecified, multicast or reserved address is refused with
// 400 {error: "url not allowed"} unless LOADOUT_ALLOW_PRIVATE_URLS=true. IPv6 forms that embed an
// IPv4 address (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4
// 2002::/16) are judged by the embedded address. The check runs at creation and again right before
// every connection (`safeFetch`, `assertHostAllowed`), after DNS resolution, and redirects are
// never followed.
//
// Known limit: the name is resolved here and again by the HTTP client when it connects, so a
// hostile DNS server with a zero TTL could answer differently the second time (DNS rebinding).
// Pinning the connection to the checked address would break TLS name checks in fetch; the
// re-check at every delivery keeps that window small.
import { isIP } from "node:net";
import { lookup } from "node:dns/promises";
import { AppError } from "./errors";

export interface UrlSafetyOptions {
  /** LOADOUT_ALLOW_PRIVATE_URLS: skip the address checks (scheme rules still apply). */
  allowPrivate: boolean;
}

export const URL_NOT_ALLOWED = "url not allowed";

function refuse(): never {
  throw new AppError("request.url_not_allowed", URL_NOT_ALLOWED);
}

// ---------------------------------------------------------------------------------------------
// Address classification (pure)

function ipv4ToInt(ip: string): number | null {
  const parts = ip.split(".");
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const v = Number(p);
    if (v > 255) return null;
    n = n * 256 + v;
  }
  return n >>> 0;
}

function inV4(n: number, base: string, bits: number): boolean {
  const b = ipv4ToInt(base)!;
  if (bits === 0) return true;
  const mask = bits === 32 ? 0xffffffff : (~((1 << (32 - bits)) - 1)) >>> 0;
  return ((n & mask) >>> 0) === ((b & mask) >>> 0);
}

const FORBIDDEN_V4: Array<[string, number]> = [
  ["0.0.0.0", 8], // "this network", includes the unspecified 0.0.0.0
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (CGNAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata lives here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, includes 255.255.255.255
];

function isForbiddenV4(ip: string): boolean {
  const n = ipv4ToInt(ip);
  if (n === null) return true; // not a clean dotted quad: refuse rather than guess
  return FORBIDDEN_V4.some(([base, bits]) => inV4(n, base, bits));
}

/** Parses an IPv6 literal (no brackets, optional zone id) into eight 16-bit groups. */
export function parseIpv6(input: string): number[] | null {
  let ip = input;
  const zone = ip.indexOf("%");
  if (zone >= 0) ip = ip.slice(0, zone);
  // A trailing dotted quad (::ffff:1.2.3.4) becomes two hex groups.
  const lastColon = ip.lastIndexOf(":");
  if (lastColon < 0) return null;
  const last = ip.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = ipv4ToInt(last);
    if (v4 === null) return null;
    ip = `${ip.slice(0, lastColon + 1)}${((v4 >>> 16) & 0xffff).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const parseSide = (s: string): number[] | null => {
    if (s === "") return [];
    const out: number[] = [];
    for (const g of s.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const dbl = ip.indexOf("::");
  if (dbl >= 0) {
    if (ip.indexOf("::", dbl + 1) >= 0) return null;
    const left = parseSide(ip.slice(0, dbl));
    const right = parseSide(ip.slice(dbl + 2));
    if (!left || !right) return null;
    const fill = 8 - left.length - right.length;
    if (fill < 1) return null;
    return [...left, ...new Array<number>(fill).fill(0), ...right];
  }
  const all = parseSide(ip);
  return all && all.length === 8 ? all : null;
}

function v4FromGroups(hi: number, lo: number): string {
  return `${hi >>> 8}.${hi & 0xff}.${lo >>> 8}.${lo & 0xff}`;
}

function isForbiddenV6(ip: string): boolean {
  const g = parseIpv6(ip);
  if (!g) return true;
  const allZeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  // :: (unspecified) and ::1 (loopback)
  if (allZeroUpTo(7) && (g[7] === 0 || g[7] === 1)) return true;
  // IPv4-mapped ::ffff:a.b.c.d
  if (allZeroUpTo(5) && g[5] === 0xffff) return isForbiddenV4(v4FromGroups(g[6], g[7]));
  // IPv4-translated ::ffff:0:a.b.c.d (RFC 2765)
  if (allZeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return isForbiddenV4(v4FromGroups(g[6], g[7]));
  // IPv4-compatible ::a.b.c.d (deprecated)
  if (allZeroUpTo(6)) return isForbiddenV4(v4FromGroups(g[6], g[7]));
  // NAT64 64:ff9b::/96
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return isForbiddenV4(v4FromGroups(g[6], g[7]));
  }
  // 6to4 2002:aabb:ccdd::/48 embeds aa.bb.cc.dd
  if (g[0] === 0x2002) return isForbiddenV4(v4FromGroups(g[1], g[2]));
  if ((g[0] & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g[0] & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((g[0] & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  return false;
}

/** True when the literal IP address is one outbound requests must not reach. */
export function isForbiddenAddress(ip: string): boolean {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const family = isIP(bare.split("%")[0]);
  if (family === 4) return isForbiddenV4(bare);
  if (family === 6) return isForbiddenV6(bare);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Host and URL checks

export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => {
  const res = await lookup(host, { all: true, verbatim: true });
  return res.map((r) => r.address);
};

/**
 * Checks a bare host name or IP literal (SFTP hosts, URL hosts). Resolves names and refuses
 * when any resolved address is forbidden, or when the name does not resolve at all.
 * Returns the resolved addresses (empty when allowPrivate skipped the lookup).
 */
export async function assertHostAllowed(
  host: string,
  opts: UrlSafetyOptions,
  resolve: Resolver = systemResolver,
): Promise<string[]> {
  const h = host.trim().replace(/\.$/, "");
  if (!h) refuse();
  if (opts.allowPrivate) return [];
  const bare = h.startsWith("[") && h.endsWith("]") ? h.slice(1, -1) : h;
  if (isIP(bare.split("%")[0])) {
    if (isForbiddenAddress(bare)) refuse();
    return [bare];
  }
  let addresses: string[];
  try {
    addresses = await resolve(bare);
  } catch {
    refuse();
  }
  if (addresses.length === 0) refuse();
  if (addresses.some(isForbiddenAddress)) refuse();
  return addresses;
}

/** Parses and checks a URL; returns the parsed URL. Throws AppError(400, "url not allowed"). */
export async function checkUrl(
  url: string,
  opts: UrlSafetyOptions,
  resolve: Resolver = systemResolver,
): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    refuse();
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") refuse();
  // WHATWG parsing already normalises 0x7f.1, 2130706433, 127.1 ... to dotted quads.
  await assertHostAllowed(parsed.hostname, opts, resolve);
  return parsed;
}

export async function assertUrlAllowed(
  url: string,
  opts: UrlSafetyOptions,
  resolve: Resolver = systemResolver,
): Promise<void> {
  await checkUrl(url, opts, resolve);
}

export interface SafeFetchOptions extends UrlSafetyOptions {
  /** Abort after this many milliseconds (default 10 000). */
  timeoutMs?: number;
  resolve?: Resolver;
  /** The fetch to use (deps.fetch); defaults to the global one. */
  fetchImpl?: typeof fetch;
}

/**
 * fetch() with the URL rule applied right before connecting, redirects never followed
 * (a 3xx comes back as the response) and a timeout. Throws AppError(400) for a refused URL;
 * network errors and timeouts propagate as thrown errors (TimeoutError / TypeError).
 */
export async function safeFetch(
  url: string,
  init: RequestInit,
  opts: SafeFetchOptions,
): Promise<Response> {
  await checkUrl(url, opts, opts.resolve ?? systemResolver);
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? 10_000);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  return (opts.fetchImpl ?? fetch)(url, { ...init, redirect: "manual", signal });
}

// ---------------------------------------------------------------------------------------------
// Configured sources (BattleMetrics, the workshop, the panel, the chat platform's OAuth API):
// links and redirects are followed only on the origin the operator configured.

/** A paged link or a redirect that leads off the configured source's origin; never followed. */
export class OffOriginError extends Error {
  constructor(
    readonly target: string,
    readonly origin: string,
    what: string,
  ) {
    super(`${what} leads to ${target}, off the configured source ${origin}; not followed (only ${origin} is asked, and its credentials go nowhere else)`);
    this.name = "OffOriginError";
  }
}

/**
 * Resolves `link` against `from` and returns it when it is on `origin` (same scheme, host and
 * port), else throws OffOriginError. The configured source is the operator's choice (it may be a
 * local proxy or a test fake, so the private-address rule does not apply to it); what the source
 * sends back (a `links.next`, a `Location`) is not, so it may not lead anywhere else.
 */
export function sameOriginLink(link: string, from: string | URL, origin: string, what: string): string {
  let url: URL;
  try {
    url = new URL(link, from);
  } catch {
    throw new OffOriginError(link.slice(0, 200), origin, what);
  }
  if (url.origin !== origin) throw new OffOriginError(url.origin, origin, what);
  return url.href;
}

export interface SourceFetchOptions {
  /** The configured source's origin (`new URL(configured).origin`). */
  origin: string;
  fetchImpl?: typeof fetch;
  /** Redirects followed on the origin (GET and HEAD only) before giving up; default 5. */
  maxRedirects?: number;
}

/**
 * fetch() for a configured source: redirects are never left to fetch. A redirect on the
 * source's origin is followed for GET and HEAD (the same headers, credentials included, go
 * with it); one to any other origin throws OffOriginError before anything is sent there. Other
 * methods get the 3xx back as the response.
 */
export async function sourceFetch(url: string | URL, init: RequestInit, opts: SourceFetchOptions): Promise<Response> {
  const doFetch = opts.fetchImpl ?? fetch;
  let current = sameOriginLink(String(url), String(url), opts.origin, "the request");
  const method = (init.method ?? "GET").toUpperCase();
  for (let hop = 0; ; hop++) {
    const res = await doFetch(current, { ...init, redirect: "manual" });
    if (res.status < 300 || res.status >= 400 || res.status === 304) return res;
    const location = res.headers.get("location");
    if (!location) return res;
    await res.body?.cancel().catch(() => {});
    const next = sameOriginLink(location, current, opts.origin, `a redirect (HTTP ${res.status})`);
    if (method !== "GET" && method !== "HEAD") return new Response(null, { status: res.status, headers: res.headers });
    if (hop >= (opts.maxRedirects ?? 5)) throw new Error(`more than ${opts.maxRedirects ?? 5} redirects from ${opts.origin}`);
    current = next;
  }
}
