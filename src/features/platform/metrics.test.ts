import { describe, expect, test } from "bun:test";
import { createTestApp } from "../../../test/helpers";
import { testConfig } from "../../config";
import { promtoolAccepts, promtoolCheck } from "../../../test/peers/promtool";

describe("/metrics", () => {
  test("process metrics in text format 0.0.4 that promtool accepts without any lint", async () => {
    const t = await createTestApp();
    try {
      // The same catalog page twice (a miss, then a hit), a search (builds the search index) and the
      // live list (builds the snapshot).
      for (const path of ["/api/v1/mods?sort=name_asc", "/api/v1/mods?sort=name_asc", "/api/v1/mods?search=rhs", "/api/v1/game-servers"]) {
        expect((await t.app.handle(new Request("http://localhost" + path))).status).toBe(200);
      }
      const res = await t.app.handle(new Request("http://localhost/metrics"));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      const body = await res.text();
      expect(body).toContain("# TYPE loadout_process_cpu_user_seconds_total counter");
      expect(body).toMatch(/^loadout_jobs\{status="queued"\} \d+$/m);
      expect(body).not.toContain("nodejs_active_handles_total");
      expect(body).not.toContain("heap_space_size");
      expect(body.endsWith("\n")).toBe(true);
      expect(body).toContain("# TYPE loadout_catalog_cache_lookups_total counter");
      expect(body).toMatch(/^loadout_catalog_cache_lookups_total\{cache="list",result="hit"\} 1$/m);
      expect(body).toMatch(/^loadout_catalog_cache_lookups_total\{cache="list",result="miss"\} 2$/m); // the page and the search
      expect(body).toMatch(/^loadout_live_snapshot_servers 0$/m);
      expect(body).toMatch(/^loadout_live_snapshot_bytes \d+$/m);
      expect(body).toMatch(/^loadout_live_snapshot_build_seconds [\d.e-]+$/m);
      expect(body).toMatch(/^loadout_live_detail_cache_servers 0$/m);
      expect(body).toMatch(/^loadout_live_detail_cache_bytes 0$/m);
      expect(body).toMatch(/^loadout_live_detail_catalog_mods 0$/m);
      expect(body).toMatch(/^loadout_live_detail_catalog_bytes 0$/m);
      expect(body).toMatch(/^loadout_live_detail_parts 0$/m);
      expect(body).toMatch(/^loadout_live_detail_lists 0$/m);
      expect(body).toMatch(/^loadout_live_detail_lists_bytes 0$/m);
      expect(body).toMatch(/^loadout_catalog_orders_mods 0$/m);
      expect(body).toMatch(/^loadout_catalog_search_terms 0$/m);
      expect(body).toMatch(/^loadout_catalog_search_build_seconds [\d.e-]+$/m);
      // The answer caches' sum (the list page above is not one of them; the process's other test
      // apps may hold some) and their shared budget, the test config's default.
      expect(body).toMatch(/^loadout_answer_cache_bytes \d+$/m);
      expect(body).toMatch(new RegExp(`^loadout_answer_cache_budget_bytes ${testConfig().LOADOUT_CACHE_MB * 2 ** 20}$`, "m"));
      expect(body).toMatch(/^loadout_answer_cache_evictions_total \d+$/m);
      const r = await promtoolCheck(body);
      expect(r.problems).toEqual([]);
      expect(r.exitCode).toBe(0);
      expect(promtoolAccepts(r)).toBe(true);
    } finally {
      await t.close();
    }
  });
});
