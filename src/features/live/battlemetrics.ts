// BattleMetrics client (docs/live.md "Source: BattleMetrics"): pages through every online Arma
// Reforger server by `links.next` (only on the configured source's origin: the token goes nowhere
// else, and neither does a redirect), spaces requests to stay under the rate limit, retries 429/5xx
// and network failures with exponential backoff (honouring Retry-After), validates (by hand where
// plainly valid, else with zod: readServer) and normalises each server into the shape the scan
// job stores.
import { z } from "zod";
import { parseRetryAfter, sleep } from "../../shared/retry";
import { OffOriginError, sameOriginLink, sourceFetch } from "../../shared/url-safety";
import { type ModSpan, PLACEHOLDER, scanPage } from "./page-reader";

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
  /** Read from a page's bytes (readPageBytes): Bun.hash of the list's bytes as the page sent them. */
  modsHash?: string;
  /**
   * Read from a page's bytes with the scan's stored hashes: the list's bytes hash as the list
   * stored for this address, so it was not parsed (`mods` is empty; the scan skips its diff).
   */
  modsSettled?: boolean;
}

const PLATFORM_TAGS: Record<string, string> = {
  PLATFORM_PC: "pc",
  PLATFORM_XBL: "xbox",
  PLATFORM_PSN: "playstation",
};

/**
 * What the scan already holds when it reads a page from its bytes: host address → the mods_hash
 * stored for that server's list. A list whose bytes hash to it is not parsed (`modsSettled`).
 */
export type StoredHashes = ReadonlyMap<string, string>;

/** Normalises one validated BattleMetrics server. Mods with an invalid id are dropped;
 * duplicates keep their first position. Tags are derived (see docs/live.md). `span`: its mod list
 * as the page's bytes hold it (page-reader.ts), read from there (see normalise). */
export function normaliseServer(s: BmServer, span?: ModSpan | null, stored?: StoredHashes): LiveServer {
  return normalise(s.id, s.attributes, span ?? null, stored);
}

/** The workshop id of one reported mod (BmMod) in its normal form; null when it has none. */
function modIdOf(item: unknown): string | null {
  let raw: string;
  if (typeof item === "string") raw = item;
  else if (item !== null && typeof item === "object") {
    const id = (item as Record<string, unknown>).modId;
    if (typeof id !== "string") return null;
    raw = id;
  } else return null;
  // An id already in its normal form, as BattleMetrics sends them, is taken as it is.
  if (WORKSHOP_ID.test(raw)) return raw;
  const id = raw.trim().toUpperCase();
  return WORKSHOP_ID.test(id) ? id : null;
}

/** The reported mods (BmMod[]) normalised: invalid ids dropped, duplicates keep their first place.
 * Each read in place: a scan sees ~200,000 (no object per mod but the result). */
function normaliseMods(items: readonly unknown[]): LiveMod[] {
  const mods: LiveMod[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const id = modIdOf(item);
    if (id === null || seen.has(id)) continue;
    seen.add(id);
    let name: string | null = null;
    let version: string | null = null;
    if (typeof item === "object") {
      const o = item as Record<string, unknown>;
      if (typeof o.name === "string") name = o.name;
      if (typeof o.version === "string") version = o.version;
    }
    mods.push({ workshop_id: id, name, version });
  }
  return mods;
}

/**
 * Normalises a server. With `span` (its list left in the page's bytes, page-reader.ts) the server
 * carries the hash of those bytes (`modsHash`), and when that is the hash `stored` holds for its
 * address the list is not parsed at all (`modsSettled`, `mods` empty: the scan skips its diff);
 * otherwise the list is parsed from its bytes now, so nothing keeps the page's bytes. Whether a
 * settled list has a valid mod (the "modded" tag) is known from its first entry alone when that
 * one is valid (it always is in what BattleMetrics sends).
 */
