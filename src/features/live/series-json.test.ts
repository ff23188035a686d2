// The series JSON written from row arrays (series-json.ts) is byte for byte JSON.stringify of the
// points as objects, for every kind of number a row can hold (series-cache.test.ts checks the
// same against SQLite across roll-ups and scans).
import { describe, expect, test } from "bun:test";
import { mulberry32 } from "../../../test/fixtures/prng";
import { COL, seriesShape, writeSeriesJson, type SeriesValues } from "./series-json";

const shape = seriesShape([
  { key: "player_count", col: COL.ps, avg: true },
  { key: "queue_players_count", col: COL.qs, avg: true },
  { key: "wait_time_estimation", col: COL.xs, avg: true },
  { key: "player_count_max", col: COL.pm, avg: false },
]);
const avg = (sum: number, n: number) => (n > 0 ? Math.round(sum / n) : 0);
const asObjects = (rows: SeriesValues[]) =>
  JSON.stringify(
    rows.map(([time, n, ps, pm, qs, xs]) => ({
      time: new Date(time).toISOString(),
      player_count: avg(ps, n),
      queue_players_count: avg(qs, n),
      wait_time_estimation: avg(xs, n),
      player_count_max: pm,
    })),
  );
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe("series JSON from row arrays", () => {
  test("an empty series is []", () => {
    expect(text(writeSeriesJson([], shape))).toBe("[]");
  });

  test("digits at every length, zero samples, and numbers JSON.stringify writes otherwise", () => {
    const T = Date.UTC(2026, 10, 24, 21, 0, 0);
    const odd: number[] = [0, 1, 9, 10, 99, 100, 999, 1000, 65_535, 2 ** 31, 2 ** 32 + 7, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, -1, -0, 0.5, 12.25, -7.75, 1e21];
    const rows: SeriesValues[] = [];
    for (let i = 0; i < odd.length; i++) {
      rows.push([T + i * 10_800_000, 1, odd[i]!, odd[(i + 3) % odd.length]!, odd[(i + 5) % odd.length]!, odd[(i + 7) % odd.length]!]);
      rows.push([T + i * 10_800_000 + 1, 0, odd[i]!, odd[i]!, odd[i]!, odd[i]!]); // no samples: averages 0
      rows.push([T + i * 10_800_000 + 2, 3, odd[i]!, odd[i]!, -odd[i]!, odd[i]! * 3 + 1]); // rounding, -0
    }
    rows.push([T, 2, 5, null as unknown as number, 3, 1]); // a max SQLite gave as NULL
    expect(text(writeSeriesJson(rows, shape))).toBe(asObjects(rows));
  });

  test("random series of every length the reads give, one after another (the buffer is reused)", () => {
    const rnd = mulberry32(3);
    const T0 = Date.UTC(2025, 10, 24, 0, 0, 0);
    const seen: { got: Uint8Array; want: string }[] = [];
    for (const len of [1, 24, 288, 2920, 7, 2920 * 2, 3]) {
      const rows: SeriesValues[] = Array.from({ length: len }, (_, i) => {
        const n = Math.floor(rnd() * 40);
        const big = rnd() < 0.1 ? 1e6 : 1;
        return [T0 + i * 300_000, n, Math.floor(rnd() * 128 * n * big), Math.floor(rnd() * 128), Math.floor(rnd() * 10 * n), Math.floor(rnd() * 600 * n * big)];
      });
      seen.push({ got: writeSeriesJson(rows, shape), want: asObjects(rows) });
    }
    // Every answer is its own copy: writing the next one did not change it.
    for (const s of seen) expect(text(s.got)).toBe(s.want);
  });
});
