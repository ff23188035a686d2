// Many texts kept as a few long strings and typed arrays of where each one starts, so that the
// garbage collector sees a few objects where there were hundreds of thousands (JavaScriptCore's
// collections mark every live string, and the catalog's long-lived structures held ~250,000 of
// them; each collection's pause grew with them).
//
// A TextPacker appends the texts to chunks of about CHUNK_CHARS characters (a text is never split
// over two chunks; a chunk is 8-bit when all its characters are Latin-1, so one wide character
// widens only its own chunk) and gives each text's place; the columns it builds (PackedTexts) read
// a text back as a slice of its chunk (a new short-lived string per read, collected young).

/** A chunk is closed once it holds at least this many characters. */
export const CHUNK_CHARS = 1 << 16;
/** A place is chunk * SPAN + offset (exact in a double: up to 2^21 chunks). */
const SPAN = 2 ** 32;

export class TextPacker {
  private readonly chunks: string[] = [];
  private parts: string[] = [];
  private partChars = 0;
  private finished = false;

  /** The place of `s` in the packed text. */
  add(s: string): number {
    if (this.finished) throw new Error("TextPacker: add after finish");
    if (this.partChars > 0 && this.partChars + s.length > CHUNK_CHARS) this.close();
    const at = this.chunks.length * SPAN + this.partChars;
    this.parts.push(s);
    this.partChars += s.length;
    return at;
  }

  /** A column of n texts (or nulls) packed here; its texts are readable once the packer is finished. */
  column(n: number): PackedColumnBuilder {
    return new PackedColumnBuilder(this, this.chunks, n);
  }

  /** Closes the last chunk (every column built from this packer is then complete). */
  finish(): void {
    if (this.finished) return;
    this.close();
    this.finished = true;
  }

  private close(): void {
    if (this.parts.length === 0) return;
    this.chunks.push(this.parts.join(""));
    this.parts = [];
    this.partChars = 0;
  }
}

export class PackedColumnBuilder {
  private readonly pos: Float64Array;
  private readonly len: Int32Array;
  constructor(
    private readonly packer: TextPacker,
    private readonly chunks: string[],
    n: number,
  ) {
    this.pos = new Float64Array(n);
    this.len = new Int32Array(n).fill(-1);
  }
  /** Text i (null: none). */
  set(i: number, s: string | null): void {
    if (s === null) {
      this.len[i] = -1;
      return;
    }
    this.pos[i] = this.packer.add(s);
    this.len[i] = s.length;
  }
  /** The column (its texts readable once the packer is finished). */
  build(): PackedTexts {
    return new PackedTexts(this.chunks, this.pos, this.len);
  }
}

/** n texts (or nulls) by index, as slices of a few chunks. */
export class PackedTexts {
  constructor(
    /** Shared by every column of one packer. */
    readonly chunks: readonly string[],
    private readonly pos: Float64Array,
    private readonly len: Int32Array,
  ) {}

  get length(): number {
    return this.len.length;
  }

  /** Text i, or null (also for an index out of range). */
  get(i: number): string | null {
    const l = this.len[i];
    if (l === undefined || l < 0) return null;
    const p = this.pos[i]!;
    const c = Math.floor(p / SPAN);
    const o = p - c * SPAN;
    return this.chunks[c]!.slice(o, o + l);
  }

  /** Whether text i is there (not null). */
  has(i: number): boolean {
    return (this.len[i] ?? -1) >= 0;
  }

  /** Whether text i equals s (no string made). */
  equals(i: number, s: string): boolean {
    const l = this.len[i];
    if (l === undefined || l !== s.length) return false;
    const p = this.pos[i]!;
    const c = Math.floor(p / SPAN);
    const o = p - c * SPAN;
    const chunk = this.chunks[c]!;
    for (let k = 0; k < l; k++) if (chunk.charCodeAt(o + k) !== s.charCodeAt(k)) return false;
    return true;
  }

  /** Bytes held by the positions and lengths (the chunks count separately: they may be shared). */
  get arrayBytes(): number {
    return this.pos.byteLength + this.len.byteLength;
  }
}

/** A text's hash for PackedTextIndex (native CRC-32 of its UTF-8: ~10× cheaper than a loop over its units in a build's cold code). */
export const hashText = (s: string): number => Bun.hash.crc32(s);

/** Bytes of chunks in memory (1 a character when Latin-1, else 2; a header each). */
export function chunkBytes(chunks: readonly string[]): number {
  let n = 0;
  for (const c of chunks) n += 32 + (/[^\u0000-\u00ff]/.test(c) ? 2 : 1) * c.length;
  return n;
}

/**
 * Text → index over the distinct non-null texts of a column, as one open-addressing table of
 * integers (a Map of string keys would keep a string object per key).
 */
export class PackedTextIndex {
  private readonly table: Int32Array;
  private readonly mask: number;

  /** `source`: the same texts as strings when the caller still holds them (hashed without slicing). */
  constructor(
    private readonly texts: PackedTexts,
    source?: readonly (string | null)[],
  ) {
    let size = 16;
    while (size < texts.length * 2) size *= 2;
    this.table = new Int32Array(size);
    this.mask = size - 1;
    for (let i = 0; i < texts.length; i++) {
      const s = source ? source[i]! : texts.get(i);
      if (s === null) continue;
      let h = hashText(s) & this.mask;
      while (this.table[h] !== 0) h = (h + 1) & this.mask;
      this.table[h] = i + 1;
    }
  }

  /** The first index whose text is s, or -1. */
  get(s: string): number {
    let h = hashText(s) & this.mask;
    for (;;) {
      const v = this.table[h]!;
      if (v === 0) return -1;
      if (this.texts.equals(v - 1, s)) return v - 1;
      h = (h + 1) & this.mask;
    }
  }

  get bytes(): number {
    return this.table.byteLength;
  }
}
