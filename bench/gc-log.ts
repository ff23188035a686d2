// Summarises JavaScriptCore's collection log (BUN_JSC_logGC=1 on stderr): each line is one pause
// (`p=… ms`) of a collection that starts with `START … => EdenCollection|FullCollection` and may
// go on concurrently over more lines until `END]`. Prints, per kind, the collections, their pauses
// (each a stop of the JavaScript thread: what a request waiting behind it pays) and their summed
// pause per collection. Only the lines after a `=== ` marker when there is one (bench/heap-census.ts
// prints one before its latency phase).
//   BUN_JSC_logGC=1 bun bench/heap-census.ts 2> gc.txt; bun bench/gc-log.ts gc.txt
import { readFileSync } from "node:fs";

const text = readFileSync(process.argv[2]!, "utf8");
const marker = text.lastIndexOf("\n=== ");
const lines = (marker >= 0 ? text.slice(marker) : text).split("\n").filter((l) => l.startsWith("[GC<"));
const kinds = new Map<string, { collections: number[]; pauses: number[] }>();
let kind = "?";
let sum = 0;
for (const l of lines) {
  const start = /START \w+ \d+kb => (\w+)Collection/.exec(l);
  if (start) {
    kind = start[1]!;
    sum = 0;
  }
  const p = /p=([\d.]+)ms/.exec(l);
  if (!p) continue;
  const k = kinds.get(kind) ?? { collections: [], pauses: [] };
  kinds.set(kind, k);
  k.pauses.push(Number(p[1]));
  sum += Number(p[1]);
  if (l.includes("END]")) k.collections.push(sum);
}
const q = (a: number[], f: number) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[Math.min(s.length - 1, Math.floor(f * s.length))]!.toFixed(1) : "-";
};
for (const [k, v] of kinds) {
  const total = v.pauses.reduce((a, b) => a + b, 0);
  console.log(
    `${k}: ${v.collections.length} collections, ${v.pauses.length} pauses: p50 ${q(v.pauses, 0.5)} p90 ${q(v.pauses, 0.9)} max ${q(v.pauses, 1)} ms, ` +
      `summed per collection p50 ${q(v.collections, 0.5)} max ${q(v.collections, 1)} ms; ${total.toFixed(0)} ms paused in all`,
  );
}
