import { Elysia } from "elysia";
import { z } from "zod";
import { Registry, collectDefaultMetrics, Counter, Gauge } from "prom-client";
import type { Deps } from "../../deps";
import { METRICS_CONTENT_TYPE } from "../../shared/http";
import { VERSION } from "../../version";
import { sourceStatuses } from "../../status/source-status";
import { answerBudget } from "../../shared/bytes-lru";
import { readModelsOf, type ReadModels } from "../../db/connection";
// Features' public faces only (their index.ts), never their insides.
import { answerCacheCounts, answerStoreCounts, peekCatalogOrders, peekDepGraph, peekSearchIndex } from "../catalog";
import { liveDetailCacheStats, liveSearchIndexBytes, peekLiveSnapshot, seriesCacheStats } from "../live";
import { crawlProgress } from "../scraper";
import { rconPlayerCounts } from "../servers";
import { workerProcessStats, type WorkerProcessStats } from "../../jobs/worker-process";
import { healthProbe, jobCountsByStatus } from "./repository";

const sourceStatusSchema = z.object({
  last_ok_at: z.string().nullable(),
  last_error: z.string().nullable(),
  last_error_at: z.string().nullable(),
});
const workshopStatusSchema = sourceStatusSchema.extend({
  crawl: z
    .object({
      mode: z.enum(["full", "incremental"]),
      status: z.enum(["queued", "running"]),
      pages_done: z.number().int().nullable(),
      pages_total: z.number().int().nullable().describe("about how many listing pages there are, from the first page's count"),
      started_at: z.string().nullable(),
    })
    .nullable()
    .describe("the workshop discovery queued or under way (null when none is)"),
});

