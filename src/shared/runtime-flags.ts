// Flags the Bun runtime itself must start with (the compiled binary carries them: scripts/build.ts
// passes them as `compile.execArgv`; `npm start` and `npm run dev` spell them out in package.json).
//
// Bun answers a request whose headers pass its cap with a bare 431 and an empty body, before any
// of our code runs, and Bun.serve has no option for that cap (only `--max-http-header-size`,
// default 16 KiB). Raised to 64 KiB so that the app's own limit (HEADER_LIMIT in
// src/shared/http.ts, 16 KiB) answers first, with `{error}` like every other refusal.
export const RUNTIME_HEADER_CAP = 64 * 1024;
export const RUNTIME_FLAGS = [`--max-http-header-size=${RUNTIME_HEADER_CAP}`];
