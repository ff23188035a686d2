// When the idle collector collects (idle-gc.ts): after enough work, in the first quiet interval.
import { describe, expect, test } from "bun:test";
import { BUSY_CPU_MS, IDLE_CPU_MS, SHRINK_QUIET_CHECKS, nextStep, startIdleCollector, type IdleState } from "./idle-gc";
import { until } from "../../test/until";

/** Whether the collector collects at this check. */
const shouldCollect = (s: IdleState, cpuMs: number) => nextStep(s, cpuMs) === "collect";

describe("idle garbage collection", () => {
  test("only once BUSY_CPU_MS of work went by, and only in an interval under IDLE_CPU_MS", () => {
    const s = { atCollect: 0, atCheck: 0 };
    expect(shouldCollect(s, IDLE_CPU_MS / 2)).toBe(false); // quiet, but nothing to collect after
    expect(shouldCollect(s, BUSY_CPU_MS)).toBe(false); // busy interval
    expect(shouldCollect(s, BUSY_CPU_MS + 1_000)).toBe(false); // still busy
    expect(shouldCollect(s, BUSY_CPU_MS + 1_000 + IDLE_CPU_MS / 2)).toBe(true); // quiet after the load
    expect(s.atCollect).toBe(BUSY_CPU_MS + 1_000 + IDLE_CPU_MS / 2);
    expect(shouldCollect(s, BUSY_CPU_MS + 1_000 + IDLE_CPU_MS)).toBe(false); // quiet, nothing new since
    expect(shouldCollect(s, BUSY_CPU_MS + 1_000 + IDLE_CPU_MS + 10)).toBe(false);
  });

  test("the footprint is shrunk once, after SHRINK_QUIET_CHECKS quiet checks in a row following a collection", () => {
    const s = { atCollect: 0, atCheck: 0 };
    let cpu = BUSY_CPU_MS + 1_000;
    expect(nextStep(s, cpu)).toBe(null); // busy
    expect(nextStep(s, (cpu += 1))).toBe("collect");
    for (let i = 1; i < SHRINK_QUIET_CHECKS; i++) expect(nextStep(s, (cpu += 1))).toBe(null);
    expect(nextStep(s, (cpu += IDLE_CPU_MS))).toBe(null); // a busy check starts the count again
    for (let i = 1; i < SHRINK_QUIET_CHECKS; i++) expect(nextStep(s, (cpu += 1))).toBe(null);
    expect(nextStep(s, (cpu += 1))).toBe("shrink");
    for (let i = 0; i < SHRINK_QUIET_CHECKS * 2; i++) expect(nextStep(s, (cpu += 1))).toBe(null); // once
  });

  test("a started collector runs on its timer and stops", async () => {
    const ran: [number, string][] = [];
    // Work for 100 ms of CPU (the threshold this collector is given), then stay quiet: a check
    // collects, and SHRINK_QUIET_CHECKS quiet checks later the footprint is shrunk.
    const stop = startIdleCollector((ms, step) => ran.push([ms, step]), 20, 100);
    try {
      const t0 = process.cpuUsage();
      let x = 0;
      while ((process.cpuUsage(t0).user + process.cpuUsage(t0).system) / 1000 < 100) x += Math.sqrt(x + 1);
      expect(x).toBeGreaterThan(0);
      // Each step waits for checks that find the process quiet; how soon that is depends on what
      // else runs on the machine, so wait for the two steps rather than a fixed number of checks.
      await until("the collection and the shrink", () => ran.length >= 2, 25_000);
      expect(ran.map(([, step]) => step)).toEqual(["collect", "shrink"]);
      expect(ran[0]![0]).toBeGreaterThanOrEqual(0);
    } finally {
      stop();
    }
  });
});
