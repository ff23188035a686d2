// Client for the workshop's Next.js data routes (docs/catalog.md "The workshop client").
//
// - buildId discovery from a page's __NEXT_DATA__; a 404 on a data route refreshes it once
//   (the site was redeployed) and retries; a 404 with an unchanged buildId is "not found".
// - A polite, shared request rate (default 2/s) applied to every request, retries included.
// - Retries with exponential backoff on 429, 5xx, timeouts and network errors; Retry-After
//   (seconds or HTTP date) is honoured.
// - Every payload is validated with zod; a mismatch is a WorkshopShapeError naming the path.
// - Redirects are followed only on the configured site's origin (LOADOUT_WORKSHOP_URL); one
//   elsewhere is a WorkshopRedirectError, not retried.
import { z } from "zod";
import { describeFetchFailure } from "../../shared/network-error";
import { parseRetryAfter, sleep } from "../../shared/retry";
import { OffOriginError, sourceFetch } from "../../shared/url-safety";
import {
  assetRowSchema,
  describeZodError,
  detailPageSchema,
  listingPageSchema,
  readDetailPage,
  scenariosPageSchema,
  type AssetRow,
  type AssetVersionDetail,
  type ListingPage,
  type SkippedRow,
  type WorkshopDetail,
} from "./workshop-schemas";

export type WorkshopSort = "newest" | "popularity" | "subscribers" | "version_size";

export interface WorkshopClientOptions {
  /** Site origin, e.g. https://reforger.armaplatform.com (no trailing slash needed). */
  baseUrl: string;
  /** Requests per second (all requests, retries included). Default 2. */
  rps?: number;
  userAgent?: string;
  /** Requests whose rate-limit slots fall in the same window of this many ms are released together at its end (never before their slot). Default 10; 0 sleeps to each slot. */
  coalesceMs?: number;
  /** Per-request timeout in ms. Default 20 s. */
  timeoutMs?: number;
  /** Retries after the first attempt on 429/5xx/timeouts/network errors. Default 5. */
  maxRetries?: number;
  /** First backoff step in ms (doubled per retry, with jitter). Default 1000. */
  backoffMs?: number;
  /** Upper bound for any single wait (backoff or Retry-After). Default 120 s. */
  maxWaitMs?: number;
  /** Injected for tests; defaults to global fetch / setTimeout / Date.now. */
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

export class WorkshopError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkshopError";
  }
}
/** The site's payload no longer matches what we parse. Not retryable. */
export class WorkshopShapeError extends WorkshopError {
  constructor(message: string) {
    super(message);
    this.name = "WorkshopShapeError";
  }
}
/** The site redirected off its configured origin (LOADOUT_WORKSHOP_URL): not followed. */
export class WorkshopRedirectError extends WorkshopError {
  constructor(message: string) {
    super(message);
    this.name = "WorkshopRedirectError";
  }
}
/** The asset does not exist (404 with a fresh buildId). */
export class WorkshopNotFoundError extends WorkshopError {
  constructor(message: string) {
    super(message);
    this.name = "WorkshopNotFoundError";
  }
}
/** An HTTP failure that survived every retry (or was not retryable). */
export class WorkshopHttpError extends WorkshopError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "WorkshopHttpError";
  }
}

const NEXT_DATA_RE = /<script[^>]*id="__NEXT_DATA__"[^>]*>([\s\S]*?)<\/script>/;
const nextDataSchema = z.object({ buildId: z.string().min(1) });

export function extractBuildId(html: string): string {
  const m = NEXT_DATA_RE.exec(html);
  if (!m) throw new WorkshopShapeError("workshop page has no __NEXT_DATA__ script (site changed shape)");
  let json: unknown;
  try {
    json = JSON.parse(m[1]!);
  } catch {
    throw new WorkshopShapeError("workshop __NEXT_DATA__ is not valid JSON (site changed shape)");
  }
  const parsed = nextDataSchema.safeParse(json);
  if (!parsed.success) throw new WorkshopShapeError(describeZodError("__NEXT_DATA__", parsed.error));
  return parsed.data.buildId;
}

