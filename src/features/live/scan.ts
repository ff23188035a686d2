// The scan job (docs/live.md "Scan"): reads every online server from BattleMetrics and asks the
// registered servers over A2S, then records the whole scan in one synchronous immediate
// transaction (network I/O before it, never inside): each page (scan-page.ts), then the closing
// step (scan-close.ts: mod lists, vanished servers, global and community points, the snapshot
// and its mod usage). Its writes run as a bulk write: the live feature's per-row generation
// triggers skip them and the counters move once after them (withBulkWrite in repository/state.ts).
import type { Deps } from "../../deps";
import { queueDetailScrape } from "../scraper";
import { BattleMetricsClient, BattleMetricsError, type LiveServer } from "./battlemetrics";
import { pollRegisteredServers } from "./a2s-source";
import { PermanentJobError } from "../../jobs/queue";
import { withPageCache } from "../../db/client";
import { recordSourceError, recordSourceOk } from "../../status/source-status";
import { publishLiveSnapshot, rebuildLiveSnapshot, type KnownLists, type LiveSnapshot } from "./snapshot";
import { liveRepo, withBulkWrite, type KnownNames } from "./repository";
import { processPage, ScanState } from "./scan-page";
import { closeScan, scanSnapshot, writeModRows, writtenLists, writtenListsNames } from "./scan-close";

export { processPage, ScanState } from "./scan-page";
export { closeScan, finishScan, scanSnapshot, writeModRows, writtenLists, writtenListsNames } from "./scan-close";

export interface ScanResult {
  /** Registered servers that answered A2S, and those that did not (marked offline). */
  a2s_answered: number;
  a2s_failed: number;
  pages: number;
  servers: number;
  new_servers: number;
  vanished: number;
  mod_changes: number;
  skipped: number;
  unknown_mods_queued: number;
  requests: number;
}

export function clientFromConfig(deps: Deps): BattleMetricsClient {
  return new BattleMetricsClient({
    baseUrl: deps.config.LOADOUT_BATTLEMETRICS_URL,
    token: deps.config.LOADOUT_BATTLEMETRICS_TOKEN ?? null,
    fetch: deps.fetch,
  });
}

/**
 * Queues a detail scrape of each mod the catalog does not know (after the scan committed), all in
 * one transaction: a first sight finds ~3,000 such mods, and a commit each cost ~0.2–0.8 s.
 */
export function queueScrapes(deps: Pick<Deps, "jobs" | "log" | "sqlite" | "db">, ids: string[]) {
  if (ids.length === 0) return;
  deps.sqlite
    .transaction(() => {
      for (const id of ids) {
        try {
          // `db`: inside this transaction (the worker is woken after it, not inside it).
          queueDetailScrape(deps, id, { db: deps.db });
        } catch (err) {
          deps.log.warn("live: could not queue a detail scrape", { workshop_id: id, error: (err as Error).message });
        }
      }
    })
    .immediate();
}

export interface RunScanOptions {
  client?: BattleMetricsClient;
  /** Per registered server (default 2 s). */
  a2sTimeoutMs?: number;
  signal?: AbortSignal;
  progress?: (p: Record<string, unknown>) => void;
}

/** The public API answers 403 to callers without a paid subscription (docs/live.md "The sources as they really are"). */
export const PUBLIC_BATTLEMETRICS_URL = "https://api.battlemetrics.com";

/**
 * Whether this scan asks BattleMetrics: with a token, or at another address (a proxy, a test
 * fake). The public API without a token is known to answer 403, so it is not asked every five
 * minutes; health says why.
 */
export function battleMetricsEnabled(deps: Pick<Deps, "config">): boolean {
  return !!deps.config.LOADOUT_BATTLEMETRICS_TOKEN || deps.config.LOADOUT_BATTLEMETRICS_URL !== PUBLIC_BATTLEMETRICS_URL;
}

export const NO_TOKEN_MESSAGE =
  "not asked: LOADOUT_BATTLEMETRICS_TOKEN is not set, and the BattleMetrics API answers 403 without a paid subscription; registered servers are still polled over A2S";

/** An operator-actionable line for a refused BattleMetrics request. */
export function battleMetricsRefusal(err: BattleMetricsError): string {
  const detail = err.detail ? ` (${err.detail})` : "";
  return `BattleMetrics answered HTTP ${err.status}${detail}: global server discovery needs LOADOUT_BATTLEMETRICS_TOKEN set to a token with a paid subscription; servers and history already stored are kept, registered servers are still polled over A2S`;
}

/**
 * One scan: every BattleMetrics page (when enabled) and an A2S query to each registered server,
 * then one transaction. When BattleMetrics fails, the A2S answers are still recorded, nothing
 * already stored is marked offline but the registered servers that did not answer, and the
 * job fails with the reason.
 */