/** prom-client registry with process metrics, minus the three gauges promtool rejects. */
export function createProcessRegistry(deps: Deps): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "loadout_" });
  // promtool rejects the three *_total gauges; the V8 heap-space gauges are costly to collect
  // under Bun (JavaScriptCore has no V8 heap spaces; the figures are emulated and read oddly;
  // docs/performance.md, finding 2).
  for (const name of [
    "nodejs_active_handles_total",
    "nodejs_active_requests_total",
    "nodejs_active_resources_total",
    "nodejs_heap_space_size_total_bytes",
    "nodejs_heap_space_size_used_bytes",
    "nodejs_heap_space_size_available_bytes",
  ]) {
    registry.removeSingleMetric(name);
    registry.removeSingleMetric("loadout_" + name);
  }
  new Gauge({
    name: "loadout_jobs",
    help: "Jobs in the job table by status",
    labelNames: ["status"],
    registers: [registry],
    collect() {
      this.reset();
      const rows = jobCountsByStatus(deps.sqlite);
      for (const s of ["queued", "running", "succeeded", "failed", "cancelled"]) {
        this.set({ status: s }, rows.find((r) => r.status === s)?.n ?? 0);
      }
    },
  });
  // The in-memory answers (docs/catalog.md "Speed at scale", docs/live.md "The live list from
  // memory"): how often the catalog's answer caches answer, and what the live snapshot and the
  // catalog orders hold and cost to build.
  new Counter({
    name: "loadout_catalog_cache_lookups_total",
    help: "Lookups in the catalog's answer caches (list pages, totals, ranked search matches, autocomplete; per-mod answers) by result",
    labelNames: ["cache", "result"],
    registers: [registry],
    collect() {
      this.reset();
      for (const c of [...answerCacheCounts(deps.sqlite), ...answerStoreCounts(deps.sqlite)]) {
        this.inc({ cache: c.cache, result: "hit" }, c.hits);
        this.inc({ cache: c.cache, result: "miss" }, c.misses);
      }
    },
  });
  new Gauge({
    name: "loadout_catalog_answers_bytes",
    help: "Bytes of per-mod answers (detail, deps, dependency counts, growth) held in memory for the current catalog generation",
    labelNames: ["cache"],
    registers: [registry],
    collect() {
      this.reset();
      for (const c of answerStoreCounts(deps.sqlite)) this.set({ cache: c.cache }, c.bytes);
    },
  });
  // Every answer cache together (src/shared/bytes-lru.ts): one budget, LOADOUT_CACHE_MB.
  new Gauge({
    name: "loadout_answer_cache_bytes",
    help: "Bytes held by all in-memory answer caches together (catalog per-mod answers, server details, stat series, live list pages and search rows)",
    registers: [registry],
    collect() {
      this.set(answerBudget.used);
    },
  });
  new Gauge({
    name: "loadout_answer_cache_budget_bytes",
    help: "The answer caches' shared budget in bytes (LOADOUT_CACHE_MB): past it the least recently used answer of any cache is dropped",
    registers: [registry],
    collect() {
      this.set(answerBudget.max);
    },
  });
  new Counter({
    name: "loadout_answer_cache_evictions_total",
    help: "Answers dropped from memory because all answer caches together passed their shared budget",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(answerBudget.evictions);
    },
  });
  // Every read model of the database (src/db/connection.ts; docs/architecture.md "Derived reads"):
  // what it holds and the bound it is held to.
  const readModelGauge = (name: string, help: string, read: (m: ReturnType<ReadModels["sizes"]>[number]) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ["model"],
      registers: [registry],
      collect() {
        this.reset();
        for (const m of readModelsOf(deps.sqlite).sizes()) {
          const v = read(m);
          if (v !== null) this.set({ model: m.name }, v);
        }
      },
    });
  readModelGauge("loadout_read_model_bytes", "Estimated bytes each read model derived from the database holds", (m) => m.bytes);
  readModelGauge("loadout_read_model_entries", "Entries each read model holds (answers, servers, terms, edges: its own unit)", (m) => m.entries);
  readModelGauge("loadout_read_model_bound_bytes", "The byte bound of each read model bounded in bytes (a cache's cap; a structure's budget)", (m) => ("bytes" in m.bound ? m.bound.bytes : null));
  readModelGauge("loadout_read_model_bound_entries", "The entry bound of each read model bounded by count", (m) => ("entries" in m.bound ? m.bound.entries : null));
  const snapshotGauge = (name: string, help: string, read: () => number | undefined) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read() ?? 0);
      },
    });
  snapshotGauge("loadout_live_snapshot_servers", "Online servers in the in-memory live snapshot", () => peekLiveSnapshot(deps.sqlite)?.rows.length);
  snapshotGauge("loadout_live_snapshot_bytes", "Estimated bytes held by the live snapshot", () => peekLiveSnapshot(deps.sqlite)?.bytes);
  const details = () => liveDetailCacheStats(deps.sqlite, peekLiveSnapshot(deps.sqlite));
  snapshotGauge("loadout_live_detail_cache_servers", "Server details kept (UTF-8 JSON) for the current live snapshot", () => details().servers);
  snapshotGauge("loadout_live_detail_cache_bytes", "Bytes of server details kept for the current live snapshot", () => details().bytes);
  snapshotGauge("loadout_live_detail_catalog_mods", "Mods kept from the catalog for server details, with their items serialised (this catalog generation)", () => details().mods);
  snapshotGauge("loadout_live_detail_catalog_bytes", "Bytes of the mods kept from the catalog for server details, their items' JSON included", () => details().modBytes);
  snapshotGauge("loadout_live_detail_parts", "Variants (mod, reported name, version) whose parts are ready for server details (this catalog generation)", () => details().parts);
  snapshotGauge("loadout_live_detail_lists", "Online servers' mod lists kept for server details (per mod-list version)", () => details().lists);
  snapshotGauge("loadout_live_detail_lists_bytes", "Bytes of the mod lists kept for server details, with the table of the (mod, reported name, version) they number", () => details().listBytes);
  snapshotGauge("loadout_live_search_index_bytes", "Bytes of the live snapshot's search indexes, candidate rows kept and encoded entries (built on first use)", () => {
    const s = peekLiveSnapshot(deps.sqlite);
    return s ? liveSearchIndexBytes(s) : undefined;
  });
  snapshotGauge("loadout_live_series_cache_answers", "Stat series answers kept in memory (server, global and community player history)", () => seriesCacheStats(deps.sqlite).answers);
  snapshotGauge("loadout_live_series_cache_bytes", "Bytes of stat series answers kept in memory (their JSON)", () => seriesCacheStats(deps.sqlite).bytes);
  snapshotGauge("loadout_live_snapshot_build_seconds", "Time the last live snapshot took to build", () => {
    const s = peekLiveSnapshot(deps.sqlite);
    return s ? s.buildMs / 1000 : undefined;
  });
  snapshotGauge("loadout_catalog_orders_mods", "Catalog entries in the in-memory sort orders", () => peekCatalogOrders(deps.sqlite)?.count);
  snapshotGauge("loadout_catalog_orders_build_seconds", "Time the last build of the catalog's sort orders took", () => {
    const o = peekCatalogOrders(deps.sqlite);
    return o ? o.buildMs / 1000 : undefined;
  });
  snapshotGauge("loadout_catalog_search_terms", "Distinct terms in the in-memory catalog search index", () => peekSearchIndex(deps.sqlite)?.terms.length);
  snapshotGauge("loadout_catalog_search_bytes", "Estimated bytes held by the in-memory catalog search index", () => peekSearchIndex(deps.sqlite)?.bytes);
  snapshotGauge("loadout_catalog_search_build_seconds", "Time the last build of the catalog search index took", () => {
    const ix = peekSearchIndex(deps.sqlite);
    return ix ? ix.buildMs / 1000 : undefined;
  });
  snapshotGauge("loadout_catalog_graph_edges", "Dependency edges in the in-memory catalog dependency graph", () => peekDepGraph(deps.sqlite)?.edges);
  snapshotGauge("loadout_catalog_graph_bytes", "Estimated bytes held by the in-memory catalog dependency graph", () => peekDepGraph(deps.sqlite)?.bytes);
  snapshotGauge("loadout_catalog_graph_build_seconds", "Time the last build of the catalog dependency graph took", () => {
    const g = peekDepGraph(deps.sqlite);
    return g ? g.buildMs / 1000 : undefined;
  });
  // The crawl's worker processes (src/jobs/worker-process.ts): their CPU and memory are not in
  // this process's own figures above, so what the kernel reported at each one's exit is here.
  const workers = (each: (w: WorkerProcessStats) => void) => {
    for (const w of workerProcessStats(deps.jobs)) each(w);
  };
  const workerMetric = (kind: "gauge" | "counter", name: string, help: string, read: (w: WorkerProcessStats) => number | null) =>
    new (kind === "gauge" ? Gauge : Counter)({
      name,
      help,
      labelNames: ["worker"],
      registers: [registry],
      collect(this: Gauge | Counter) {
        this.reset();
        workers((w) => {
          const v = read(w);
          if (v === null) return;
          if (this instanceof Gauge) this.set({ worker: w.name }, v);
          else this.inc({ worker: w.name }, v);
        });
      },
    });
  workerMetric("gauge", "loadout_worker_process_running", "Whether a worker process (the crawl's) runs now", (w) => (w.running ? 1 : 0));
  workerMetric("counter", "loadout_worker_process_starts_total", "Worker processes started (the crawl runs in one when its jobs are due)", (w) => w.started);
  new Counter({
    name: "loadout_worker_process_exits_total",
    help: "Worker processes that exited, by outcome: idle (their jobs done), stopped (the service stopping), crashed (anything else; their jobs queued again)",
    labelNames: ["worker", "outcome"],
    registers: [registry],
    collect() {
      this.reset();
      workers((w) => {
        for (const [outcome, n] of Object.entries(w.exits)) this.inc({ worker: w.name, outcome }, n);
      });
    },
  });
  workerMetric("counter", "loadout_worker_process_cpu_seconds_total", "CPU seconds (user + system) of the worker processes that exited", (w) => w.cpuSeconds);
  workerMetric("gauge", "loadout_worker_process_last_max_rss_bytes", "Peak resident memory of the last worker process that exited", (w) => w.lastMaxRssBytes);
  workerMetric("gauge", "loadout_worker_process_last_start_cpu_seconds", "CPU seconds the last worker process spent starting (to its first claim)", (w) => w.lastStartCpuSeconds);
  workerMetric("counter", "loadout_worker_process_requeued_jobs_total", "Jobs queued again because the worker process running them died", (w) => w.recoveredJobs);
  // Own servers with RCON (docs/rcon.md "Who is on"): the last roster's count, only while it is
  // fresh (read within two polls), so a server whose RCON is down drops out instead of holding
  // its last figure.
  new Gauge({
    name: "loadout_server_players",
    help: "Players on an own server with RCON, from its last roster read within two polls",
    labelNames: ["server_id", "server"],
    registers: [registry],
    collect() {
      this.reset();
      for (const s of rconPlayerCounts(deps)) this.set({ server_id: s.server_id, server: s.name }, s.players);
    },
  });
  new Gauge({
    name: "loadout_build_info",
    help: "Build information",
    labelNames: ["version"],
    registers: [registry],
    collect() {
      this.set({ version: VERSION }, 1);
    },
  });
  return registry;
}


