// One full garbage collection once the process is idle after a burst of work. JavaScriptCore
// collects as it allocates, so after a load stops, the garbage of the last seconds (response
// bodies, query rows, replaced snapshots) stays in the heap with nothing to trigger a collection:
// measured in process after the benchmark's rows, anonymous memory 446 MiB before a full
// collection and 165 MiB after (docs/performance.md, "Memory"). The collector checks the
// process's CPU time every second: when at least BUSY_CPU_MS went by since the last collection
// and the last second used under IDLE_CPU_MS (no requests to speak of), it runs Bun.gc(true)
// (a few tens of ms, paid while nobody waits) and lets the allocator give the pages back.
// When the quiet goes on for SHRINK_QUIET_CHECKS more checks after that collection, it also asks
// JavaScriptCore to shrink its footprint once (Bun.shrink: it drops compiled code and gives the
// allocators' free pages back): measured after the benchmark's rows, anonymous
// memory 250 -> 234 MiB, for ~0.4 s of CPU recompiling over the next load's first ~1,300
// requests; so only after a long quiet, never between the bursts of a busy hour.

/** CPU ms of work since the last collection that make one worth it. */
export const BUSY_CPU_MS = 2_000;
/** CPU ms in the last interval under which the process counts as idle. */
export const IDLE_CPU_MS = 50;

/** Quiet checks after a collection before the footprint is shrunk once (10 s at one a second). */
export const SHRINK_QUIET_CHECKS = 10;

export interface IdleState {
  /** Process CPU ms at the last collection (or the start). */
  atCollect: number;
  /** Process CPU ms at the previous check. */
  atCheck: number;
  /** Quiet checks in a row since the last collection. */
  quiet?: number;
  /** A collection ran and no shrink since. */
  shrinkDue?: boolean;
}

/** What to do now, given the process CPU ms now: collect, shrink, or nothing; updates the state. */
export function nextStep(s: IdleState, cpuMs: number, busyCpuMs = BUSY_CPU_MS): "collect" | "shrink" | null {
  const lastInterval = cpuMs - s.atCheck;
  s.atCheck = cpuMs;
  if (lastInterval >= IDLE_CPU_MS) {
    s.quiet = 0;
    return null;
  }
  if (cpuMs - s.atCollect >= busyCpuMs) {
    s.atCollect = cpuMs;
    s.quiet = 0;
    s.shrinkDue = true;
    return "collect";
  }
  s.quiet = (s.quiet ?? 0) + 1;
  if (s.shrinkDue && s.quiet >= SHRINK_QUIET_CHECKS) {
    s.shrinkDue = false;
    return "shrink";
  }
  return null;
}

/** This process's CPU time so far, ms (user + system). */
export const processCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Starts the checks (unref'd: they never keep the process alive); returns a stop function. */
export function startIdleCollector(onCollect?: (ms: number, step: "collect" | "shrink") => void, everyMs = 1_000, busyCpuMs = BUSY_CPU_MS): () => void {
  const s: IdleState = { atCollect: processCpuMs(), atCheck: processCpuMs() };
  const timer = setInterval(() => {
    const step = nextStep(s, processCpuMs(), busyCpuMs);
    if (!step) return;
    const t = performance.now();
    if (step === "collect") Bun.gc(true);
    else Bun.shrink();
    const ms = performance.now() - t;
    // The collection's own CPU is not work that asks for another.
    s.atCollect = s.atCheck = processCpuMs();
    onCollect?.(ms, step);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
