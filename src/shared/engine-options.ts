// Settings the JavaScript engine reads from the environment when the process starts, and that no
// API can change later. `serve` puts them in place by executing itself again with them added
// (process.execve: the same pid, arguments, standard streams and everything else of the
// environment), before it opens anything; an operator's own value of any of them wins.
//
// `BUN_JSC_useWarmUpMarkedBlocks=0`: JavaScriptCore otherwise keeps a supply of heap blocks
// (16 KiB each) that a helper thread (`JSCWarmUp`) allocates and touches ahead of the heap's
// growth. Here that cost the live scan more than it saved: the helper faulted 3,000–10,000 pages
// a steady scan on top of the main thread's own (about as many with it as without) and the
// allocator's scavenger gave them back afterwards (a first sight's main thread takes over the
// helper's ~16,000). Without it a scan where 5 % of the lists changed
// costs ~0.6–0.7 s of CPU instead of ~0.8–1.1, one where nothing changed ~0.45–0.6 instead of
// ~0.7–0.85; a first sight and the workshop crawl cost the same or less, and the request rows of
// the full benchmark move within their run-to-run spread (docs/performance.md, "The scan").
import { isCompiled } from "./compiled";

export const ENGINE_ENV: Readonly<Record<string, string>> = Object.freeze({
  BUN_JSC_useWarmUpMarkedBlocks: "0",
});

export interface Reexec {
  path: string;
  argv: string[];
  env: Record<string, string>;
}

/**
 * How this process would execute itself again with ENGINE_ENV in its environment, or null when
 * every one of them is set already (by an earlier execution of this, or by the operator).
 * The compiled executable is run with its own arguments (the runtime flags it was built with,
 * scripts/build.ts, apply again by themselves); Bun running a source file with its runtime flags
 * (`process.execArgv`, e.g. `npm start`'s) and the file's path, then the arguments.
 */
export function engineReexec(
  env: Record<string, string | undefined> = process.env,
  proc: Pick<NodeJS.Process, "execPath" | "argv" | "execArgv"> = process,
  compiled = isCompiled(),
): Reexec | null {
  const missing = Object.entries(ENGINE_ENV).filter(([k]) => env[k] === undefined);
  if (missing.length === 0) return null;
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) kept[k] = v;
  const argv = compiled ? [proc.execPath, ...proc.argv.slice(2)] : [proc.execPath, ...proc.execArgv, ...proc.argv.slice(1)];
  return { path: proc.execPath, argv, env: { ...kept, ...Object.fromEntries(missing) } };
}

/**
 * Replaces this process with itself started with ENGINE_ENV (engineReexec); returns only when
 * there is nothing to add, or when the platform cannot (no process.execve, or it failed: the
 * process then runs with the engine's defaults, as before this existed).
 */
export function ensureEngineOptions(): void {
  const r = engineReexec();
  if (!r || typeof process.execve !== "function") return;
  try {
    process.execve(r.path, r.argv, r.env);
  } catch {
    // Not replaced: run on as we are.
  }
}
