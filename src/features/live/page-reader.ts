// The BattleMetrics page as bytes, its servers' mod lists left unread (issue 29 item 4; docs/live.md
// "Reading a page"). A page is ~380 KB of JSON of which ~70 % is the servers' mod lists
// (`attributes.details.reforger.mods`, ~4,000 `{modId, name, version}` objects a page); a steady
// scan finds ~95-100 % of them unchanged, yet JSON.parse made every one of them (~200,000 objects
// and ~600,000 strings a scan) only for the scan to hash them and throw them away: that garbage
// drove the collector, the heap's block warm-up thread and the page faults of a steady scan
// (docs/performance.md "Round 8, scan").
//
// scanPage walks the bytes once with a JSON tokenizer (strings with their escapes, numbers,
// literals, nesting) that accepts exactly the texts JSON.parse accepts, follows the path
// root.data[i].attributes.details.reforger.mods (keys compared as JSON.parse reads them, escapes
// included), and records the byte span of every array found there (a ModSpan: its raw bytes'
// hash, and where its first entry is). The page is then parsed once with each such array
// replaced by the placeholder `[k,"<PLACEHOLDER>"]` (k: the span's number; PLACEHOLDER: random,
// drawn once a process), so JSON.parse keeps for every key what it keeps of the whole text (the
// last of duplicate keys) and the readers (readServer, zod) judge the same shapes: every array at
// that path is a placeholder, and they accept any array there. An array there that is not one
// (the tokenizer missed a path) fails the page loudly rather than being read as another list.
// A server's list is parsed from its span (and normalised as before) only when the scan asks for
// it: when its raw hash differs from the stored one, or it is new.
//
// Any text the tokenizer refuses, or nests deeper than MAX_DEPTH, is parsed whole as before, so a
// refusal is JSON.parse's own (and the tokenizer could only err by accepting an invalid text,
// which page-reader.test.ts tests against JSON.parse on many generated, hand-made and mutated
// pages).
const decoder = new TextDecoder();

/** The placeholder's tag: a page cannot foresee it. */
export const PLACEHOLDER = Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("hex");
const placeholderTail = new TextEncoder().encode(`,"${PLACEHOLDER}"]`);

/** Nesting the tokenizer follows (a real page nests 7 deep); deeper texts are parsed whole. */
const MAX_DEPTH = 64;

// The tokenizer's place on the path to a server's mod list: the value being read is at...
const NONE = 0; // anywhere else
const ROOT = 1; // the page
const DATA = 2; // page.data
const ITEM = 3; // page.data[i]
const ATTRS = 4; // .attributes
const DETAILS = 5; // .details
const REFORGER = 6; // .reforger
const MODS = 7; // .mods

const KEYS: Record<number, { key: string; bytes: Uint8Array; next: number }> = {
  [ROOT]: { key: "data", bytes: new TextEncoder().encode("data"), next: DATA },
  [ITEM]: { key: "attributes", bytes: new TextEncoder().encode("attributes"), next: ATTRS },
  [ATTRS]: { key: "details", bytes: new TextEncoder().encode("details"), next: DETAILS },
  [DETAILS]: { key: "reforger", bytes: new TextEncoder().encode("reforger"), next: REFORGER },
  [REFORGER]: { key: "mods", bytes: new TextEncoder().encode("mods"), next: MODS },
};

/** One server's mod list as the page sent it: parsed (JSON.parse of its bytes) when first asked. */
export class ModSpan {
  private list: unknown[] | null = null;
  constructor(
    private readonly bytes: Uint8Array,
    readonly start: number,
    readonly end: number,
    /** Its first entry's bytes ([first, firstEnd)); first = -1 when the list is empty. */
    private readonly first: number,
    private readonly firstEnd: number,
    /** Bun.hash of the span's bytes (base 36): the same bytes are the same list. */
    readonly hash: string,
  ) {}

  /** The entries as JSON.parse of the whole page would have given them. */
  entries(): unknown[] {
    return (this.list ??= JSON.parse(decoder.decode(this.bytes.subarray(this.start, this.end))) as unknown[]);
  }