export interface RequestStats {
  requests: number;
  retries: number;
  buildIdRefreshes: number;
  waitedMs: number;
}

export class WorkshopClient {
  readonly baseUrl: string;
  /** The configured site's scheme, host and port: redirects are followed only within it. */
  readonly origin: string;
  private readonly intervalMs: number;
  private readonly coalesceMs: number;
  private readonly userAgent: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly backoffMs: number;
  private readonly maxWaitMs: number;
  private readonly fetchFn: typeof fetch;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  private nextSlot = 0;
  private buildId: string | null = null;
  private buildIdPromise: Promise<string> | null = null;
  readonly stats: RequestStats = { requests: 0, retries: 0, buildIdRefreshes: 0, waitedMs: 0 };

  constructor(opts: WorkshopClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, "");
    this.origin = new URL(this.baseUrl).origin;
    const rps = opts.rps ?? 2;
    this.intervalMs = rps > 0 ? 1000 / rps : 0;
    this.coalesceMs = opts.coalesceMs ?? 10;
    this.userAgent = opts.userAgent ?? "Loadout/0.1 (self-hosted mod catalog; +https://github.com/loadout)";
    this.timeoutMs = opts.timeoutMs ?? 20_000;
    this.maxRetries = opts.maxRetries ?? 5;
    this.backoffMs = opts.backoffMs ?? 1000;
    this.maxWaitMs = opts.maxWaitMs ?? 120_000;
    this.fetchFn = opts.fetch ?? fetch;
    this.sleep = opts.sleep ?? sleep;
    this.now = opts.now ?? Date.now;
  }

  /** The current buildId (discovering it if needed). */
  async getBuildId(signal?: AbortSignal): Promise<string> {
    if (this.buildId) return this.buildId;
    return this.refreshBuildId(signal);
  }

  /** Fetches the workshop page and takes the buildId from __NEXT_DATA__ (deduplicated). */
  refreshBuildId(signal?: AbortSignal): Promise<string> {
    if (!this.buildIdPromise) {
      this.buildIdPromise = (async () => {
        try {
          const { res, deadline } = await this.request(`${this.baseUrl}/workshop`, signal);
          if (!res.ok) {
            deadline.end();
            throw new WorkshopHttpError(`workshop page answered HTTP ${res.status}`, res.status);
          }
          const id = extractBuildId(await read(res, deadline));
          this.buildId = id;
          this.stats.buildIdRefreshes++;
          return id;
        } finally {
          this.buildIdPromise = null;
        }
      })();
    }
    return this.buildIdPromise;
  }

  /**
   * One listing page (`page` starts at 1). The site serves 16 rows a page today, but nothing
   * here relies on a page size: a crawl ends on an empty page. A row that fails its schema is
   * skipped and reported in `skipped`; a page whose envelope fails is an error.
   */
  async listing(
    params: { page: number; sort?: WorkshopSort; search?: string; tags?: string[] },
    signal?: AbortSignal,
  ): Promise<ListingPage> {
    const q = new URLSearchParams();
    q.set("search", params.search ?? "");
    for (const t of params.tags ?? []) q.append("tags", t);
    q.set("sort", params.sort ?? "newest");
    q.set("page", String(params.page));
    const json = await this.getData("workshop.json", q, `listing page ${params.page}`, signal);
    const parsed = listingPageSchema.safeParse(json);
    if (!parsed.success) throw new WorkshopShapeError(describeZodError(`listing page ${params.page}`, parsed.error));
    const { count, rows: raw } = parsed.data.pageProps.assets;
    const rows: AssetRow[] = [];
    const skipped: SkippedRow[] = [];
    raw.forEach((r, i) => {
      const row = assetRowSchema.safeParse(r);
      if (row.success) return void rows.push(row.data);
      const id = r && typeof r === "object" && typeof (r as { id?: unknown }).id === "string" ? (r as { id: string }).id : null;
      const issue = row.error.issues[0]!;
      skipped.push({ id, error: `rows.${i}.${issue.path.join(".") || "(row)"}: ${issue.message}` });
    });
    return { count, rows, skipped };
  }

  /** One mod's detail page. Throws WorkshopNotFoundError when the mod does not exist. */
  async detail(workshopId: string, signal?: AbortSignal): Promise<WorkshopDetail> {
    const id = workshopId.toUpperCase();
    const q = new URLSearchParams({ id: `${id}-asset` });
    const json = await this.getData(`workshop/${id}-asset.json`, q, `detail ${id}`, signal);
    // A plainly valid page is read by hand (the same output, ~10× cheaper); anything else by zod,
    // which gives every refusal its message.
    let page = readDetailPage(json);
    if (!page) {
      const parsed = detailPageSchema.safeParse(json);
      if (!parsed.success) throw new WorkshopShapeError(describeZodError(`detail ${id}`, parsed.error));
      page = parsed.data;
    }
    const p = page.pageProps;
    if (p.asset.id.toUpperCase() !== id) {
      throw new WorkshopShapeError(`workshop detail ${id} payload changed shape: asset.id is ${p.asset.id}`);
    }
    return {
      asset: p.asset,
      versionDetail: p.assetVersionDetail ?? {},
      downloadTotal: p.getAssetDownloadTotal?.total ?? 0,
    };
  }

  /** The scenarios route: the current version's scenarios and dependencies. */
  async scenarios(workshopId: string, signal?: AbortSignal): Promise<AssetVersionDetail> {
    const id = workshopId.toUpperCase();
    const q = new URLSearchParams({ id });
    const json = await this.getData(`workshop/${id}/scenarios.json`, q, `scenarios ${id}`, signal);
    const parsed = scenariosPageSchema.safeParse(json);
    if (!parsed.success) throw new WorkshopShapeError(describeZodError(`scenarios ${id}`, parsed.error));
    return parsed.data.pageProps.assetVersionDetail;
  }

  /** GET /_next/data/{buildId}/{path}?{query}; refreshes the buildId once on 404. */
  private async getData(path: string, query: URLSearchParams, what: string, signal?: AbortSignal): Promise<unknown> {
    let buildId = await this.getBuildId(signal);
    for (let refreshed = false; ; refreshed = true) {
      const url = `${this.baseUrl}/_next/data/${encodeURIComponent(buildId)}/${path}?${query}`;
      const { res, deadline } = await this.request(url, signal);
      if (res.status === 404) {
        deadline.end();
        await res.body?.cancel().catch(() => {});
        if (refreshed) throw new WorkshopNotFoundError(`workshop ${what}: not found`);
        const fresh = await this.refreshBuildId(signal);
        if (fresh === buildId) throw new WorkshopNotFoundError(`workshop ${what}: not found`);
        buildId = fresh;
        continue;
      }
      if (!res.ok) {
        deadline.end();
        await res.body?.cancel().catch(() => {});
        throw new WorkshopHttpError(`workshop ${what}: HTTP ${res.status}`, res.status);
      }
      const text = await read(res, deadline);
      try {
        return JSON.parse(text);
      } catch {
        throw new WorkshopShapeError(`workshop ${what} payload changed shape: body is not JSON`);
      }
    }
  }

  /**
   * Waits for the next rate-limit slot (shared by all callers of this client). Slots are
   * 1/rps apart and a request never goes before its own; a request that has to wait sleeps to
   * the end of the `coalesceMs` window its slot falls in, so the callers whose slots share a
   * window wake together on one timer instead of one each (at the default 2/s a window holds one
   * slot and this is just the wait; at hundreds a second it saves a wake and a thread hop a request).
   */
  private async takeSlot(signal?: AbortSignal): Promise<void> {
    if (this.intervalMs <= 0) return;
    const now = this.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.intervalMs;
    if (slot > now) {
      const release = this.coalesceMs > 0 ? Math.ceil(slot / this.coalesceMs) * this.coalesceMs : slot;
      const wait = release - now;
      this.stats.waitedMs += wait;
      await this.sleep(wait, signal);
    }
  }

  /**
   * One GET with rate limiting, a timeout and retries on 429/5xx/network errors.
   * Returns the final response (any status that is not retried, or a 404) and its deadline,
   * which the caller ends once it has read the body (`read`).
   */
  private async request(url: string, signal?: AbortSignal): Promise<{ res: Response; deadline: Deadline }> {
    let lastError = "";
    for (let attempt = 0; attempt <= this.maxRetries; attempt++) {
      await this.takeSlot(signal);
      this.stats.requests++;
      // The request's own deadline (and the caller's signal) abort it; the deadline ends with the
      // body read (`read`). A timer cleared when done, not AbortSignal.timeout, whose timer stays
      // armed for the whole 20 s and then fires (with an abort event) for every request made.
      const deadline = new Deadline(this.timeoutMs, signal);
      let res: Response | null = null;
      try {
        res = await sourceFetch(
          url,
          { headers: { "User-Agent": this.userAgent, Accept: "application/json, text/html;q=0.9" }, signal: deadline.signal },
          { origin: this.origin, fetchImpl: this.fetchFn },
        );
      } catch (err) {
        deadline.end();
        if (signal?.aborted) throw signal.reason ?? err;
        if (err instanceof OffOriginError) {
          throw new WorkshopRedirectError(`workshop ${pathOf(url)}: ${err.message}; if the site has moved, set LOADOUT_WORKSHOP_URL to its new origin`);
        }
        lastError = deadline.timedOut ? `timed out after ${this.timeoutMs} ms` : describeFetchFailure(err, url);
      }
      if (res) {
        if (res.status !== 429 && res.status < 500) return { res, deadline };
        deadline.end();
        lastError = `HTTP ${res.status}`;
        const retryAfter = parseRetryAfter(res.headers.get("retry-after"), this.now());
        await res.body?.cancel().catch(() => {});
        if (attempt === this.maxRetries) {
          throw new WorkshopHttpError(`workshop request failed after ${attempt + 1} attempts: ${lastError} (${pathOf(url)})`, res.status);
        }
        this.stats.retries++;
        await this.waitBeforeRetry(attempt, retryAfter, signal);
        continue;
      }
      if (attempt === this.maxRetries) break;
      this.stats.retries++;
      await this.waitBeforeRetry(attempt, null, signal);
    }
    // No attempt got an HTTP answer: the site is out of reach (name lookup, refused, timed out).
    const tries = this.maxRetries + 1;
    throw new WorkshopHttpError(`cannot reach the workshop: ${lastError} (${tries} attempt${tries === 1 ? "" : "s"}, ${pathOf(url)})`, 0);
  }

  private async waitBeforeRetry(attempt: number, retryAfterMs: number | null, signal?: AbortSignal) {
    let wait: number;
    if (retryAfterMs !== null) {
      wait = retryAfterMs;
    } else {
      const exp = this.backoffMs * 2 ** attempt;
      wait = exp / 2 + Math.random() * (exp / 2); // "equal jitter"
    }
    wait = Math.min(Math.max(0, wait), this.maxWaitMs);
    // Nothing else should fire at the site while we are told to back off.
    this.nextSlot = Math.max(this.nextSlot, this.now() + wait);
    this.stats.waitedMs += wait;
    if (wait > 0) await this.sleep(wait, signal);
  }
}

/**
 * One request's deadline: its signal aborts when the timeout passes (a TimeoutError, as
 * AbortSignal.timeout gives) or when the caller's signal aborts; `end` clears the timer and
 * lets go of the caller's signal.
 */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onAbort: (() => void) | null = null;
  timedOut = false;

  constructor(
    ms: number,
    private readonly outer?: AbortSignal,
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new DOMException("The operation timed out.", "TimeoutError"));
    }, ms);
    if (outer) {
      if (outer.aborted) this.controller.abort(outer.reason);
      else {
        this.onAbort = () => this.controller.abort(outer.reason);
        outer.addEventListener("abort", this.onAbort, { once: true });
      }
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  end(): void {
    clearTimeout(this.timer);
    if (this.onAbort) this.outer!.removeEventListener("abort", this.onAbort);
  }
}

/** The body as text, within the request's deadline (which ends with it, however it ends). */
async function read(res: Response, deadline: Deadline): Promise<string> {
  try {
    return await res.text();
  } finally {
    deadline.end();
  }
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname;
  } catch {
    return url;
  }
}
