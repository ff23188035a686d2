// CI smoke test of the benchmark harness (bench/, docs/performance.md "Reproduce"): a tiny seed and
// a very short bench run must work end to end and write a result file with the expected keys. No
// timing assertions: the numbers live in bench/results and docs/performance.md, never in tests.
import { test, expect } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seed } from "../bench/seed";
import { runBench } from "../bench/run";

test(
  "seed:bench --scale small and bench run end to end and write a result file",
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "loadout-bench-smoke-"));
    try {
      const dbPath = join(dir, "small.db");
      const meta = await seed("small", dbPath);
      expect(meta.counts.mods).toBeGreaterThan(0);
      expect(meta.ids.list1000).toBeTruthy();
      expect(meta.ids.server_busy).toBeTruthy();
      expect(existsSync(`${dbPath}.meta.json`)).toBe(true);

      const out = join(dir, "result.json");
      await runBench({
        scale: "small",
        db: dbPath,
        duration: 1,
        amount: 40,
        connections: [1, 4],
        out,
        docs: false,
        binaryOut: join(dir, "loadout"),
        quiet: true,
      });
      const res = JSON.parse(readFileSync(out, "utf8"));
      for (const k of ["date", "scale", "method", "machine", "database", "cold_start_ms", "cold_start_median_ms", "rss", "endpoints"]) {
        expect(res).toHaveProperty(k);
      }
      expect(res.endpoints.length).toBeGreaterThan(20);
      for (const e of res.endpoints) {
        for (const k of ["name", "area", "path", "available", "service", "baseline", "ratio_rps"]) expect(e).toHaveProperty(k);
        if (e.available) {
          expect(e.service).toHaveLength(2);
          for (const k of ["rps", "p50", "p99", "non2xx", "errors"]) expect(e.service[0]).toHaveProperty(k);
        }
      }
      // The varied rows (a new query every request) answer, the same as the baseline.
      const varied = res.endpoints.filter((e: any) => e.name.startsWith("varied:"));
      expect(varied.map((e: any) => [e.name, e.available, e.same_body])).toEqual(varied.map((e: any) => [e.name, true, true]));
      expect(varied.length).toBe(12);
      // The import body pins only versions the catalog has (imports refuse others with 400).
      const imp = res.endpoints.find((e: any) => e.name === "import-preview 1,000");
      expect([imp.available, imp.note]).toEqual([true, undefined]);
      expect(res.in_memory.live_snapshot_servers).toBeGreaterThan(0);
      expect(res.in_memory.catalog_orders_mods).toBeGreaterThan(0);
      expect(res.in_memory.catalog_search_terms).toBeGreaterThan(0);
      // The mixed-writes row: every write a 2xx change, the health checks timed meanwhile.
      expect(res.writes.map((w: any) => [w.name, w.clients, w.note])).toEqual([["mixed writes", 20, undefined]]);
      for (const side of [res.writes[0].service, res.writes[0].baseline]) {
        for (const k of ["rps", "p50", "p99", "max", "non2xx", "errors", "health"]) expect(side).toHaveProperty(k);
        expect([side.non2xx, side.errors, side.samples]).toEqual([0, 0, []]);
        expect(side.requests).toBeGreaterThanOrEqual(40);
        expect(side.health.probes).toBeGreaterThan(0);
        expect(side.health.failed).toBe(0);
      }
      // The features this harness measures are merged: most endpoints must answer.
      expect(res.endpoints.filter((e: any) => e.available).length).toBeGreaterThan(20);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  150_000, // seed, build and two services; the mixed-writes row adds ~2 s, and the shared machine is often loaded
);
