// A server's stat series written as JSON from its day rows (docs/live.md "Series and roll-ups").
// GET /game-servers/:id/stats of a server nobody asked for at this database state reads up to
// 2,920 bucket rows; through bun:sqlite each row costs ~250 ns before any JSON, and objects +
// JSON.stringify ~200 ns more a point. The 3-hour and hourly buckets are therefore
// also kept one row per server and UTC day as compact text (src/db/custom/a5_series_days.sql,
// maintained by triggers on every write to the bucket tables), read with one statement as one
// string, and the points' JSON is written from it here: the same text JSON.stringify gives of the
// point objects (`serverStatsRead` in service.ts, the truth the tests compare with).
import { toIso } from "../../shared/time";

const DAY_MS = 86_400_000;

// The bench's bulk load of bucket rows and the day rows' rebuild (repository/series.ts).
export { bulkLoadSeries, rebuildSeriesDays } from "./repository/series";

// ---------------------------------------------------------------------------------------------
// Writing the points. A point is `{"time":…,"player_count":…,"queue_players_count":…,
// "wait_time_estimation":…,"player_count_max":…}`, averages rounded by avg() (which service.ts's point objects use too).
// Every character of it is ASCII, so the answer is written as UTF-8 bytes straight into one reused
// buffer: a per-time prefix kept as bytes for every series (bucket times are the same for
// all servers), the numbers' digits, and the usual tail with no queue and no wait as one piece. The
// string pieces joined and then encoded, as they were before, were ~30 % of an uncached answer's CPU
// (the join's flattening and `TextEncoder.encode` of up to 333 KB).

const encoder = new TextEncoder();
const ascii = (s: string) => encoder.encode(s); // every piece here is ASCII: its UTF-8 bytes are its characters
/** The tail of a point with no queue and no wait and a maximum of 0–1023, made on first use. */
const QUIET_TAIL: (Uint8Array | undefined)[] = new Array(1024);
const quietTail = (m: number) => (QUIET_TAIL[m] ??= ascii(`,"queue_players_count":0,"wait_time_estimation":0,"player_count_max":${m}}`));
const Q = ascii(',"queue_players_count":');
const W = ascii(',"wait_time_estimation":');
const M = ascii(',"player_count_max":');

/** `,{"time":"<ISO>","player_count":` per time as bytes; at most 20,000 kept (~1 MB), then cleared. */
const prefixes = new Map<number, Uint8Array>();
function prefixOf(t: number): Uint8Array {
  let p = prefixes.get(t);
  if (p === undefined) {
    if (prefixes.size >= 20_000) prefixes.clear();
    prefixes.set(t, (p = ascii(`,{"time":"${toIso(t)}","player_count":`)));
  }
  return p;
}

/** A bucket's average as the series answer it: rounded, 0 for an empty bucket. */
export const avg = (sum: number, n: number) => (n > 0 ? Math.round(sum / n) : 0);

/**
 * The buffer answers are written in, shared by the writers (each writes synchronously from its
 * construction to its `body()`; one constructed while another has the buffer gets its own).
 */
let shared: Uint8Array | null = new Uint8Array(64 * 1024);

/** Builds one answer: points appended in time order, then `body()`. */
export class PointsWriter {
  private buf: Uint8Array;
  private n = 1;

  constructor() {
    this.buf = shared ?? new Uint8Array(64 * 1024);
    shared = null;
    this.buf[0] = 91; // [
  }

  private room(k: number): Uint8Array {
    if (this.n + k > this.buf.length) {
      const b = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
      b.set(this.buf.subarray(0, this.n));
      this.buf = b;
    }
    return this.buf;
  }

  private bytes(p: Uint8Array): void {
    this.room(p.length).set(p, this.n);
    this.n += p.length;
  }

