// The allocator setting the service is meant to start with (src/shared/runtime-flags.ts
// RUNTIME_ENV): Bun's mimalloc reads it once, at the process's start, so it is checked on real
// processes. `loadout serve` (from source: `bun src/main.ts serve`) started without it runs itself
// again in place with it; MIMALLOC_VERBOSE=1 makes each start of the allocator print the options
// it read, so what the serving process's allocator runs with is read from its own stderr. An
// operator's own value is kept (with a warning). package.json's scripts and the Dockerfile set it.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "bun";
import { freePort } from "./e2e/build";
import { RUNTIME_ENV, RUNTIME_FLAGS, runtimeEnvUnset } from "../src/shared/runtime-flags";

const MAIN = join(import.meta.dir, "../src/main.ts");
const scratch = mkdtempSync(join(tmpdir(), "loadout-runtime-env-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let seq = 0;

/** Starts `serve` with `env` (RUNTIME_ENV's variables removed first), waits for /health, stops it. */
async function serveOnce(env: Record<string, string>) {
  const dir = join(scratch, `d${seq++}`);
  const port = await freePort();
  const base = Object.fromEntries(Object.entries(process.env as Record<string, string>).filter(([k]) => !(k in RUNTIME_ENV) && !k.startsWith("MIMALLOC_")));
  const p = spawn([process.execPath, ...RUNTIME_FLAGS, MAIN, "serve"], {
    env: { ...base, LOADOUT_DATA_DIR: dir, LOADOUT_PORT: String(port), LOADOUT_HOST: "127.0.0.1", LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "warn", LOADOUT_JWT_SECRET: "runtime-env-test-secret-runtime-env-test-0123", MIMALLOC_VERBOSE: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let environ = "";
  try {
    const until = Date.now() + 20_000;
    for (;;) {
      if (p.exitCode !== null) throw new Error(`serve exited with ${p.exitCode}: ${await new Response(p.stderr).text()}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (Date.now() > until) throw new Error("serve did not answer /health");
      await Bun.sleep(50);
    }
    // The process that answers is the one started (execve keeps the pid): its environment now.
    environ = readFileSync(`/proc/${p.pid}/environ`, "utf8");
  } finally {
    p.kill("SIGTERM");
    await p.exited;
  }
  const stderr = await new Response(p.stderr).text();
  const stdout = await new Response(p.stdout).text();
  const inits = stderr.split("\n").filter((l) => l.startsWith("mimalloc: process init")).length;
  /** The value of mimalloc option `name` as the allocator printed it at each start, in order. */
  const printed = (name: string) => [...stderr.matchAll(new RegExp(`^option '${name}': (\\S+)`, "gm"))].map((m) => m[1]);
  const env2 = Object.fromEntries(environ.split("\0").filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
  return { inits, printed, environ: env2, logs: stdout + stderr };
}

/** mimalloc's option name of an environment variable (MIMALLOC_PURGE_HOLES_MIN_INTERVAL -> purge_holes_min_interval). */
const optionOf = (envName: string) => envName.replace(/^MIMALLOC_/, "").toLowerCase();

describe("the allocator setting (RUNTIME_ENV)", () => {
  test("serve started without it runs itself again in place, and the serving process's allocator reads it", async () => {
    const r = await serveOnce({});
    expect(r.inits).toBe(2); // the start without it, then the same pid again with it
    for (const [name, value] of Object.entries(RUNTIME_ENV)) {
      const seen = r.printed(optionOf(name));
      expect(seen).toHaveLength(2);
      expect(seen[0]).not.toBe(value); // the allocator's own default
      expect(seen[1]).toBe(value);
      expect(r.environ[name]).toBe(value);
    }
    expect(r.logs).not.toContain("allocator setting");
  }, 30_000);

  test("started with it, serve starts once; an operator's own value is kept, with a warning", async () => {
    const r = await serveOnce({ ...RUNTIME_ENV });
    expect(r.inits).toBe(1);
    for (const [name, value] of Object.entries(RUNTIME_ENV)) expect(r.printed(optionOf(name))).toEqual([value]);
    expect(r.logs).not.toContain("allocator setting");

    const own = Object.fromEntries(Object.keys(RUNTIME_ENV).map((k) => [k, "250"]));
    const o = await serveOnce(own);
    expect(o.inits).toBe(1);
    for (const name of Object.keys(RUNTIME_ENV)) {
      expect(o.printed(optionOf(name))).toEqual(["250"]);
      expect(o.environ[name]).toBe("250");
    }
    expect(o.logs).toContain("started without the allocator setting");
  }, 30_000);

  test("package.json's start and dev and the Dockerfile set it", async () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dir, "../package.json"), "utf8"));
    const dockerfile = readFileSync(join(import.meta.dir, "../Dockerfile"), "utf8");
    for (const [name, value] of Object.entries(RUNTIME_ENV)) {
      for (const script of ["start", "dev"]) expect(pkg.scripts[script]).toStartWith(`${name}=${value} `);
      expect(dockerfile).toMatch(new RegExp(`^ENV .*\\b${name}=${value}\\b`, "m"));
    }
    expect(runtimeEnvUnset({ ...RUNTIME_ENV })).toEqual({});
    expect(runtimeEnvUnset({})).toEqual({ ...RUNTIME_ENV });
    expect(runtimeEnvUnset(Object.fromEntries(Object.keys(RUNTIME_ENV).map((k) => [k, "5000"])))).toEqual({});
  });
});
