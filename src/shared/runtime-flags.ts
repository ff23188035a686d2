// Flags the Bun runtime itself must start with (the compiled binary carries them: scripts/build.ts
// passes them as `compile.execArgv`; `npm start` and `npm run dev` spell them out in package.json).
//
// Bun answers a request whose headers pass its cap with a bare 431 and an empty body, before any
// of our code runs, and Bun.serve has no option for that cap (only `--max-http-header-size`,
// default 16 KiB). Raised to 64 KiB so that the app's own limit (HEADER_LIMIT in
// src/shared/http.ts, 16 KiB) answers first, with `{error}` like every other refusal.
export const RUNTIME_HEADER_CAP = 64 * 1024;
export const RUNTIME_FLAGS = [`--max-http-header-size=${RUNTIME_HEADER_CAP}`];

// The environment the service is meant to start with. Unlike the flags above, nothing a binary
// carries can set these: Bun's allocator (its mimalloc) reads them once, as the process starts,
// before any JavaScript runs. So they are spelled out wherever the service is started from a file
// of ours: package.json's `start` and `dev`, the Dockerfile's ENV, the systemd unit in
// docs/operations.md, and the benches' service processes; `serve` logs a warning when they are
// missing (runtimeEnvMissing).
//
// MIMALLOC_PURGE_HOLES=0: the allocator's background scavenger no longer hands back, every ~100 ms,
// the free blocks inside pages that are still in use (pages that are wholly free are still given
// back after the usual delay, and an idle collection still shrinks the process). Under a steady
// stream of small allocations and frees (a crawl: ~45,000 responses parsed and written) that
// purging and the page faults that take the memory back cost ~15-25 % of the CPU
// (docs/performance.md, "Round 5, crawl": 28.0 -> 23.7 s for a full crawl, RSS after it ~+10 MiB).
export const RUNTIME_ENV: Readonly<Record<string, string>> = { MIMALLOC_PURGE_HOLES: "0" };

/** The RUNTIME_ENV entries this process was not started with (names only). */
export function runtimeEnvMissing(env: Record<string, string | undefined> = process.env): string[] {
  return Object.entries(RUNTIME_ENV)
    .filter(([k, v]) => env[k] !== v)
    .map(([k]) => k);
}
