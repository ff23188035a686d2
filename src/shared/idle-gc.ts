// One full garbage collection once the process is idle after a burst of work. JavaScriptCore
// collects as it allocates, so after a load stops, the garbage of the last seconds (response
// bodies, query rows, replaced snapshots) stays in the heap with nothing to trigger a collection:
// measured after the benchmark's load (bench/memory.ts), anonymous memory 446 MiB before a full
// collection and 165 MiB after (docs/performance.md "Round 2, memory"). The collector checks the
// process's CPU time every second: when at least BUSY_CPU_MS went by since the last collection
// and the last second used under IDLE_CPU_MS (no requests to speak of), it runs Bun.gc(true)
// (a few tens of ms, paid while nobody waits) and lets the allocator give the pages back.

/** CPU ms of work since the last collection that make one worth it. */
export const BUSY_CPU_MS = 2_000;
/** CPU ms in the last interval under which the process counts as idle. */
export const IDLE_CPU_MS = 50;

export interface IdleState {
  /** Process CPU ms at the last collection (or the start). */
  atCollect: number;
  /** Process CPU ms at the previous check. */
  atCheck: number;
}

/** Whether to collect now, given the process CPU ms now; updates the state. */
export function shouldCollect(s: IdleState, cpuMs: number, busyCpuMs = BUSY_CPU_MS): boolean {
  const lastInterval = cpuMs - s.atCheck;
  s.atCheck = cpuMs;
  if (cpuMs - s.atCollect < busyCpuMs || lastInterval >= IDLE_CPU_MS) return false;
  s.atCollect = cpuMs;
  return true;
}

const processCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Starts the checks (unref'd: they never keep the process alive); returns a stop function. */
export function startIdleCollector(onCollect?: (ms: number) => void, everyMs = 1_000, busyCpuMs = BUSY_CPU_MS): () => void {
  const s: IdleState = { atCollect: processCpuMs(), atCheck: processCpuMs() };
  const timer = setInterval(() => {
    if (!shouldCollect(s, processCpuMs(), busyCpuMs)) return;
    const t = performance.now();
    Bun.gc(true);
    const ms = performance.now() - t;
    // The collection's own CPU is not work that asks for another.
    s.atCollect = s.atCheck = processCpuMs();
    onCollect?.(ms);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
