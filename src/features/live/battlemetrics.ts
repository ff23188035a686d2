// BattleMetrics client (docs/live.md "Source: BattleMetrics"): pages through every online Arma
// Reforger server by `links.next` (only on the configured source's origin: the token goes nowhere
// else, and neither does a redirect), spaces requests to stay under the rate limit, retries 429/5xx
// and network failures with exponential backoff (honouring Retry-After), validates (by hand where
// plainly valid, else with zod: readServer) and normalises each server into the shape the scan
// job stores.
import { z } from "zod";
import { parseRetryAfter, sleep } from "../../shared/retry";
import { OffOriginError, sameOriginLink, sourceFetch } from "../../shared/url-safety";

const WORKSHOP_ID = /^[0-9A-F]{16}$/;

/** One reported mod: a bare id string or `{modId, name, version}`. Checked by hand in
 * normaliseServer (not by zod) because a scan sees ~200,000 of them. */
export type BmMod = string | { modId: string; name?: string | null; version?: string | null };


export const bmServerSchema = z.looseObject({
  type: z.literal("server"),
  id: z.union([z.string(), z.number()]).transform(String),
  attributes: z.looseObject({
    id: z.union([z.string(), z.number()]).nullish(),
    name: z.string(),
    address: z.string().nullish(),
    ip: z.string().min(1),
    port: z.number().int().min(0).max(65535),
    portQuery: z.number().int().nullish(),
    players: z.number().int().min(0),
    maxPlayers: z.number().int().min(0),
    rank: z.number().nullish(),
    location: z.array(z.number()).nullish(),
    country: z.string().nullish(),
    status: z.string(),
    private: z.boolean().nullish(),
    createdAt: z.string().nullish(),
    updatedAt: z.string().nullish(),
    queryStatus: z.string().nullish(),
    details: z
      .looseObject({
        version: z.string().nullish(),
        password: z.boolean().nullish(),
        official: z.boolean().nullish(),
        reforger: z
          .looseObject({
            scenarioName: z.string().nullish(),
            supportedGameClientTypes: z.array(z.string()).nullish(),
            battlEye: z.boolean().nullish(),
            mods: z.array(z.unknown()).nullish(),
          })
          .nullish(),
      })
      .nullish(),
  }),
});
export type BmServer = z.infer<typeof bmServerSchema>;

export const bmPageSchema = z.looseObject({
  data: z.array(z.unknown()),
  links: z.looseObject({ next: z.string().nullish() }).nullish(),
});

/** One mod as a server reports it; `name`/`version` are null when the source gave a bare id. */
export interface LiveMod {
  workshop_id: string;
  name: string | null;
  version: string | null;
}

/** A server normalised from the source; the scan job's input. */
export interface LiveServer {
  source_id: string;
  name: string;
  host_address: string;
  ip: string;
  port: number;
  player_count: number;
  player_count_limit: number;
  queue_players_count: number;
  wait_time_estimation: number;
  scenario_name: string;
  game_version: string;
  password_protected: boolean;
  official: boolean;
  country: string | null;
  tags: string[];
  mods: LiveMod[];
  /** A source that reports no mod list (A2S): the scan keeps the mods, tags and country it knew. */
  modsUnknown?: boolean;
  /** The registered server (servers.id) this answer came from (A2S). */
  registeredServerId?: string;
}

const PLATFORM_TAGS: Record<string, string> = {
  PLATFORM_PC: "pc",
  PLATFORM_XBL: "xbox",
  PLATFORM_PSN: "playstation",
};

/** Normalises one validated BattleMetrics server. Mods with an invalid id are dropped;
 * duplicates keep their first position. Tags are derived (see docs/live.md). */
export function normaliseServer(s: BmServer): LiveServer {
  return normalise(s.id, s.attributes);
}

function normalise(sourceId: string, a: BmServer["attributes"]): LiveServer {
  const reforger = a.details?.reforger ?? null;
  const raw: readonly unknown[] = reforger?.mods ?? [];
  // The mods are normalised when first read (a scan reads them only for a list whose reported
  // hash is not the stored one: reportedModsOf, mods-hash.ts), once.
  let mods: LiveMod[] | null = null;
  const tags = new Set<string>();
  for (const t of reforger?.supportedGameClientTypes ?? []) {
    tags.add(PLATFORM_TAGS[t] ?? t.toLowerCase().replace(/^platform_/, ""));
  }
  if (reforger?.battlEye) tags.add("battleye");
  tags.add(hasMod(raw) ? "modded" : "vanilla");
  if ((reforger?.supportedGameClientTypes?.length ?? 0) > 1) tags.add("crossplay");
  const server: LiveServer = {
    source_id: sourceId,
    name: a.name,
    host_address: `${a.ip}:${a.port}`,
    ip: a.ip,
    port: a.port,
    player_count: a.players,
    player_count_limit: a.maxPlayers,
    // BattleMetrics carries no join queue.
    queue_players_count: 0,
    wait_time_estimation: 0,
    scenario_name: reforger?.scenarioName ?? "",
    game_version: a.details?.version ?? "",
    password_protected: a.details?.password ?? false,
    official: a.details?.official ?? false,
    country: a.country ?? null,
    tags: [...tags].sort(),
    get mods() {
      return (mods ??= normaliseMods(raw));
    },
  };
  // Its mods as reported, held by the server object itself (not enumerable: an answer compares as before).
  Object.defineProperty(server, REPORTED, { value: raw });
  return server;
}