function normalise(sourceId: string, a: BmServer["attributes"], span: ModSpan | null = null, stored?: StoredHashes): LiveServer {
  const reforger = a.details?.reforger ?? null;
  const host = `${a.ip}:${a.port}`;
  const settled = span !== null && stored?.get(host) === span.hash;
  const mods = settled ? [] : normaliseMods(span ? span.entries() : (reforger?.mods ?? []));
  const modded = settled ? !span.empty && (modIdOf(span.firstEntry()) !== null || normaliseMods(span.entries()).length > 0) : mods.length > 0;
  const tags = new Set<string>();
  for (const t of reforger?.supportedGameClientTypes ?? []) {
    tags.add(PLATFORM_TAGS[t] ?? t.toLowerCase().replace(/^platform_/, ""));
  }
  if (reforger?.battlEye) tags.add("battleye");
  tags.add(modded ? "modded" : "vanilla");
  if ((reforger?.supportedGameClientTypes?.length ?? 0) > 1) tags.add("crossplay");
  const server: LiveServer = {
    source_id: sourceId,
    name: a.name,
    host_address: host,
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
    mods,
  };
  if (span) {
    server.modsHash = span.hash;
    if (settled) server.modsSettled = true;
  }
  return server;
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

/** One entry of a page's `data`, validated and normalised; null when zod must judge it. `spans`:
 * the page's mod lists when it was read from its bytes (scanPage; the entry's list is then a
 * placeholder), `stored` the hashes of the lists the scan holds (normalise). */
export function readServer(item: unknown, spans?: readonly ModSpan[] | null, stored?: StoredHashes): LiveServer | null {
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
  return normalise(String(id), a as BmServer["attributes"], spanOf(item, spans ?? null), stored);
}

/** The mod list span of a validated entry of a page read by scanPage: every array at
 * attributes.details.reforger.mods there is a placeholder, `[k,PLACEHOLDER]` (the list left in
 * the bytes) or `[k,PLACEHOLDER,list]` (the list parsed with the page, which the span adopts). */
function spanOf(item: unknown, spans: readonly ModSpan[] | null): ModSpan | null {
  if (!spans) return null;
  const mods = (item as BmServer).attributes.details?.reforger?.mods;
  if (!Array.isArray(mods)) return null;
  const span = (mods.length === 2 || mods.length === 3) && mods[1] === PLACEHOLDER ? spans[mods[0] as number] : undefined;
  if (!span || (mods.length === 3 && !Array.isArray(mods[2]))) throw new Error("page reader: a mod list at its path that is not a placeholder (page-reader.ts)");
  if (mods.length === 3) span.adopt(mods[2] as unknown[]);
  return span;
}

/** The stored hashes as a set (any server's), for scanPage's `known`: made once a scan. */
const hashSets = new WeakMap<StoredHashes, Set<string>>();
function knownHashes(stored: StoredHashes): (hash: string) => boolean {
  let set = hashSets.get(stored);
  if (!set) hashSets.set(stored, (set = new Set(stored.values())));
  return (hash) => set.has(hash);
}

/** A page's `data` and `links.next` when the page is plainly valid; null when zod must judge it. */
export function readPage(body: unknown): { data: unknown[]; next: string | null | undefined } | null {
  if (!isObj(body) || !Array.isArray(body.data)) return null;
  const links = body.links;
  if (nullish(links)) return { data: body.data, next: undefined };
  if (!isObj(links) || !optStr(links.next)) return null;
  return { data: body.data, next: links.next as string | null | undefined };
}

export interface ReadPage {
  servers: LiveServer[];
  skipped: number;
  next: string | null | undefined;
}

/**
 * One page's servers from its bytes, as `Response.json()` and the readers would give them: plainly
 * valid pages and servers read by hand (readPage, readServer), zod judging the rest; each server's
 * list hashed as its bytes, and parsed unless `stored` holds that hash for its address (normalise).
 * Throws InvalidJsonError for what JSON.parse refuses, a BattleMetricsError for a page of another
 * shape.
 */
export function readPageBytes(
  bytes: Uint8Array,
  stored?: StoredHashes,
  /** Which lists are left out of the page's parse (default: those whose hash some stored list has). */
  leaveOut: ((hash: string) => boolean) | undefined = stored ? knownHashes(stored) : undefined,
): ReadPage {
  let scanned: ReturnType<typeof scanPage>;
  try {
    scanned = scanPage(bytes, leaveOut);
  } catch (err) {
    throw new InvalidJsonError(err);
  }
  return serversOf(scanned.body, scanned.spans, stored);
}

/**
 * One page's servers from its bytes parsed whole, as `Response.json()` and the readers would give
 * them, every list parsed and none hashed (what a page of servers the scan does not hold is read
 * as: the tokenizer would only cost it). Throws as readPageBytes.
 */
export function readPageWhole(bytes: Uint8Array): ReadPage {
  let body: unknown;
  try {
    body = JSON.parse(pageDecoder.decode(bytes));
  } catch (err) {
    throw new InvalidJsonError(err);
  }
  return serversOf(body, null);
}
const pageDecoder = new TextDecoder();

/** A parsed page's servers: plainly valid pages and servers read by hand, zod judging the rest. */
function serversOf(body: unknown, spans: readonly ModSpan[] | null, stored?: StoredHashes): ReadPage {
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
    const mine = readServer(item, spans, stored);
    if (mine) {
      servers.push(mine);
      continue;
    }
    const parsed = bmServerSchema.safeParse(item);
    if (parsed.success) servers.push(normaliseServer(parsed.data, spanOf(item, spans), stored));
    else skipped++;
  }
  return { servers, skipped, next: page.next };
}

/** JSON.parse refused the page (its error the cause). */
export class InvalidJsonError extends Error {
  constructor(cause: unknown) {
    super("invalid JSON", { cause });
    this.name = "InvalidJsonError";
  }
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

  /**
   * Yields every page of online servers, following links.next until it is absent. With `stored`
   * (host address → the mods_hash the scan holds), a page is read from its bytes (readPageBytes):
   * every list hashed as its bytes, and one whose hash is its server's stored one comes without
   * its list (`modsSettled`); but once a page holds mostly servers `stored` does not know (a first
   * sight), the next is parsed whole (readPageWhole), as is every page without `stored`.
   */
  async *pages(signal?: AbortSignal, stored?: StoredHashes): AsyncGenerator<BmPage> {
    let url: string | null = firstPageUrl(this.opts.baseUrl, this.opts.pageSize);
    const visited = new Set<string>();
    let count = 0;
    let whole = !stored || stored.size === 0;
    while (url) {
      if (visited.has(url)) throw new BattleMetricsError(`paging loop at ${url}`);
      if (++count > this.opts.maxPages) throw new BattleMetricsError("too many pages");
      visited.add(url);
      const { bytes, status } = await this.getBytes(url, signal);
      let page: ReadPage;
      try {
        page = whole ? readPageWhole(bytes) : readPageBytes(bytes, stored);
      } catch (err) {
        if (err instanceof InvalidJsonError) throw new BattleMetricsError(`invalid JSON from ${url}`, status);
        throw err;
      }
      if (stored) {
        let known = 0;
        for (const s of page.servers) if (stored.has(s.host_address)) known++;
        whole = known * 2 < page.servers.length;
      }
      yield { servers: page.servers, skipped: page.skipped, url };
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

  private async getBytes(url: string, signal?: AbortSignal): Promise<{ bytes: Uint8Array; status: number }> {
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
        // The page as bytes: readPageBytes parses it, each server's mod list from its own bytes.
        try {
          return { bytes: new Uint8Array(await res.arrayBuffer()), status: res.status };
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
