// Service CPU per request of the stat series rows through the real server (compiled binary,
// wrk at 32 clients, sockets included): the process's CPU time over the requests it answered,
// which a busy shared machine changes far less than req/s or p99 (issue 29, round 2).
//   bun bench/series-cpu.ts --bin <binary> --dir <dir holding loadout.db, a copy of full.db> [--seconds 5] [--only REGEX]
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { spawn } from "bun";
import { driveWrk } from "./wrk";
import { variedEndpoints, vocabulary } from "./run";
import { mulberry32 } from "../test/fixtures/prng";
import type { SeedMeta } from "./seed";
import { argOf } from "./args";

const bin = resolve(argOf("bin", "dist/loadout"));
const dir = resolve(argOf("dir", ""));
const seconds = Number(argOf("seconds", "5"));
const only = new RegExp(argOf("only", "."));
const meta = JSON.parse(readFileSync(resolve(import.meta.dir, "data/full.db.meta.json"), "utf8")) as SeedMeta;
const id = meta.ids;
const varied = Object.fromEntries(variedEndpoints(vocabulary(join(dir, "loadout.db"))).map((e) => [e.name, e.vary!]));
const rows: { name: string; path: string; vary?: (r: () => number) => string }[] = [
  { name: "server stats 365 days", path: `/api/v1/game-servers/${id.server_typical}/stats?days=365` },
  { name: "global-players 365 days", path: "/api/v1/stats/global-players?days=365" },
  { name: "varied: server stats (any online, 1–365 days)", path: "", vary: varied["varied: server stats (any online, 1–365 days)"] },
];
const port = 20000 + Math.floor(Math.random() * 20000);
const svc = spawn([bin], {
  env: { ...(process.env as Record<string, string>), LOADOUT_DATA_DIR: dir, LOADOUT_PORT: String(port), LOADOUT_HOST: "127.0.0.1", LOADOUT_SCHEDULES: "off", LOADOUT_TRUST_PROXY: "true", LOADOUT_LOG_LEVEL: "warn", LOADOUT_JWT_SECRET: "bench-jwt-secret-bench-jwt-secret-0123456789" },
  stdout: "ignore",
  stderr: "inherit",
});
const base = `http://127.0.0.1:${port}`;
for (let t = 0; ; t++) {
  try {
    if ((await fetch(`${base}/api/v1/health`)).ok) break;
  } catch {}
  if (t > 600) throw new Error("service did not start");
  await Bun.sleep(50);
}
const cpuMs = () => {
  const f = readFileSync(`/proc/${svc.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, clock ticks of 10 ms
};
for (const row of rows) {
  if (!only.test(row.name)) continue;
  await driveWrk(base, { method: "GET", path: row.path, vary: row.vary }, 32, 1, 1, mulberry32(1)); // warm-up
  const c0 = cpuMs();
  const r = await driveWrk(base, { method: "GET", path: row.path, vary: row.vary }, 32, seconds, 1, mulberry32(2));
  const c = cpuMs() - c0;
  console.log(`| ${row.name} | ${r.bytes_per_response} | ${((c * 1000) / r.requests).toFixed(0)} | ${r.rps} | ${r.p99} |`);
}
svc.kill();
await svc.exited;
process.exit(0);
