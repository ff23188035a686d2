// A stat series' JSON written straight from SQLite's row arrays into bytes (issue 29, round 2).
// A missed series read used to build an object per point (up to 2,920 of them), JSON.stringify
// the array and UTF-8 encode the text: twice the cost of stepping the rows out of SQLite. Here
// each point's text is copied into one reused byte buffer: the time as its ISO bytes (kept per
// time: bucket and scan times are the same for every server), the fixed key fragments, and the
// numbers as ASCII digits. The text is byte for byte JSON.stringify of the objects the *Read
// functions in service.ts build (series-json.test.ts and series-cache.test.ts check it).
import { toIso } from "../../shared/time";

/** A series row as SQLite gives it with .values(): time, n (samples), players sum, players max, queue sum, x sum. */
export type SeriesValues = [time: number, n: number, ps: number, pm: number, qs: number, xs: number];

/** Column of a SeriesValues row. */
export const COL = { ps: 2, pm: 3, qs: 4, xs: 5 } as const;

/** One field of a point: its JSON key and the column it comes from, averaged over n or as it is (a max). */
export interface SeriesField {
  key: string;
  col: (typeof COL)[keyof typeof COL];
  avg: boolean;
}

export interface SeriesShape {
  fields: SeriesField[];
  /** `{"time":"`, then `","<key 1>":`, `,"<key 2>":`, … as bytes. */
  frags: Uint8Array[];
  /** An upper bound of one point's bytes (numbers of at most 24 characters). */
  maxPoint: number;
}

const encoder = new TextEncoder();

export function seriesShape(fields: SeriesField[]): SeriesShape {
  // The first field's fragment starts with the time's closing quote.
  const frags = [encoder.encode(`{"time":"`), ...fields.map((f, i) => encoder.encode(`${i === 0 ? '"' : ""},${JSON.stringify(f.key)}:`))];
  const maxPoint = frags.reduce((s, f) => s + f.byteLength, 0) + 24 + fields.length * 24 + 2;
  return { fields, frags, maxPoint };
}

/** The same as JSON.stringify(Math.round(sum / n)) or 0 for the averages (service.ts's avg). */
const avg = (sum: number, n: number) => (n > 0 ? Math.round(sum / n) : 0);

// ISO time bytes per time: a year of 3-hour buckets is 2,920 times, shared by every server. At
// most 20,000 kept (~1.5 MB), then cleared.
const isoOfTime = new Map<number, Uint8Array>();
function isoBytes(t: number): Uint8Array {
  let b = isoOfTime.get(t);
  if (b === undefined) {
    if (isoOfTime.size >= 20_000) isoOfTime.clear();
    isoOfTime.set(t, (b = encoder.encode(toIso(t))));
  }
  return b;
}

// One buffer reused by every write (a write is synchronous); grown as needed, never shrunk past
// what the longest answer needed (a 365-day series is ~330 KB).
let buf = new Uint8Array(1 << 16);

function copy(src: Uint8Array, p: number): number {
  const b = buf;
  for (let i = 0; i < src.length; i++) b[p + i] = src[i]!;
  return p + src.length;
}

/** Writes the number as JSON.stringify does: digits for a safe non-negative integer, else its text. */
function writeNumber(v: number, p: number): number {
  const b = buf;
  if (Number.isSafeInteger(v) && v >= 0) {
    if (v < 10) {
      b[p] = 48 + v;
      return p + 1;
    }
    let len = 1;
    for (let q = v; q >= 10; q = Math.floor(q / 10)) len++;
    let q = v;
    for (let i = p + len - 1; i >= p; i--) {
      const d = q % 10;
      b[i] = 48 + d;
      q = (q - d) / 10;
    }
    return p + len;
  }
  // Negative, fractional, null: rare, so the exact text from JSON.stringify (ASCII).
  const s = JSON.stringify(v) ?? "null";
  for (let i = 0; i < s.length; i++) b[p + i] = s.charCodeAt(i);
  return p + s.length;
}

/** The series' JSON array of points as UTF-8 bytes (a fresh copy, safe to keep). */
export function writeSeriesJson(rows: SeriesValues[], shape: SeriesShape): Uint8Array {
  const need = rows.length * shape.maxPoint + 2;
  if (need > buf.length) buf = new Uint8Array(Math.max(need, buf.length * 2));
  const b = buf;
  const { fields, frags } = shape;
  const nf = fields.length;
  let p = 0;
  b[p++] = 0x5b; // [
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (i > 0) b[p++] = 0x2c; // ,
    p = copy(frags[0]!, p);
    p = copy(isoBytes(r[0]), p);
    const n = r[1];
    for (let f = 0; f < nf; f++) {
      const field = fields[f]!;
      p = copy(frags[f + 1]!, p);
      p = writeNumber(field.avg ? avg(r[field.col], n) : r[field.col], p);
    }
    b[p++] = 0x7d; // }
  }
  b[p++] = 0x5d; // ]
  return b.slice(0, p);
}