  /** The first entry alone (parsed on its own: a real list's first entry is a valid mod, so the
   * list is known to be non-empty without reading the rest). */
  firstEntry(): unknown {
    if (this.first < 0) return undefined;
    if (this.list) return this.list[0];
    return JSON.parse(decoder.decode(this.bytes.subarray(this.first, this.firstEnd)));
  }

  /** Whether the list was parsed (entries() called). */
  get parsed(): boolean {
    return this.list !== null;
  }

  get empty(): boolean {
    return this.first < 0;
  }
}

export interface ScannedPage {
  /** JSON.parse of the page, each mod list array replaced by `[k,PLACEHOLDER]`, k its index in spans. */
  body: unknown;
  /** null: the page was parsed whole (every list in it as it was sent). */
  spans: ModSpan[] | null;
}

class Refused extends Error {}
const refused = new Refused();

let b: Uint8Array = new Uint8Array(0);
let n = 0;
/** Flat [start, end, first, firstEnd] of every mod list array met. */
let found: number[] = [];

/**
 * Reads a page's bytes as `JSON.parse(new TextDecoder().decode(bytes))` would (what
 * `Response.json()` does: one leading BOM dropped, malformed UTF-8 read as U+FFFD), throwing the
 * same SyntaxError for a text it refuses, with the servers' mod lists left as spans.
 */
export function scanPage(bytes: Uint8Array): ScannedPage {
  b = bytes;
  n = bytes.length;
  found = [];
  let ok = false;
  try {
    let i = n >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
    i = value(ws(i), ROOT, 0);
    ok = ws(i) === n;
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
  } finally {
    b = new Uint8Array(0);
  }
  const spans = found;
  found = [];
  // Refused (or too deep, or no list to leave out): JSON.parse of the whole text, as before.
  if (!ok || spans.length === 0) return { body: JSON.parse(decoder.decode(bytes)), spans: null };
  const out: ModSpan[] = new Array(spans.length / 4);
  let size = n;
  for (let k = 0; k < out.length; k++) {
    const start = spans[4 * k]!;
    const end = spans[4 * k + 1]!;
    out[k] = new ModSpan(bytes, start, end, spans[4 * k + 2]!, spans[4 * k + 3]!, Bun.hash(bytes.subarray(start, end)).toString(36));
    size += 12 + placeholderTail.length - (end - start);
  }
  // The page without its lists: one buffer, one decode, one JSON.parse.
  const rest = new Uint8Array(size);
  let o = 0;
  let from = 0;
  for (let k = 0; k < out.length; k++) {
    const s = out[k]!;
    rest.set(bytes.subarray(from, s.start), o);
    o += s.start - from;
    rest[o++] = 0x5b; // [
    const digits = String(k);
    for (let d = 0; d < digits.length; d++) rest[o++] = digits.charCodeAt(d);
    rest.set(placeholderTail, o);
    o += placeholderTail.length;
    from = s.end;
  }
  rest.set(bytes.subarray(from, n), o);
  o += n - from;
  return { body: JSON.parse(decoder.decode(rest.subarray(0, o))), spans: out };
}

/** The index after JSON whitespace from i. */
function ws(i: number): number {
  while (i < n) {
    const c = b[i]!;
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else break;
  }
  return i;
}

/** One value from i (no whitespace before it); its end. `at` is its place on the path. */
function value(i: number, at: number, depth: number): number {
  if (i >= n) throw refused;
  const c = b[i]!;
  if (c === 0x22) return string(i);
  if (c === 0x7b) return object(i, at, depth + 1);
  if (c === 0x5b) {
    if (at !== MODS) return array(i, at === DATA ? ITEM : NONE, depth + 1);
    const k = found.length;
    found.push(i, 0, -1, 0);
    const end = array(i, -1, depth + 1);
    found[k + 1] = end;
    return end;
  }
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return number(i);
  if (c === 0x74) return literal(i, 0x74, 0x72, 0x75, 0x65); // true
  if (c === 0x66) {
    // false
    if (i + 5 <= n && b[i + 1] === 0x61 && b[i + 2] === 0x6c && b[i + 3] === 0x73 && b[i + 4] === 0x65) return i + 5;
    throw refused;
  }
  if (c === 0x6e) return literal(i, 0x6e, 0x75, 0x6c, 0x6c); // null
  throw refused;
}

