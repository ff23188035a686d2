// Packed texts (packed-texts.ts) give back every text exactly as it went in: across chunk
// boundaries, with wide characters (surrogate pairs included), empty texts, nulls and duplicates,
// and the index finds every text (and no other).
import { describe, expect, test } from "bun:test";
import { mulberry32 } from "../../test/fixtures/prng";
import { CHUNK_CHARS, PackedTextIndex, TextPacker } from "./packed-texts";

function randomTexts(seed: number, n: number): (string | null)[] {
  const rnd = mulberry32(seed);
  const alphabet = ["a", "B", "7", " ", "é", "ж", "中", "\u{1F600}", "\"", "\\", "\u0000"];
  const out: (string | null)[] = [];
  for (let i = 0; i < n; i++) {
    if (rnd() < 0.05) out.push(null);
    else if (rnd() < 0.1 && out.length > 0) out.push(out[Math.floor(rnd() * out.length)]!);
    else {
      // Mostly short, some long enough to cross CHUNK_CHARS in a few texts.
      const len = rnd() < 0.01 ? Math.floor(rnd() * CHUNK_CHARS * 1.5) : Math.floor(rnd() * 40);
      let s = "";
      for (let k = 0; k < len; k++) s += alphabet[Math.floor(rnd() * (rnd() < 0.9 ? 4 : alphabet.length))];
      out.push(s);
    }
  }
  return out;
}

describe("packed texts", () => {
  test("every text back as it went in, two columns sharing the chunks", () => {
    const a = randomTexts(1, 3_000);
    const b = randomTexts(2, 2_000);
    const p = new TextPacker();
    const ca = p.column(a.length);
    const cb = p.column(b.length);
    a.forEach((s, i) => ca.set(i, s));
    b.forEach((s, i) => cb.set(i, s));
    p.finish();
    const pa = ca.build();
    const pb = cb.build();
    expect(pa.chunks).toBe(pb.chunks);
    expect(pa.chunks.length).toBeGreaterThan(2);
    expect(a.map((_, i) => pa.get(i))).toEqual(a);
    expect(b.map((_, i) => pb.get(i))).toEqual(b);
    for (let i = 0; i < a.length; i++) {
      expect(pa.has(i)).toBe(a[i] !== null);
      if (a[i] !== null) {
        expect(pa.equals(i, a[i]!)).toBe(true);
        expect(pa.equals(i, a[i]! + "x")).toBe(false);
      }
    }
    expect(pa.get(a.length)).toBeNull();
    // Every text held once, as it went in: the chunks hold exactly the texts' characters.
    const total = [...a, ...b].reduce((n, s) => n + (s?.length ?? 0), 0);
    expect(pa.chunks.join("").length).toBe(total);
  });

  test("the index finds each distinct text's first index, and -1 for any other text", () => {
    const texts = randomTexts(3, 5_000);
    const p = new TextPacker();
    const c = p.column(texts.length);
    texts.forEach((s, i) => c.set(i, s));
    p.finish();
    const ix = new PackedTextIndex(c.build());
    const first = new Map<string, number>();
    texts.forEach((s, i) => s !== null && !first.has(s) && first.set(s, i));
    for (const [s, i] of first) expect(ix.get(s)).toBe(i);
    for (const s of ["zzz-not-there", "a".repeat(41), "\u{1F601}"]) expect(ix.get(s)).toBe(-1);
  });

  test("no add after finish", () => {
    const p = new TextPacker();
    p.add("x");
    p.finish();
    expect(() => p.add("y")).toThrow();
  });
});
