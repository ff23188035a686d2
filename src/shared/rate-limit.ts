// In-process fixed-window rate limiter: the service is one process, so memory is the right
// store. Used by the global limit (per IP / per credential), the login limit and per-route
// limits such as the scrape-detail endpoint (10 an hour per IP).
import { tooManyRequests } from "./errors";

export interface RateLimitResult {
  allowed: boolean;
  remaining: number;
  /** Seconds until the window resets. */
  retryAfter: number;
}

export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
    /**
     * Most keys kept at once. Keys come from client addresses, which a proxy that passes a
     * spoofed X-Forwarded-For lets anyone invent; past the bound the oldest windows are dropped
     * (Map keeps insertion order), so memory stays bounded at the price of forgetting them.
     */
    private readonly maxKeys = 100_000,
  ) {}

  /** Counts one hit for `key`. */
  hit(key: string): RateLimitResult {
    return this.take(key, 1);
  }

  /**
   * Counts one hit for `key` as `hit` does, answering 0 when it is allowed and otherwise the
   * seconds until the window resets (`hit(key).retryAfter`), without a result object: the global
   * limit asks once a request.
   */
  over(key: string): number {
    const t = this.now();
    const w = this.windowOf(key, t, true);
    if (w.count + 1 > this.limit) return this.secondsLeft(w, t);
    w.count++;
    return 0;
  }

  /** Looks without counting. */
  peek(key: string): RateLimitResult {
    return this.take(key, 0);
  }

  private take(key: string, n: number): RateLimitResult {
    const t = this.now();
    const w = this.windowOf(key, t, n > 0);
    const retryAfter = this.secondsLeft(w, t);
    if (w.count + n > this.limit) return { allowed: false, remaining: 0, retryAfter };
    w.count += n;
    return { allowed: true, remaining: this.limit - w.count, retryAfter };
  }

  /** The key's window at `t`: a new one once the last has passed, stored only when `keep`. */
  private windowOf(key: string, t: number, keep: boolean): { start: number; count: number } {
    this.sweep(t);
    let w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      w = { start: t, count: 0 };
      if (keep) {
        this.windows.delete(key); // re-insert at the end: insertion order is age order
        this.windows.set(key, w);
        if (this.windows.size > this.maxKeys) this.evictOldest();
      }
    }
    return w;
  }

  /** Seconds until the window resets (at least 1). */
  private secondsLeft(w: { start: number }, t: number): number {
    return Math.max(1, Math.ceil((w.start + this.windowMs - t) / 1000));
  }

  /** Hits and throws 429 (with Retry-After) when over the limit. */
  consume(key: string, message = "too many requests"): void {
    const r = this.hit(key);
    if (!r.allowed) throw tooManyRequests(r.retryAfter, message);
  }

  reset(key?: string) {
    if (key === undefined) this.windows.clear();
    else this.windows.delete(key);
  }

  private evictOldest() {
    const drop = this.windows.size - this.maxKeys + Math.ceil(this.maxKeys / 10);
    let i = 0;
    for (const k of this.windows.keys()) {
      if (i++ >= drop) break;
      this.windows.delete(k);
    }
  }

  /** Keys currently tracked (tests, metrics). */
  get size(): number {
    return this.windows.size;
  }

  private sweep(t: number) {
    if (t - this.lastSweep < this.windowMs) return;
    this.lastSweep = t;
    for (const [k, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(k);
  }
}

/**
 * Paths exempt from the global limit (unread-count and the metrics paths; docs/operations.md
 * "Security and limits").
 * Features may add patterns here at module load.
 */
export const rateLimitExemptions: RegExp[] = [
  /^\/api\/v1\/notifications\/unread-count$/,
  /^\/metrics$/,
  /^\/mod\/[^/]+\/metrics$/,
  /^\/servers\/[^/]+\/metrics$/,
  /^\/community\/[^/]+\/metrics$/,
  /^\/api\/v1\/health$/,
  /^\/assets\//, // the web app's hashed files: one page load is several of them
];

/**
 * The exemptions as one regular expression (seven tests a request were ~0.2 µs), made again
 * whenever the list changes length; a pattern with flags keeps the test one by one.
 */
let exemptAll: { n: number; re: RegExp | null } = { n: -1, re: null };
export const isRateLimitExempt = (path: string) => {
  if (exemptAll.n !== rateLimitExemptions.length) {
    const plain = rateLimitExemptions.every((r) => r.flags === "");
    exemptAll = { n: rateLimitExemptions.length, re: plain ? new RegExp(rateLimitExemptions.map((r) => `(?:${r.source})`).join("|") || "(?!)") : null };
  }
  return exemptAll.re ? exemptAll.re.test(path) : rateLimitExemptions.some((r) => r.test(path));
};

/**
 * Paths of the web app's pages: everything but the API, the API docs and /metrics. The web
 * feature answers them with index.html (src/features/web/routes.ts uses this same rule), and a
 * refusal there is a page, not JSON.
 */
export const isPagePath = (path: string) => !/^\/(api|swagger|metrics)(\/|$)/.test(path);

/**
 * A page load (GET or HEAD of a page path, /assets/ included) is not an API call: the answer is
 * bytes kept in memory, cached by the browser, and one visit is several of them. Behind a proxy
 * that is not trusted every visitor shares one address, and counting page loads broke the site
 * for everyone on a busy evening, so they are never counted.
 */
export const isPageLoad = (method: string, path: string) => (method === "GET" || method === "HEAD") && isPagePath(path);

/** Where a refusal is a small HTML page (a person in a browser) rather than `{error}`. */
export const refusesWithPage = (path: string) => isPagePath(path) || path === "/swagger" || path === "/swagger/";