  /** A number as JSON.stringify writes it: the digits of a safe integer here, any other through String(). */
  private num(v: number): void {
    if (!Number.isSafeInteger(v)) {
      const s = String(v);
      const b = this.room(s.length);
      for (let i = 0; i < s.length; i++) b[this.n++] = s.charCodeAt(i);
      return;
    }
    const b = this.room(17);
    if (v < 0) {
      b[this.n++] = 45; // -
      v = -v;
    }
    if (v < 10) {
      b[this.n++] = 48 + v;
      return;
    }
    let digits = 1;
    for (let x = v; x >= 10; x = Math.floor(x / 10)) digits++;
    let i = (this.n += digits);
    for (let x = v; i > this.n - digits; x = Math.floor(x / 10)) b[--i] = 48 + (x % 10);
  }

  point(t: number, n: number, ps: number, qs: number, xs: number, pm: number): void {
    const q = avg(qs, n);
    const w = avg(xs, n);
    const p = prefixOf(t);
    if (this.n === 1) {
      this.room(p.length).set(p.subarray(1), 1);
      this.n += p.length - 1;
    } else this.bytes(p);
    this.num(avg(ps, n));
    if (q === 0 && w === 0 && pm >= 0 && pm < 1024 && Number.isInteger(pm)) this.bytes(quietTail(pm));
    else {
      this.bytes(Q);
      this.num(q);
      this.bytes(W);
      this.num(w);
      this.bytes(M);
      this.num(pm);
      this.room(1)[this.n++] = 125; // }
    }
  }

  /** Rows of (time, n, ps, pm, qs, xs), as the series SQL selects them (`.values()`). */
  rows(rows: number[][]): void {
    for (const r of rows) this.point(r[0]!, r[1]!, r[2]!, r[4]!, r[5]!, r[3]!);
  }

  /** Raw points as rows of (time, players, queue, wait): each a bucket of one sample. */
  rawRows(rows: number[][]): void {
    for (const r of rows) this.point(r[0]!, 1, r[1]!, r[2]!, r[3]!, r[1]!);
  }

  /**
   * Day rows joined as `<day><points>/<day><points>…` in ascending day order, of buckets `step`
   * apart: the points with from ≤ time < to. False (and nothing kept of them) when the text is not
   * of that form (a '?' bucket, days out of order): the caller answers from the bucket rows.
   */
  days(s: string, step: number, from: number, to: number): boolean {
    const len = s.length;
    const before = this.n;
    let i = 0;
    let prevDay = -1;
    let dayStart = 0;
    // Five integers a bucket; each ends at the next character that is not a digit (a leading '-'
    // is its sign), and all but the last must end at a ','.
    const v = [0, 0, 0, 0, 0];
    while (i < len) {
      let c = s.charCodeAt(i);
      if (c === 47 || i === 0) {
        if (c === 47) c = s.charCodeAt(++i);
        let d = 0;
        const start = i;
        while (c >= 48 && c <= 57) {
          d = d * 10 + (c - 48);
          c = s.charCodeAt(++i);
        }
        if (i === start || d <= prevDay) return this.undo(before);
        prevDay = d;
        dayStart = d * DAY_MS;
      }
      if (c < 97 || c > 122) return this.undo(before);
      const t = dayStart + (c - 97) * step;
      for (let k = 0; k < 5; k++) {
        c = s.charCodeAt(++i);
        let neg = false;
        if (c === 45) {
          neg = true;
          c = s.charCodeAt(++i);
        }
        let x = 0;
        const start = i;
        while (c >= 48 && c <= 57) {
          x = x * 10 + (c - 48);
          c = s.charCodeAt(++i);
        }
        if (i === start || (k < 4 && c !== 44)) return this.undo(before);
        v[k] = neg ? -x : x;
      }
      if (t >= from && t < to) this.point(t, v[0]!, v[1]!, v[2]!, v[3]!, v[4]!);
    }
    return true;
  }

  private undo(length: number): false {
    this.n = length;
    return false;
  }

  /** The JSON array's UTF-8 bytes (its own copy; the writer is done and gives its buffer back). */
  body(): Uint8Array {
    this.room(1)[this.n++] = 93; // ]
    const out = this.buf.slice(0, this.n);
    shared = this.buf;
    return out;
  }
}