/** Where a server read from a page holds its mods as reported (normalise), for reportedModsOf. */
const REPORTED: unique symbol = Symbol("reported mods");

/**
 * A server's mods as BattleMetrics reported them (`details.reforger.mods` as JSON.parse gave
 * them), for a server normalised from a page; undefined for any other (an A2S answer, a test's).
 * The scan hashes them in place (reportedModsHash) before it reads `mods`.
 */
export const reportedModsOf = (s: LiveServer): readonly unknown[] | undefined => (s as LiveServer & { [REPORTED]?: readonly unknown[] })[REPORTED];

/** Each reported mod read in place; one with an invalid id dropped, a repeated id kept at its first position. */
function normaliseMods(raw: readonly unknown[]): LiveMod[] {
  const mods: LiveMod[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    const id = modIdOf(item);
    if (id === null || seen.has(id)) continue;
    seen.add(id);
    // A bare id reports neither (modIdOf: an item with an id is a string or an object).
    const o = typeof item === "string" ? null : (item as Record<string, unknown>);
    mods.push({ workshop_id: id, name: typeof o?.name === "string" ? o.name : null, version: typeof o?.version === "string" ? o.version : null });
  }
  return mods;
}

/** A reported mod's workshop id in its normal form (a bare id or an object's `modId`), or null when it has none. */
function modIdOf(item: unknown): string | null {
  let raw: unknown;
  if (typeof item === "string") raw = item;
  else if (item !== null && typeof item === "object") raw = (item as Record<string, unknown>).modId;
  if (typeof raw !== "string") return null;
  if (WORKSHOP_ID.test(raw)) return raw;
  const id = raw.trim().toUpperCase();
  return WORKSHOP_ID.test(id) ? id : null;
}

/** Whether normalising keeps any of the reported mods (the `modded` tag), without normalising them. */
function hasMod(raw: readonly unknown[]): boolean {
  for (let i = 0; i < raw.length; i++) if (modIdOf(raw[i]) !== null) return true;
  return false;
}

// ---------- the hand reader of plainly valid pages ----------
// A scan reads 50 pages of 100 servers; zod's safeParse of each server (and its copy of every
// object) was ~0.15-0.2 s of a scan's CPU. readServer checks what bmServerSchema checks, by hand,
// for the values JSON.parse can give, and normalises a server only when every field is plainly
// valid; anything else answers null and goes through zod, which keeps every refusal as it was
// (battlemetrics-reader.test.ts compares both on every generated server and on each field
// removed, nulled or given another type). The same pattern as readDetailPage for the workshop.

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const nullish = (v: unknown) => v === undefined || v === null;
const optStr = (v: unknown) => v === undefined || v === null || typeof v === "string";
const optBool = (v: unknown) => v === undefined || v === null || typeof v === "boolean";
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
function allOf(v: unknown[], ok: (x: unknown) => boolean) {
  for (let i = 0; i < v.length; i++) if (!ok(v[i])) return false;
  return true;
}

/** One entry of a page's `data`, validated and normalised; null when zod must judge it. */
export function readServer(item: unknown): LiveServer | null {
  if (!isObj(item) || item.type !== "server") return null;
  const id = item.id;
  if (typeof id !== "string" && !isNum(id)) return null;
  const a = item.attributes;
  if (!isObj(a)) return null;
  if (!(nullish(a.id) || typeof a.id === "string" || isNum(a.id))) return null;
  if (typeof a.name !== "string" || !optStr(a.address) || typeof a.ip !== "string" || a.ip.length === 0) return null;
  if (!Number.isSafeInteger(a.port) || (a.port as number) < 0 || (a.port as number) > 65535) return null;
  if (!(nullish(a.portQuery) || Number.isSafeInteger(a.portQuery))) return null;
  if (!isCount(a.players) || !isCount(a.maxPlayers)) return null;
  if (!(nullish(a.rank) || isNum(a.rank))) return null;
  if (!(nullish(a.location) || (Array.isArray(a.location) && allOf(a.location, isNum)))) return null;
  if (!optStr(a.country) || typeof a.status !== "string" || !optBool(a.private)) return null;
  if (!optStr(a.createdAt) || !optStr(a.updatedAt) || !optStr(a.queryStatus)) return null;
  const d = a.details;
  if (!nullish(d)) {
    if (!isObj(d) || !optStr(d.version) || !optBool(d.password) || !optBool(d.official)) return null;
    const r = d.reforger;
    if (!nullish(r)) {
      if (!isObj(r) || !optStr(r.scenarioName) || !optBool(r.battlEye)) return null;
      const types = r.supportedGameClientTypes;
      if (!(nullish(types) || (Array.isArray(types) && allOf(types, (t) => typeof t === "string")))) return null;
      if (!(nullish(r.mods) || Array.isArray(r.mods))) return null;
    }
  }
  return normalise(String(id), a as BmServer["attributes"]);
}

