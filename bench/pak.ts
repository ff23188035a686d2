// The PAK reader on a big file, measured, not asserted:  bun bench/pak.ts
// A 1 GB data.pak with 50,000 entries, written sparse (DATA is a hole), listed from disk
// through random-access reads: paths per second and bytes read.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listPak, localFile } from "../src/features/scraper/pak";
import { extractItems } from "../src/features/scraper/items";
import { writePakFile } from "../test/fixtures/pak-writer";

const ENTRIES = 50_000;
const KINDS = ["Vehicles/Wheeled", "Vehicles/Tracked", "Weapons/Rifles", "Weapons/Handguns", "Characters/Uniforms", "Props/Military", "Textures/Camo", "Sounds/Weapons"];
const paths = Array.from({ length: ENTRIES }, (_, i) => `Prefabs/${KINDS[i % KINDS.length]}/Set${i % 97}/Item_${i}.et`);
const dir = mkdtempSync(join(tmpdir(), "loadout-bench-pak-"));
try {
  const file = join(dir, "data.pak");
  const size = writePakFile(file, paths, { dataSize: 1024 ** 3 });
  const runs: number[] = [];
  let last = { paths: 0, bytesRead: 0 };
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const r = await listPak(localFile(file));
    runs.push(performance.now() - t0);
    last = { paths: r.paths.length, bytesRead: r.bytesRead };
  }
  const t1 = performance.now();
  const items = extractItems((await listPak(localFile(file))).paths);
  const classify = performance.now() - t1;
  const best = Math.min(...runs);
  console.log(`pak: ${(size / 1024 ** 3).toFixed(2)} GiB, ${last.paths} entries; read ${last.bytesRead.toLocaleString()} bytes (${((last.bytesRead / size) * 100).toFixed(3)} % of the file)`);
  console.log(`listing: best ${best.toFixed(1)} ms of 5 (${Math.round(last.paths / (best / 1000)).toLocaleString()} paths/s); with classification ${classify.toFixed(1)} ms → ${items.length} items`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