function literal(i: number, c0: number, c1: number, c2: number, c3: number): number {
  if (i + 4 <= n && b[i] === c0 && b[i + 1] === c1 && b[i + 2] === c2 && b[i + 3] === c3) return i + 4;
  throw refused;
}

const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;
const isHex = (c: number | undefined) =>
  c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));

/** -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
function number(i: number): number {
  if (b[i] === 0x2d) i++;
  if (b[i] === 0x30) i++;
  else if (isDigit(b[i])) while (isDigit(b[++i]));
  else throw refused;
  if (b[i] === 0x2e) {
    if (!isDigit(b[++i])) throw refused;
    while (isDigit(b[++i]));
  }
  if (b[i] === 0x65 || b[i] === 0x45) {
    i++;
    if (b[i] === 0x2b || b[i] === 0x2d) i++;
    if (!isDigit(b[i])) throw refused;
    while (isDigit(b[++i]));
  }
  return i;
}

/** A string from its opening quote at i; the index after its closing quote. Bytes past ASCII are
 * taken as they are (malformed UTF-8 decodes to U+FFFD, never to a quote or a backslash). */
function string(i: number): number {
  i++;
  for (;;) {
    if (i >= n) throw refused;
    const c = b[i++]!;
    if (c === 0x22) return i;
    if (c === 0x5c) {
      const e = b[i++];
      if (e === 0x75) {
        if (!(isHex(b[i]) && isHex(b[i + 1]) && isHex(b[i + 2]) && isHex(b[i + 3]))) throw refused;
        i += 4;
      } else if (!(e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) {
        throw refused;
      }
    } else if (c < 0x20) throw refused;
  }
}

/** Whether the key [start, end) (quotes included) reads as JSON.parse reads it as `want`. */
function keyIs(start: number, end: number, want: { key: string; bytes: Uint8Array }): boolean {
  const w = want.bytes;
  if (end - start === w.length + 2) {
    let same = true;
    for (let k = 0; k < w.length; k++) {
      if (b[start + 1 + k] !== w[k]) {
        same = false;
        break;
      }
    }
    if (same) return true;
  }
  // An escaped key ("m\u006fds") is the same key to JSON.parse.
  for (let k = start + 1; k < end - 1; k++) {
    if (b[k] === 0x5c) return JSON.parse(decoder.decode(b.subarray(start, end))) === want.key;
  }
  return false;
}

function object(i: number, at: number, depth: number): number {
  if (depth > MAX_DEPTH) throw refused;
  const path = at === ROOT || at === ITEM || at === ATTRS || at === DETAILS || at === REFORGER ? KEYS[at]! : null;
  i = ws(i + 1);
  if (b[i] === 0x7d) return i + 1;
  for (;;) {
    if (b[i] !== 0x22) throw refused;
    const keyEnd = string(i);
    const child = path !== null && keyIs(i, keyEnd, path) ? path.next : NONE;
    i = ws(keyEnd);
    if (b[i] !== 0x3a) throw refused;
    i = ws(value(ws(i + 1), child, depth));
    const c = b[i];
    if (c === 0x2c) i = ws(i + 1);
    else if (c === 0x7d) return i + 1;
    else throw refused;
  }
}

/** An array from its `[` at i. `of` is its entries' place on the path; -1: a mod list (the
 * last entry of `found`), whose first entry's bytes are recorded. */
function array(i: number, of: number, depth: number): number {
  if (depth > MAX_DEPTH) throw refused;
  i = ws(i + 1);
  if (b[i] === 0x5d) return i + 1;
  const list = of === -1 ? found.length - 4 : -1;
  const entries = of === -1 ? NONE : of;
  let first = true;
  for (;;) {
    const end = value(i, entries, depth);
    if (first && list >= 0) {
      found[list + 2] = i;
      found[list + 3] = end;
    }
    first = false;
    i = ws(end);
    const c = b[i];
    if (c === 0x2c) i = ws(i + 1);
    else if (c === 0x5d) return i + 1;
    else throw refused;
  }
}