/**
 * SQLite's page cache during a scan's writes, at least, MiB (withPageCache; the configured size
 * after). It was 64 while a first sight's per-mod index inserts (gone since) needed it; with a
 * first sight's writes now ~15 MB, the default 16 is cheaper (the 64 MiB grown and given back each
 * scan cost a first sight ~13,000 page faults and ~0.25 s: 2,237 → 1,950 ms median of 6
 * alternated runs). An operator's smaller LOADOUT_SQLITE_CACHE_MB still grows to this for the scan.
 */
export const SCAN_PAGE_CACHE_MB = 16;

export async function runScan(deps: Deps, opts: RunScanOptions = {}): Promise<ScanResult> {
  const client = opts.client ?? clientFromConfig(deps);
  const state = new ScanState(deps.clock.now());
  const bmEnabled = opts.client !== undefined || battleMetricsEnabled(deps);
  // All network I/O first; then the whole scan is one transaction, so a scan that fails half
  // way records nothing, and every B-tree page is written to the WAL once per scan rather than
  // once per page (a quarter less CPU than a transaction per page at 5,000 servers).
  const pages: LiveServer[][] = [];
  let bmError: unknown = null;
  const a2s = pollRegisteredServers(deps, { signal: opts.signal, timeoutMs: opts.a2sTimeoutMs });
  if (bmEnabled) {
    try {
      for await (const page of client.pages(opts.signal)) {
        pages.push(page.servers);
        state.pages++;
        state.skipped += page.skipped;
        opts.progress?.({ pages: state.pages, fetched: pages.reduce((n, p) => n + p.length, 0) });
      }
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      bmError = err;
    }
  }
  const poll = await a2s;
  const complete = bmEnabled && bmError === null;
  const unknown: string[] = [];
  let vanished = 0;
  let snapshot: LiveSnapshot | null = null;
  // The page cache grows for the scan's writes and shrinks back after (withPageCache).
  withPageCache(deps.sqlite, SCAN_PAGE_CACHE_MB, () =>
    deps.sqlite
      .transaction(() => {
        let known: KnownLists | null = null;
        let names: KnownNames | null = null;
        // Every write as a bulk write: the per-row generation triggers skip, servers_gen and
        // series_gen move once after them (withBulkWrite), before the snapshot reads them.
        vanished = withBulkWrite(deps.sqlite, "scan", () => {
          if (complete) for (const servers of pages) unknown.push(...processPage(deps, servers, state));
          if (poll.answered.length) processPage(deps, poll.answered.map((a) => a.server), state);
          if (complete) {
            known = writtenLists(state);
            names = writtenListsNames(state);
            return closeScan(deps, state);
          }
          writeModRows(deps, state);
          const offline = liveRepo.markRegisteredOffline(deps.sqlite, poll.failed.map((f) => f.target.server_id));
          liveRepo.setState(deps.sqlite, "last_partial_scan_at", state.time);
          return offline;
        });
        if (known && names) snapshot = scanSnapshot(deps, state, known, names);
      })
      .immediate(),
  );
  // The scan is committed: swap in the snapshot of it (GET /game-servers answers from memory).
  if (snapshot) publishLiveSnapshot(deps.sqlite, snapshot);
  else rebuildLiveSnapshot(deps.sqlite, deps.clock.now());
  // The catalog rows it read are kept for the next scan (while the catalog stays as it was).
  state.catalog?.adopt();
  queueScrapes(deps, unknown);
  for (const f of poll.failed) deps.log.warn("live: registered server did not answer A2S", { server_id: f.target.server_id, error: f.error });
  if (poll.answered.length || poll.failed.length) {
    if (poll.answered.length) recordSourceOk(deps.sqlite, "a2s", state.time);
    if (poll.failed.length)
      recordSourceError(deps.sqlite, "a2s", state.time, poll.failed.map((f) => `${f.target.name}: ${f.error}`).join("; "));
  }
  const result: ScanResult = {
    pages: state.pages,
    servers: state.servers,
    new_servers: state.newServers,
    vanished,
    mod_changes: state.modChanges,
    skipped: state.skipped,
    unknown_mods_queued: state.unknownQueued.size,
    requests: client.requestCount,
    a2s_answered: poll.answered.length,
    a2s_failed: poll.failed.length,
  };
  if (!bmEnabled) {
    recordSourceError(deps.sqlite, "live", state.time, NO_TOKEN_MESSAGE);
  } else if (bmError) {
    const refused = bmError instanceof BattleMetricsError && (bmError.status === 401 || bmError.status === 403);
    const message = refused ? battleMetricsRefusal(bmError as BattleMetricsError) : `BattleMetrics scan failed: ${(bmError as Error).message}`;
    recordSourceError(deps.sqlite, "live", state.time, message);
    deps.log.error("live: scan failed", { error: message, a2s_answered: poll.answered.length });
    // A refusal will not mend by retrying in a minute: fail the job now, the next scheduled scan asks again.
    throw refused ? new PermanentJobError(message) : new Error(message);
  } else {
    recordSourceOk(deps.sqlite, "live", state.time);
  }
  deps.log.info("live: scan finished", { ...result });
  return result;
}


