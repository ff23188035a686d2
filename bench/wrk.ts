// wrk as the load generator (Debian's `wrk` package): a C program with one event loop a thread,
// so on a 2-core machine it takes far less of the CPU than autocannon running in the runner's
// own JavaScript process, and the service keeps the cores a separate client would leave it.
// Latency comes in microseconds (autocannon's histogram counts whole milliseconds).
//
// The same requests as autocannon's drive(): the varied rows' paths come from the same seeded
// PRNG sequence (written to a file the Lua script reads, each wrk thread starting at its own
// offset), every request gets its own X-Forwarded-For from a pool of 20,000 addresses and, when
// authenticated, the next of the bench user's API keys.
import { spawn } from "bun";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoadFigures } from "./writes";

export interface WrkRequest {
  method: string;
  /** The path of every request, or a new one each time. */
  path: string;
  vary?: (rnd: () => number) => string;
  body?: string;
  auth?: boolean;
}

export interface WrkLoad extends LoadFigures {
  bytes_per_response: number;
}

/** Paths written for a varied row: more than a 5 s run at 32 clients asks for, so none repeats in order. */
const VARIED_PATHS = 200_000;

export const wrkAvailable = (): boolean => Bun.which("wrk") !== null;

const luaString = (s: string) => JSON.stringify(s); // a JSON string literal is a valid Lua string literal for ASCII text

function script(req: WrkRequest, pathsFile: string | null, apiKeys: number): string {
  const headers = [`["X-Forwarded-For"] = addr()`];
  if (req.body) headers.push(`["Content-Type"] = "application/json"`);
  if (req.auth) headers.push(`["X-Api-Key"] = string.format("lo_benchmark-key-not-a-secret-%06d", (key + tid * 7919) % ${apiKeys})`);
  return `
local paths = {}
${pathsFile ? `for line in io.lines(${luaString(pathsFile)}) do paths[#paths + 1] = line end` : `paths[1] = ${luaString(req.path)}`}
local n = #paths
local counter = 0
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end
local i, ip, key = 0, 0, 0
function init(args)
  i = (tid * 50021) % n
  ip = tid * 10007
end
function addr()
  ip = ip + 1
  local a = ip % 20000
  return string.format("10.%d.%d.%d", math.floor(a / 65536) % 256, math.floor(a / 256) % 256, a % 256)
end
local body = ${req.body ? luaString(req.body) : "nil"}
function request()
  i = i + 1
  if i > n then i = 1 end
  key = key + 1
  return wrk.format(${luaString(req.method)}, paths[i], { ${headers.join(", ")} }, body)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRKJSON {"requests":%d,"duration_us":%d,"bytes":%d,"non2xx":%d,"errors":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d}\\n',
    summary.requests, summary.duration, summary.bytes, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
`;
}

/**
 * Drives one endpoint for `seconds` with `connections` keep-alive connections (wrk -t2 at 2 or more).
 * `started` is called once wrk runs (the paths are written by then): a caller timing the service's
 * CPU over the load starts there.
 */
export async function driveWrk(base: string, req: WrkRequest, connections: number, seconds: number, apiKeys: number, rnd: () => number, started?: () => void): Promise<WrkLoad> {
  const dir = mkdtempSync(join(tmpdir(), "loadout-wrk-"));
  try {
    let pathsFile: string | null = null;
    if (req.vary) {
      pathsFile = join(dir, "paths.txt");
      const lines: string[] = [];
      for (let k = 0; k < VARIED_PATHS; k++) lines.push(req.vary(rnd));
      writeFileSync(pathsFile, lines.join("\n") + "\n");
    }
    const lua = join(dir, "load.lua");
    writeFileSync(lua, script(req, pathsFile, Math.max(1, apiKeys)));
    const threads = Math.min(2, connections);
    const p = spawn(["wrk", `-t${threads}`, `-c${connections}`, `-d${seconds}s`, "--timeout", "30s", "-s", lua, base], { stdout: "pipe", stderr: "pipe" });
    started?.();
    const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
    await p.exited;
    const line = out.split("\n").find((l) => l.startsWith("WRKJSON "));
    if (!line) throw new Error(`wrk gave no summary (exit ${p.exitCode}): ${err || out}`);
    const r = JSON.parse(line.slice(8)) as { requests: number; duration_us: number; bytes: number; non2xx: number; errors: number; p50: number; p90: number; p99: number; max: number };
    const ms = (us: number) => Math.round(us / 100) / 10;
    return {
      connections,
      requests: r.requests,
      rps: Math.round((r.requests / (r.duration_us / 1e6)) * 10) / 10,
      p50: ms(r.p50),
      p90: ms(r.p90),
      p99: ms(r.p99),
      max: ms(r.max),
      non2xx: r.non2xx,
      errors: r.errors,
      bytes_per_response: Math.round(r.bytes / Math.max(1, r.requests)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
