// The answer caches' shared byte budget (bytes-lru.ts): each map's own cap, their sum within the
// budget, least recently used first out across maps.
import { describe, expect, test } from "bun:test";
import { ByteBudget, BytesLru } from "./bytes-lru";

const len = (_: string, v: string) => v.length;

describe("BytesLru", () => {
  test("its own cap: least recently used out first; a read moves an entry to the end, a peek does not", () => {
    const m = new BytesLru<string>(10, len, null);
    m.set("a", "xxx");
    m.set("b", "xxx");
    m.set("c", "xxx");
    expect(m.get("a")).toBe("xxx");
    expect(m.peek("b")).toBe("xxx");
    m.set("d", "xxx"); // 12 > 10: b (least recently used) goes
    expect(m.keysByUse()).toEqual(["c", "a", "d"]);
    expect(m.bytes).toBe(9);
    m.set("a", "xxxxx"); // a key set again counts once
    expect(m.bytes).toBe(8);
    expect(m.keysByUse()).toEqual(["d", "a"]);
    m.set("big", "x".repeat(11)); // larger than the cap: not kept, nothing dropped
    expect(m.keysByUse()).toEqual(["d", "a"]);
    m.delete("d");
    expect(m.bytes).toBe(5);
    m.clear();
    expect(m.bytes).toBe(0);
    expect(m.size).toBe(0);
  });

  test("maps sharing a budget: the sum never passes it, the least recently used of any map goes first", () => {
    const budget = new ByteBudget(10);
    const a = new BytesLru<string>(100, len, budget);
    const b = new BytesLru<string>(100, len, budget);
    a.set("a1", "xxx");
    b.set("b1", "xxx");
    a.set("a2", "xxx");
    expect(budget.used).toBe(9);
    expect(a.get("a1")).toBe("xxx"); // a1 used again: b1 is now the oldest of all
    b.set("b2", "xxx"); // 12 > 10
    expect(b.keysByUse()).toEqual(["b2"]);
    expect(a.keysByUse()).toEqual(["a2", "a1"]);
    expect(budget.used).toBe(9);
    expect(budget.evictions).toBe(1);
    b.set("b3", "xxxxxx"); // 15 > 10: a2, then a1 go (used before b2 was set); b2 stays
    expect(a.keysByUse()).toEqual([]);
    expect(b.keysByUse()).toEqual(["b2", "b3"]);
    expect(budget.used).toBe(9);
    expect(a.bytes + b.bytes).toBe(budget.used);
    b.set("huge", "x".repeat(11)); // larger than the whole budget: not kept
    expect(b.peek("huge")).toBeUndefined();
    expect(a.bytes + b.bytes).toBe(budget.used);
  });

  test("random sets, reads and deletes across maps: the sum stays within the budget and every map's bytes add up", () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const budget = new ByteBudget(5_000);
    const maps = [300, 2_000, 4_000, 10_000, 800].map((cap) => new BytesLru<string>(cap, len, budget));
    const truth = maps.map(() => new Map<string, string>());
    for (let i = 0; i < 20_000; i++) {
      const m = Math.floor(rnd() * maps.length);
      const key = `k${Math.floor(rnd() * 200)}`;
      const op = rnd();
      if (op < 0.6) {
        const v = `${key}:${i}:`.padEnd(1 + Math.floor(rnd() * 400), "x");
        maps[m]!.set(key, v);
        truth[m]!.set(key, v);
      } else if (op < 0.9) {
        // A hit is exactly what was last set; a miss is allowed (dropped), a wrong value never.
        const got = maps[m]!.get(key);
        if (got !== undefined) expect(got).toBe(truth[m]!.get(key)!);
      } else if (op < 0.97) {
        maps[m]!.delete(key);
        truth[m]!.delete(key);
      } else maps[m]!.clear();
      expect(budget.used).toBeLessThanOrEqual(5_000);
      let sum = 0;
      for (const x of maps) sum += x.bytes;
      expect(sum).toBe(budget.used);
    }
    for (let m = 0; m < maps.length; m++) {
      let bytes = 0;
      for (const [k, v] of maps[m]!.entries()) {
        expect(v).toBe(truth[m]!.get(k)!);
        bytes += v.length;
      }
      expect(bytes).toBe(maps[m]!.bytes);
    }
    expect(budget.evictions).toBeGreaterThan(0);
  });

  test("a smaller budget drops answers at once; a map collected without clear() leaves the budget", async () => {
    const budget = new ByteBudget(1_000);
    const kept = new BytesLru<string>(1_000, len, budget);
    kept.set("k", "x".repeat(300));
    (() => {
      const gone = new BytesLru<string>(1_000, len, budget);
      gone.set("g", "x".repeat(400));
    })();
    expect(budget.used).toBe(700);
    expect(budget.maps).toBe(2);
    for (let i = 0; i < 20 && budget.maps > 1; i++) {
      Bun.gc(true);
      await Bun.sleep(10);
    }
    expect(budget.maps).toBe(1);
    expect(budget.used).toBe(300);
    budget.setMax(200);
    expect(kept.size).toBe(0);
    expect(budget.used).toBe(0);
  });
});
