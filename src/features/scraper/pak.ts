// A reader of Enfusion `.pak` files (a mod's `data.pak`) that lists the resource paths inside
// without reading the data: it walks the chunk headers through random-access reads, skips
// `DATA` (gigabytes) by its length, and parses the `FILE` chunk (the directory tree).
//
// Format (as documented by landaire/enfusion_tools, crates/enfusion_pak/README.md and
// src/parser.rs; this is our own reading of it):
//   "FORM" u32be(size of the rest) "PAC1", then chunks: 4-byte id, u32be length, data.
//   HEAD  length 0x1c; starts with u32le version (0x10003 is the version known)
//   DATA  the packed files' bytes (skipped)
//   FILE  the tree, pre-order: u8 kind (0 folder, 1 file), u8 name length, name (UTF-8);
//         a folder: u32le child count; a file: u32le offset, u32le compressed size,
//         u32le size, u32le 0, u16le 0, u8 compressed, u8 level, u32le timestamp (24 bytes).
//   The first entry is the root folder (its name is empty). The format carries no GUIDs (they
//   live in each resource's .meta inside DATA), so paths come without them.
// A broken file is refused with an error naming the offset; nothing loops or reads past the end.

export const PAK_VERSION = 0x10003;
const FILE_META_BYTES = 24;
const MAX_DEPTH = 64;

export class PakError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} (at byte offset ${offset})`);
    this.name = "PakError";
  }
}

/** Random-access reads of a file: a local file, or an SFTP handle. */
export interface RandomAccess {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export interface PakListing {
  version: number;
  /** Resource paths ("Prefabs/Vehicles/Wheeled/UAZ469/UAZ469.et"), in the tree's order. */
  paths: string[];
  /** What the reader asked for, in bytes (headers and the FILE chunk). */
  bytesRead: number;
}

const ascii = (b: Uint8Array) => String.fromCharCode(...b);
const be32 = (b: Uint8Array, o: number) => ((b[o]! << 24) >>> 0) + (b[o + 1]! << 16) + (b[o + 2]! << 8) + b[o + 3]!;
const le32 = (b: Uint8Array, o: number) => (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;

export async function listPak(file: RandomAccess): Promise<PakListing> {
  let bytesRead = 0;
  const read = async (offset: number, length: number) => {
    if (offset + length > file.size) throw new PakError(`the file ends at byte ${file.size}, ${offset + length - file.size} bytes too early`, offset);
    const b = await file.read(offset, length);
    if (b.length !== length) throw new PakError(`short read: ${b.length} of ${length} bytes`, offset);
    bytesRead += length;
    return b;
  };

  if (file.size < 12) throw new PakError(`not a PAK file: ${file.size} bytes`, 0);
  const form = await read(0, 12);
  if (ascii(form.subarray(0, 4)) !== "FORM" || ascii(form.subarray(8, 12)) !== "PAC1") {
    throw new PakError(`not a PAK file: starts with "${ascii(form.subarray(0, 4)).replace(/[^\x20-\x7e]/g, "?")}", expected FORM…PAC1`, 0);
  }
  const declared = be32(form, 4) + 8;
  if (declared !== file.size) throw new PakError(`the FORM chunk says the file has ${declared} bytes but it has ${file.size} (truncated or damaged)`, 4);

  let version: number | null = null;
  let pos = 12;
  while (pos < file.size) {
    const h = await read(pos, 8);
    const id = ascii(h.subarray(0, 4));
    const len = be32(h, 4);
    const body = pos + 8;
    if (body + len > file.size) throw new PakError(`chunk "${id.replace(/[^\x20-\x7e]/g, "?")}" of ${len} bytes runs past the end of the file (${file.size} bytes)`, pos);
    if (id === "HEAD") {
      if (len < 4) throw new PakError(`HEAD chunk of ${len} bytes is too short`, pos);
      version = le32(await read(body, 4), 0);
      if (version !== PAK_VERSION) throw new PakError(`unsupported PAK version 0x${version.toString(16)} (known: 0x${PAK_VERSION.toString(16)})`, body);
    } else if (id === "FILE") {
      if (version === null) throw new PakError("FILE chunk before the HEAD chunk", pos);
      return { version, paths: parseTree(await read(body, len), body), bytesRead };
    }
    // DATA and anything else: skipped by length.
    pos = body + len;
  }
  throw new PakError("no FILE chunk", pos);
}

/** The FILE chunk's pre-order tree → full paths. `base` is the chunk's offset in the file. */
function parseTree(b: Uint8Array, base: number): string[] {
  const paths: string[] = [];
  const names: string[] = [];
  // Remaining children per open folder (the root is the first folder).
  const remaining: number[] = [];
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let o = 0;
  let first = true;
  while (o < b.length) {
    const at = base + o;
    if (o + 2 > b.length) throw new PakError("file entry cut short", at);
    const kind = b[o]!;
    const nameLen = b[o + 1]!;
    if (kind > 1) throw new PakError(`unknown file entry kind ${kind}`, at);
    if (o + 2 + nameLen > b.length) throw new PakError("file entry name runs past the FILE chunk", at);
    let name: string;
    try {
      name = decoder.decode(b.subarray(o + 2, o + 2 + nameLen));
    } catch {
      throw new PakError("file entry name is not UTF-8", at);
    }
    o += 2 + nameLen;
    if (!first) {
      if (remaining.length === 0) throw new PakError("entry after the root folder was complete", at);
      remaining[remaining.length - 1]!--;
    }
    if (kind === 0) {
      if (o + 4 > b.length) throw new PakError("folder entry cut short", at);
      const children = le32(b, o);
      o += 4;
      // Each child takes at least 2 bytes: a count beyond what is left is damage, not data.
      if (children > (b.length - o) / 2) throw new PakError(`folder "${name}" claims ${children} entries, more than the chunk can hold`, at);
      if (remaining.length >= MAX_DEPTH) throw new PakError(`folders nested deeper than ${MAX_DEPTH}`, at);
      if (!first) names.push(name);
      remaining.push(children);
      first = false;
    } else {
      if (first) throw new PakError("the tree does not start with a folder", at);
      if (o + FILE_META_BYTES > b.length) throw new PakError(`file entry "${name}" cut short`, at);
      o += FILE_META_BYTES;
      paths.push(names.length ? `${names.join("/")}/${name}` : name);
    }
    // Close every folder whose entries are all read.
    while (remaining.length > 0 && remaining[remaining.length - 1] === 0) {
      remaining.pop();
      if (remaining.length > 0) names.pop();
    }
    if (!first && remaining.length === 0 && o < b.length) throw new PakError(`${b.length - o} bytes after the end of the tree`, base + o);
  }
  if (remaining.length > 0) throw new PakError("the FILE chunk ends inside a folder", base + b.length);
  return paths;
}

/** A local file as RandomAccess (Bun.file slices read only what is asked). */
export function localFile(path: string): RandomAccess {
  const f = Bun.file(path);
  return { size: f.size, read: async (offset, length) => new Uint8Array(await f.slice(offset, offset + length).arrayBuffer()) };
}
