// The compiled service's memory over its first seconds, idle (no load but one health request): its
// RSS (anonymous / file-backed) every second for `--seconds N` after /health answers, on a temp copy
// of bench/data/full.db whose online servers are seen now, then the detail caches' gauges
// (loadout_live_detail_*). What bench/run.ts reports as "idle after start" is the first sample
// (300 ms); the detail warmer (src/features/live/detail.ts) fills its caches in the first idle seconds.
//
//   bun bench/idle-rss.ts --bin <path of a compiled binary> [--seconds 20]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { spawn } from "bun";
import { liveCopy } from "./live-copy";
import { argOf } from "./args";

const bin = argOf("bin", "dist/loadout");
const seconds = Number(argOf("seconds", "20"));
const { dir, done } = liveCopy("full", "");
const port = 20000 + Math.floor(Math.random() * 20000);
const p = spawn([bin], {
  env: { ...(process.env as Record<string, string>), LOADOUT_DATA_DIR: dir, LOADOUT_PORT: String(port), LOADOUT_HOST: "127.0.0.1", LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "error", LOADOUT_JWT_SECRET: "bench-jwt-secret-bench-jwt-secret-0123456789" },
  stdout: "ignore",
  stderr: "inherit",
});
const kb = (f: string) => Number(new RegExp(`${f}:\\s+(\\d+)`).exec(readFileSync(`/proc/${p.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const line = () => `RSS ${kb("VmRSS").toFixed(0)} MiB (anonymous ${kb("RssAnon").toFixed(0)}, file ${kb("RssFile").toFixed(0)})`;
try {
  const t0 = performance.now();
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (performance.now() - t0 > 30_000) throw new Error("no health");
    await Bun.sleep(50);
  }
  await Bun.sleep(300);
  console.log(`0.3 s: ${line()}`);
  for (let s = 1; s <= seconds; s++) {
    await Bun.sleep(1_000);
    if (s % 2 === 0 || s === 1) console.log(`${s} s: ${line()}`);
  }
  const m = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text());
  console.log(m.split("\n").filter((l) => /^loadout_live_detail|^loadout_cache|^process_resident/.test(l)).join("\n"));
} finally {
  p.kill();
  await p.exited;
  done();
  void join;
}
