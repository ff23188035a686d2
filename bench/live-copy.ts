// A copy of a seeded bench database whose online servers are seen now (as bench/run.ts shifts
// them), for the in-process loops (bench/fixed-cost.ts). With `keep` (its
// --dir) the copy is made there once and kept, shifted again since its last shift on each run (a
// profile then shows only the requests); without it a temp copy is made, removed by `done`.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Database } from "bun:sqlite";
import type { SeedMeta } from "./seed";
import { listQuery, type ListQuery } from "../src/features/live/model";

export function liveCopy(scale: string, keep: string): { dir: string; meta: SeedMeta; done: () => void } {
  const src = join(resolve(import.meta.dir, ".."), `bench/data/${scale}.db`);
  const meta = JSON.parse(readFileSync(`${src}.meta.json`, "utf8")) as SeedMeta;
  const dir = keep || mkdtempSync(join(tmpdir(), "loadout-live-"));
  if (!keep || !existsSync(join(dir, "loadout.db"))) copyFileSync(src, join(dir, "loadout.db"));
  const db = new Database(join(dir, "loadout.db"));
  const mark = join(dir, "shifted-to");
  const from = existsSync(mark) ? Number(readFileSync(mark, "utf8")) : meta.now;
  const to = Date.now();
  if (to > from) db.query("UPDATE game_servers SET last_seen_at = last_seen_at + ? WHERE online = 1").run(to - from);
  writeFileSync(mark, String(to));
  db.close();
  return { dir, meta, done: () => keep || rmSync(dir, { recursive: true, force: true }) };
}

/** A GET /game-servers path of the varied rows parsed as the route's query schema reads it (Elysia splits on commas). */
export function parseListPath(path: string): ListQuery {
  const u = new URL("http://x" + path);
  const o: Record<string, unknown> = {};
  for (const [k, v] of u.searchParams) o[k] = v.includes(",") && k !== "search" ? v.split(",") : v;
  return listQuery.parse(o);
}

/** This process's CPU time so far, µs. */
export function cpuMicros(): number {
  const c = process.cpuUsage();
  return c.user + c.system;
}