/** A page's `data` and `links.next` when the page is plainly valid; null when zod must judge it. */
export function readPage(body: unknown): { data: unknown[]; next: string | null | undefined } | null {
  if (!isObj(body) || !Array.isArray(body.data)) return null;
  const links = body.links;
  if (nullish(links)) return { data: body.data, next: undefined };
  if (!isObj(links) || !optStr(links.next)) return null;
  return { data: body.data, next: links.next as string | null | undefined };
}

export class BattleMetricsError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** The API's `errors[0].detail` of a refused request. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = "BattleMetricsError";
  }
}

export interface BattleMetricsOptions {
  baseUrl: string;
  token?: string | null;
  /** Minimum spacing between request starts. Default: 1000 ms anonymous (60/min), 250 ms with a token. */
  minIntervalMs?: number;
  /** Attempts per request (first try included). Default 6. */
  maxAttempts?: number;
  /** First backoff delay; doubles per attempt, capped at maxBackoffMs. Default 1000. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** Longest Retry-After we are willing to wait. Default 120 s. */
  maxRetryAfterMs?: number;
  /** Per-request timeout. Default 30 s. */
  timeoutMs?: number;
  pageSize?: number;
  /** Safety stop against a source that pages forever. Default 1000 pages. */
  maxPages?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  userAgent?: string;
}

export interface BmPage {
  servers: LiveServer[];
  /** Entries that failed validation and were skipped. */
  skipped: number;
  url: string;
}

export function firstPageUrl(baseUrl: string, pageSize = 100): string {
  const base = baseUrl.replace(/\/+$/, "");
  return (
    `${base}/servers?filter[game]=reforger&filter[status]=online&sort=-players` +
    `&page[size]=${pageSize}`
  );
}

export class BattleMetricsClient {
  private readonly opts: Required<
    Omit<BattleMetricsOptions, "token" | "fetch" | "sleep" | "now">
  > & { token: string | null };
  private readonly fetchFn: typeof fetch;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  private lastRequestAt = Number.NEGATIVE_INFINITY;
  /** The configured source's scheme, host and port: the only place pages are read from. */
  readonly origin: string;
  /** Requests sent (including retries); for job progress and tests. */
  requestCount = 0;

  constructor(options: BattleMetricsOptions) {
    const token = options.token ? options.token : null;
    this.opts = {
      baseUrl: options.baseUrl,
      token,
      minIntervalMs: options.minIntervalMs ?? (token ? 250 : 1000),
      maxAttempts: options.maxAttempts ?? 6,
      baseBackoffMs: options.baseBackoffMs ?? 1000,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 120_000,
      timeoutMs: options.timeoutMs ?? 30_000,
      pageSize: options.pageSize ?? 100,
      maxPages: options.maxPages ?? 1000,
      userAgent: options.userAgent ?? "Loadout (self-hosted Arma Reforger community service)",
    };
    this.origin = new URL(options.baseUrl).origin;
    this.fetchFn = options.fetch ?? fetch;
    this.sleep = options.sleep ?? sleep;
    this.now = options.now ?? Date.now;
  }

