// Server details prepared ahead while the process is idle (docs/live.md "The live list from
// memory", *Server detail*): what the next rows of the current snapshot need (their mod lists, their variants'
// parts), so their first request copies its answer together like any other.
import type { Database } from "bun:sqlite";
import { processCpuMs } from "../../../shared/idle-gc";
import { peekLiveSnapshot } from "../snapshot";
import { modsOf } from "./answer";
import { partOf } from "./parts";
import { catalogCache, detailState, readCatalogGen } from "./store";

/**
 * Prepares, for at most `budgetMs`, what the next rows of the current snapshot need (their mod
 * lists, their variants' parts), so their first request copies its answer together like any other.
 * The same work a first request does (modsOf, partOf), only earlier; returns true once every row
 * of the current snapshot and catalog generation is prepared (or there is no snapshot).
 */
export function warmDetails(sqlite: Database, budgetMs: number): boolean {
  const s = peekLiveSnapshot(sqlite);
  if (!s) return true;
  const gen = readCatalogGen(sqlite);
  const st = detailState(sqlite);
  let w = st.warm;
  if (!w || w.s !== s || w.gen !== gen) st.warm = w = { s, gen, next: 0 };
  st.snapshot = s;
  const c = catalogCache(sqlite, gen);
  const until = performance.now() + budgetMs;
  while (w.next < s.rows.length) {
    const mods = modsOf(sqlite, s, s.rows[w.next++]!.sid);
    if (!("sql" in mods) && !c.full) for (let k = 0; k < mods.variants.length; k++) if (c.heads[mods.variants[k]!] === undefined) partOf(sqlite, c, mods.table, mods.variants[k]!);
    if (performance.now() >= until) break;
  }
  return w.next >= s.rows.length;
}

/**
 * In the server (src/server.ts): warms in slices of SLICE_MS (a request arriving waits at most
 * one), one after another while the process is otherwise idle: every `everyMs` it checks the CPU
 * the process used besides the slices, and under a tenth of the interval (nobody to speak of is
 * waiting) it warms until the next check, else it waits. At start that is every online server
 * (~2 s of CPU at full scale, in the first idle seconds); after a scan only the servers whose mods
 * changed and variants not seen before; after a catalog change every variant again. An error (none
 * expected) stops it and is handed to `onError`. Unref'd; returns a stop function.
 */
export function startDetailWarmer(sqlite: Database, onError: (e: unknown) => void, everyMs = 500): () => void {
  let last = processCpuMs();
  let own = 0; // CPU ms of the slices since the last check
  let warming = false;
  let stopped = false;
  const slice = () => {
    if (stopped || !warming) return;
    const t = processCpuMs();
    let done: boolean;
    try {
      done = warmDetails(sqlite, SLICE_MS);
    } catch (e) {
      // Only ever an optimisation: stop, and let requests prepare what they need.
      stop();
      return onError(e);
    }
    own += processCpuMs() - t;
    if (done) warming = false;
    else setImmediate(slice);
  };
  const timer = setInterval(() => {
    const now = processCpuMs();
    const idle = now - last - own < everyMs / 10;
    last = now;
    own = 0;
    if (idle && !warming) {
      warming = true;
      setImmediate(slice);
    } else if (!idle) warming = false;
  }, everyMs);
  timer.unref();
  function stop() {
    stopped = true;
    clearInterval(timer);
  }
  return stop;
}
const SLICE_MS = 4;
