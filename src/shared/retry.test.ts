import { describe, expect, test } from "bun:test";
import { parseRetryAfter, sleep } from "./retry";

describe("retry helpers", () => {
  test("parseRetryAfter: seconds, fractions, HTTP dates, garbage", () => {
    expect(parseRetryAfter("3", 0)).toBe(3000);
    expect(parseRetryAfter("1.5", 0)).toBe(1500);
    expect(parseRetryAfter(" 0 ", 0)).toBe(0);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter(new Date(1000).toUTCString(), 4000)).toBe(0);
    expect(parseRetryAfter("soon", 0)).toBeNull();
    expect(parseRetryAfter("", 0)).toBeNull();
    expect(parseRetryAfter(null, 0)).toBeNull();
  });

  test("sleep is cut short by an abort", async () => {
    const c = new AbortController();
    const p = sleep(60_000, c.signal);
    c.abort(new Error("stop"));
    await expect(p).rejects.toThrow("stop");
    await expect(sleep(10, c.signal)).rejects.toThrow("stop");
    await sleep(1);
  });
});
