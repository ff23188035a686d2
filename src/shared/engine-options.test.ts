// The engine's start-up settings (engine-options.ts): how `serve` executes itself again, and real
// `bun src/main.ts serve` processes showing that they run with them (the same pid, its arguments
// and output as started) unless the operator set a value of their own.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ENGINE_ENV, engineReexec } from "./engine-options";

const MAIN = resolve(import.meta.dir, "../main.ts");
const dirs: string[] = [];
const procs: Bun.Subprocess[] = [];
afterAll(() => {
  for (const p of procs) p.kill("SIGKILL");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("engineReexec", () => {
  const bunProc = { execPath: "/usr/bin/bun", argv: ["/usr/bin/bun", "/srv/loadout/src/main.ts", "serve"], execArgv: ["--max-http-header-size=65536"] };

  test("Bun running the source: its runtime flags, the file, the arguments; the environment kept and the settings added", () => {
    expect(engineReexec({ PATH: "/bin", LOADOUT_PORT: "8080", UNSET: undefined }, bunProc, false)).toEqual({
      path: "/usr/bin/bun",
      argv: ["/usr/bin/bun", "--max-http-header-size=65536", "/srv/loadout/src/main.ts", "serve"],
      env: { PATH: "/bin", LOADOUT_PORT: "8080", BUN_JSC_useWarmUpMarkedBlocks: "0" },
    });
  });

  test("the compiled executable: itself and its own arguments (its built-in runtime flags apply by themselves)", () => {
    const compiled = { execPath: "/opt/loadout/loadout", argv: ["bun", "/$bunfs/root/loadout", "serve"], execArgv: [] };
    expect(engineReexec({ HOME: "/root" }, compiled, true)).toEqual({
      path: "/opt/loadout/loadout",
      argv: ["/opt/loadout/loadout", "serve"],
      env: { HOME: "/root", BUN_JSC_useWarmUpMarkedBlocks: "0" },
    });
    // `loadout` with no command (serve is the default) stays without one.
    expect(engineReexec({}, { ...compiled, argv: ["bun", "/$bunfs/root/loadout"] }, true)!.argv).toEqual(["/opt/loadout/loadout"]);
  });

  test("nothing to do once every setting is in the environment, whatever its value (the operator's wins)", () => {
    expect(engineReexec({ ...ENGINE_ENV }, bunProc, false)).toBeNull();
    expect(engineReexec({ BUN_JSC_useWarmUpMarkedBlocks: "1" }, bunProc, false)).toBeNull();
    expect(engineReexec({ BUN_JSC_useWarmUpMarkedBlocks: "" }, bunProc, false)).toBeNull();
  });
});

/** A `serve` process on a fresh data dir, once it has said it started. */
async function startServe(extra: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "loadout-engine-"));
  dirs.push(dir);
  const env: Record<string, string> = { ...(process.env as Record<string, string>), LOADOUT_DATA_DIR: dir, LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "info", LOADOUT_PORT: "0", LOADOUT_HOST: "127.0.0.1", ...extra };
  for (const k of Object.keys(ENGINE_ENV)) if (!(k in extra)) delete env[k];
  const proc = Bun.spawn([process.execPath, MAIN, "serve"], { env, stdout: "pipe", stderr: "pipe" });
  procs.push(proc);
  let url = "";
  let out = "";
  // Read to the end (a closed pipe would fail the service's next log line).
  void (async () => {
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
      if (url) continue;
      out += new TextDecoder().decode(chunk);
      for (const line of out.split("\n")) {
        try {
          const o = JSON.parse(line);
          if (o.msg === "loadout started") url = o.url;
        } catch {}
      }
    }
  })();
  for (let waited = 0; !url && waited < 20_000; waited += 20) await Bun.sleep(20);
  if (!url) throw new Error(`serve did not start: ${out}`);
  return { proc, url };
}

const environOf = (pid: number) =>
  new Map(readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]));
const threadsOf = (pid: number) => readdirSync(`/proc/${pid}/task`).map((t) => readFileSync(`/proc/${pid}/task/${t}/comm`, "utf8").trim());

describe.skipIf(process.platform !== "linux")("serve", () => {
  test("runs with the settings: the process it was started as (same pid, arguments, output), the engine's warm-up thread never started", async () => {
    const { proc, url } = await startServe();
    const environ = environOf(proc.pid);
    for (const [k, v] of Object.entries(ENGINE_ENV)) expect(environ.get(k)).toBe(v);
    expect(readFileSync(`/proc/${proc.pid}/cmdline`, "utf8").split("\0").filter(Boolean).slice(-2)).toEqual([MAIN, "serve"]);
    // Allocation enough to grow the heap by thousands of blocks (the helper starts after 64).
    for (let i = 0; i < 20; i++) expect((await fetch(`${url}/api/v1/mods?per_page=100`)).status).toBe(200);
    expect(threadsOf(proc.pid)).not.toContain("JSCWarmUp");
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);
  }, 30_000);

  test("an operator's own value is kept as given (and then the warm-up thread runs, as the engine's default has it)", async () => {
    const { proc, url } = await startServe({ BUN_JSC_useWarmUpMarkedBlocks: "1" });
    expect(environOf(proc.pid).get("BUN_JSC_useWarmUpMarkedBlocks")).toBe("1");
    // It starts once the heap has grown by 64 blocks (during the start-up or the first requests)
    // and stops after 10 s without demand: asked while requests allocate.
    let seen = false;
    for (let i = 0; i < 100 && !seen; i++) {
      await fetch(`${url}/api/v1/mods?per_page=100`);
      seen = threadsOf(proc.pid).includes("JSCWarmUp");
    }
    expect(seen).toBe(true);
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);
  }, 30_000);
});
