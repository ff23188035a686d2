// Builds the real executable once per test process (bun test runs every file in one process)
// and hands out copies moved into empty folders, the way a user would run it.
import { copyFileSync, mkdtempSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "../..");
let built: Promise<string> | null = null;

function build(): Promise<string> {
  built ??= (async () => {
    const out = join(mkdtempSync(join(tmpdir(), "loadout-build-")), "loadout");
    const b = Bun.spawn([process.execPath, "scripts/build.ts", out], { cwd: root, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(b.stdout).text(), new Response(b.stderr).text(), b.exited]);
    if (code !== 0) throw new Error(`build failed: ${stdout}\n${stderr}`);
    return out;
  })();
  return built;
}

/** A fresh folder holding a copy of the built binary; returns {dir, bin}. */
export async function binaryInFreshFolder(): Promise<{ dir: string; bin: string }> {
  const src = await build();
  const dir = mkdtempSync(join(tmpdir(), "loadout-e2e-"));
  const bin = join(dir, "loadout");
  copyFileSync(src, bin);
  chmodSync(bin, 0o755);
  return { dir, bin };
}

export async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

/**
 * A run of the suite under libfaketime (`faketime -f '+400d' npx bun test`, how we check that
 * the suite passes on any date) hands its shifted clock to the binary too, so both sides of a
 * signed exchange keep one clock.
 */
function fakeTimeEnv(): Record<string, string> {
  const { FAKETIME, LD_PRELOAD } = process.env;
  return FAKETIME && LD_PRELOAD ? { FAKETIME, LD_PRELOAD } : {};
}

/** Starts the binary with `env` and waits for /api/v1/health; returns the process and base URL. */
export async function startBinary(bin: string, cwd: string, env: Record<string, string>) {
  const port = await freePort();
  const proc = Bun.spawn([bin], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...fakeTimeEnv(), LOADOUT_PORT: String(port), LOADOUT_HOST: "127.0.0.1", LOADOUT_SCHEDULES: "off", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const base = `http://127.0.0.1:${port}`;
  // Up until it answers or exits: a start on a busy machine may take longer than the 10 s this
  // used to allow, and a binary that cannot start says why on stderr at once.
  const deadline = performance.now() + 60_000;
  while (proc.exitCode === null && performance.now() < deadline) {
    const r = await fetch(`${base}/api/v1/health`).catch(() => null);
    if (r?.status === 200) return { proc, base };
    await Bun.sleep(25);
  }
  proc.kill();
  throw new Error(`the binary did not answer /api/v1/health (exit code ${proc.exitCode}): ${await new Response(proc.stderr).text()}`);
}

/** Polls `fn` every 100 ms until it returns something truthy, or fails after `timeoutMs`. */
export async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
}
