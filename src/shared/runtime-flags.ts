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
// before any JavaScript runs. So they are spelled out where the service is started from a file of
// ours (package.json's `start` and `dev`, the Dockerfile's ENV, the benches' service processes),
// and `loadout serve` started without them runs itself again in place with them added
// (src/main.ts, `process.execve`: same pid, same arguments). A variable the operator set, to any
// value, is left as it is.
//
// MIMALLOC_PURGE_HOLES_MIN_INTERVAL=1000: the allocator's scavenger gives back the free blocks
// inside pages still in use ("holes") of a thread that waits at most once a second instead of
// every 100 ms. Under a crawl (~45,000 responses parsed and written in ~1.5 min, the event loop
// waiting ~1,000 times a second) the sweeps, and the page faults that take the same memory back a
// moment later, cost the scavenger thread ~3 s of a ~28 s crawl; at once a second ~0.6
// (docs/round6-crawl.md). Holes are still given back, a second later at most, so memory after a
// load goes back as before (`MIMALLOC_PURGE_HOLES=0`, which never gives them back, held 532 MiB
// after the benchmark's load against ~280: docs/performance.md, "The allocator setting").
export const RUNTIME_ENV: Readonly<Record<string, string>> = { MIMALLOC_PURGE_HOLES_MIN_INTERVAL: "1000" };

/** The RUNTIME_ENV entries this environment does not set at all (an operator's own value counts as set). */
export function runtimeEnvUnset(env: Record<string, string | undefined> = process.env): Record<string, string> {
  return Object.fromEntries(Object.entries(RUNTIME_ENV).filter(([k]) => env[k] === undefined || env[k] === ""));
}
