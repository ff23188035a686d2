// When the idle collector collects (idle-gc.ts): after enough work, in the first quiet interval.
import { describe, expect, test } from "bun:test";
import { BUSY_CPU_MS, IDLE_CPU_MS, shouldCollect, startIdleCollector } from "./idle-gc";

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

  test("a started collector runs on its timer and stops", async () => {
    const ran: number[] = [];
    // Work for 100 ms of CPU (the threshold this collector is given), then stay quiet: a check collects.
    const stop = startIdleCollector((ms) => ran.push(ms), 20, 100);
    try {
      const t0 = process.cpuUsage();
      let x = 0;
      while ((process.cpuUsage(t0).user + process.cpuUsage(t0).system) / 1000 < 100) x += Math.sqrt(x + 1);
      expect(x).toBeGreaterThan(0);
      for (let i = 0; i < 100 && ran.length === 0; i++) await Bun.sleep(20);
      expect(ran.length).toBe(1);
      expect(ran[0]).toBeGreaterThanOrEqual(0);
    } finally {
      stop();
    }
  });
});