  /** Yields every page of online servers, following links.next until it is absent. */
  async *pages(signal?: AbortSignal): AsyncGenerator<BmPage> {
    let url: string | null = firstPageUrl(this.opts.baseUrl, this.opts.pageSize);
    const visited = new Set<string>();
    let count = 0;
    while (url) {
      if (visited.has(url)) throw new BattleMetricsError(`paging loop at ${url}`);
      if (++count > this.opts.maxPages) throw new BattleMetricsError("too many pages");
      visited.add(url);
      const body = await this.getJson(url, signal);
      // Plainly valid pages and servers are read by hand (readPage, readServer); zod judges the rest.
      let page = readPage(body);
      if (!page) {
        const parsed = bmPageSchema.safeParse(body);
        if (!parsed.success) {
          throw new BattleMetricsError(`invalid page: ${parsed.error.issues[0]?.message ?? "?"}`);
        }
        page = { data: parsed.data.data, next: parsed.data.links?.next };
      }
      const servers: LiveServer[] = [];
      let skipped = 0;
      for (const item of page.data) {
        const mine = readServer(item);
        if (mine) {
          servers.push(mine);
          continue;
        }
        const parsed = bmServerSchema.safeParse(item);
        if (parsed.success) servers.push(normaliseServer(parsed.data));
        else skipped++;
      }
      yield { servers, skipped, url };
      const next = page.next;
      url = next ? this.onSource(() => sameOriginLink(next, url!, this.origin, "links.next")) : null;
    }
  }

  /** Fetches every page into one array. */
  async fetchAll(signal?: AbortSignal): Promise<{ servers: LiveServer[]; skipped: number; pages: number }> {
    const servers: LiveServer[] = [];
    let skipped = 0;
    let pages = 0;
    for await (const p of this.pages(signal)) {
      servers.push(...p.servers);
      skipped += p.skipped;
      pages++;
    }
    return { servers, skipped, pages };
  }

  private async throttle(signal?: AbortSignal) {
    const wait = this.lastRequestAt + this.opts.minIntervalMs - this.now();
    if (wait > 0) await this.sleep(wait, signal);
    this.lastRequestAt = this.now();
  }

  private backoff(attempt: number): number {
    const exp = Math.min(this.opts.maxBackoffMs, this.opts.baseBackoffMs * 2 ** (attempt - 1));
    // Up to 20 % jitter so that many clients do not retry in lockstep.
    return Math.round(exp * (0.8 + Math.random() * 0.2));
  }

  /** A link or redirect off the source ends the scan with that reason (retrying will not mend it). */
  private onSource<T>(f: () => T): T {
    try {
      return f();
    } catch (err) {
      if (err instanceof OffOriginError) throw new BattleMetricsError(err.message);
      throw err;
    }
  }

  private async getJson(url: string, signal?: AbortSignal): Promise<unknown> {
    const headers: Record<string, string> = {
      Accept: "application/json",
      "User-Agent": this.opts.userAgent,
    };
    if (this.opts.token) headers.Authorization = `Bearer ${this.opts.token}`;
    let lastError = "";
    for (let attempt = 1; attempt <= this.opts.maxAttempts; attempt++) {
      signal?.throwIfAborted();
      await this.throttle(signal);
      this.requestCount++;
      let res: Response;
      const timeout = AbortSignal.timeout(this.opts.timeoutMs);
      try {
        res = await sourceFetch(url, { headers, signal: signal ? AbortSignal.any([signal, timeout]) : timeout }, { origin: this.origin, fetchImpl: this.fetchFn });
      } catch (err) {
        if (signal?.aborted) throw err;
        if (err instanceof OffOriginError) throw new BattleMetricsError(err.message);
        lastError = `network error: ${(err as Error).message}`;
        if (attempt < this.opts.maxAttempts) await this.sleep(this.backoff(attempt), signal);
        continue;
      }
      if (res.ok) {
        try {
          return await res.json();
        } catch {
          throw new BattleMetricsError(`invalid JSON from ${url}`, res.status);
        }
      }
      if (res.status === 401 || res.status === 403) {
        // Refused, not failing: no retry. Keep the API's own words ("Access denied. A
        // subscription is required to use the API.") for the operator.
        const body = (await res.json().catch(() => null)) as { errors?: { detail?: unknown; title?: unknown }[] } | null;
        const e = body?.errors?.[0];
        const detail = typeof e?.detail === "string" ? e.detail : typeof e?.title === "string" ? e.title : undefined;
        throw new BattleMetricsError(`HTTP ${res.status} from ${url}${detail ? `: ${detail}` : ""}`, res.status, detail);
      }
      // Drain the body so the connection can be reused.
      await res.arrayBuffer().catch(() => undefined);
      if (res.status === 429 || res.status >= 500) {
        lastError = `HTTP ${res.status}`;
        if (attempt >= this.opts.maxAttempts) break;
        const retryAfter = parseRetryAfter(res.headers.get("retry-after"), this.now());
        const delay =
          retryAfter != null ? Math.min(retryAfter, this.opts.maxRetryAfterMs) : this.backoff(attempt);
        await this.sleep(delay, signal);
        continue;
      }
      throw new BattleMetricsError(`HTTP ${res.status} from ${url}`, res.status);
    }
    throw new BattleMetricsError(
      `giving up after ${this.opts.maxAttempts} attempts: ${lastError}`,
      Number(lastError.replace(/\D/g, "")) || undefined,
    );
  }
}