/** Scrapes within this window get the same body (scrapers poll every 15 s or more). */
const METRICS_CACHE_MS = 1000;

export const platformRoutes = (deps: Deps) => {
  const registry = createProcessRegistry(deps);
  let cached: { at: number; body: string } | null = null;
  const probe = healthProbe(deps.sqlite);
  return new Elysia({ tags: ["platform"] })
    .get(
      "/api/v1/health",
      ({ set }) => {
        let db: "ok" | "error" = "ok";
        try {
          probe();
        } catch {
          db = "error";
          set.status = 503;
        }
        let sources: (ReturnType<typeof sourceStatuses> & { workshop: { crawl: ReturnType<typeof crawlProgress> } }) | undefined;
        try {
          if (db === "ok") {
            const s = sourceStatuses(deps.sqlite);
            sources = { ...s, workshop: { ...s.workshop, crawl: crawlProgress(deps) } };
          }
        } catch {}
        return { status: db === "ok" ? ("ok" as const) : ("error" as const), version: VERSION, db, ...(sources ? { sources } : {}) };
      },
      {
        response: {
          200: z.object({
            status: z.enum(["ok", "error"]),
            version: z.string(),
            db: z.enum(["ok", "error"]),
            sources: z
              .object({ workshop: workshopStatusSchema, live: sourceStatusSchema, a2s: sourceStatusSchema })
              .optional()
              .describe(
                "Last outcome of each outside source: the workshop crawl, live (BattleMetrics global discovery; needs LOADOUT_BATTLEMETRICS_TOKEN with a paid subscription) and A2S polling of registered servers",
              ),
          }),
        },
        detail: { summary: "Health check (no authentication), with the last outcome of each outside source" },
      },
    )
    .get(
      "/metrics",
      async () => {
        const now = performance.now();
        if (!cached || now - cached.at > METRICS_CACHE_MS) cached = { at: now, body: await registry.metrics() };
        return new Response(cached.body, { headers: { "content-type": METRICS_CONTENT_TYPE } });
      },
      { detail: { summary: "Process and runtime metrics (Prometheus text format 0.0.4)" } },
    );
};
