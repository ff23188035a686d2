// The PAK reader against files written in the documented format (test/fixtures/pak-writer.ts):
// every path listed, DATA never read, broken files refused with the offset named.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listPak, localFile, PakError, type RandomAccess } from "./pak";
import { pakBytes, writePakFile } from "../../../test/fixtures/pak-writer";

const mem = (b: Uint8Array): RandomAccess & { reads: [number, number][] } => {
  const reads: [number, number][] = [];
  return { size: b.length, reads, read: async (o, l) => (reads.push([o, l]), b.slice(o, o + l)) };
};

const PATHS = [
  "Prefabs/Vehicles/Wheeled/UAZ469/UAZ469.et",
  "Prefabs/Vehicles/Wheeled/UAZ469/UAZ469_covered.et",
  "Prefabs/Vehicles/Helicopters/Mi8MT/Mi8MT_armed.et",
  "Prefabs/Weapons/Rifles/AK74/Rifle_AK74.et",
  "Configs/Arsenal/Arsenal.conf",
  "README.txt",
];

describe("PAK reader", () => {
  test("lists every path of a nested tree, in order, reading only headers and the FILE chunk", async () => {
    const file = mem(pakBytes(PATHS, { dataSize: 1_000_000 }));
    const r = await listPak(file);
    expect(r.version).toBe(0x10003);
    expect(r.paths.sort()).toEqual([...PATHS].sort());
    expect(r.bytesRead).toBeLessThan(2_000);
    expect(file.reads.some(([o, l]) => l >= 1_000_000)).toBe(false); // DATA was skipped
  });

  test("thousands of paths", async () => {
    const many = Array.from({ length: 5000 }, (_, i) => `Prefabs/Props/Set${i % 37}/Group${i % 11}/Prop_${i}.et`);
    const r = await listPak(mem(pakBytes(many)));
    expect(r.paths.length).toBe(5000);
    expect(new Set(r.paths)).toEqual(new Set(many));
  });

  test("a sparse 1 GB pak on disk is listed from a few KB of reads", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loadout-pak-"));
    try {
      const path = join(dir, "data.pak");
      const size = writePakFile(path, PATHS, { dataSize: 1024 ** 3 });
      const f = localFile(path);
      expect(f.size).toBe(size);
      const r = await listPak(f);
      expect(r.paths.length).toBe(PATHS.length);
      expect(r.bytesRead).toBeLessThan(2_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const refuse = async (b: Uint8Array, message: RegExp) => {
    const err = await listPak(mem(b)).then(
      () => null,
      (e) => e,
    );
    expect(err).toBeInstanceOf(PakError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).toMatch(/at byte offset \d+/);
  };

  test("refuses a wrong magic, a truncated file, a chunk past the end, an unknown version, a damaged tree", async () => {
    const good = pakBytes(PATHS);
    const wrong = good.slice();
    wrong.set(new TextEncoder().encode("RIFF"), 0);
    await refuse(wrong, /not a PAK file: starts with "RIFF"/);
    await refuse(good.slice(0, good.length - 10), /says the file has \d+ bytes but it has \d+ \(truncated or damaged\)/);
    await refuse(good.slice(0, 5), /not a PAK file: 5 bytes/);
    // DATA's length pointing past the end (with FORM's size kept consistent)
    const past = good.slice();
    const dataAt = 12 + 8 + 0x1c;
    new DataView(past.buffer).setUint32(dataAt + 4, 0x7fffffff, false);
    await refuse(past, /chunk "DATA" of 2147483647 bytes runs past the end of the file/);
    await refuse(pakBytes(PATHS, { version: 0x20001 }), /unsupported PAK version 0x20001/);
    // a folder claiming more entries than the chunk can hold
    const tree = good.slice();
    const fileBody = 12 + (8 + 0x1c) + (8 + 64) + 8; // FORM, HEAD, DATA (64 bytes), FILE header
    new DataView(tree.buffer).setUint32(fileBody + 2, 1_000_000, true); // the root folder's child count
    await refuse(tree, /claims 1000000 entries, more than the chunk can hold/);
  });

  test("random damage never hangs or crashes: every corruption is a PakError or a listing", async () => {
    const good = pakBytes(PATHS);
    let seed = 42;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let i = 0; i < 500; i++) {
      const b = good.slice();
      for (let k = 0; k < 3; k++) b[Math.floor(rnd() * b.length)] = Math.floor(rnd() * 256);
      const r = await listPak(mem(b)).then(
        (x) => x,
        (e) => e,
      );
      if (!(r instanceof PakError)) expect(Array.isArray(r.paths)).toBe(true);
    }
  });
});
