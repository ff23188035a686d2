// A .cpuprofile's samples counted per function (self and inclusive), optionally only those after
// the last sample of a marker function (bench/scan-prof.ts):
//   bun bench/prof-report.ts FILE [--after NAME | --before NAME] [--top N] [--under NAME]
import { readFileSync } from "node:fs";
import { argOf } from "./args";
const file = process.argv[2]!;
const after = argOf("after", "");
const top = Number(argOf("top", "40"));
const under = argOf("under", "");
// --before NAME: only the samples before the first sample of a marker function (a first sight in bench/scan-prof.ts).
const before = argOf("before", "");
type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
const p = JSON.parse(readFileSync(file, "utf8")) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n: Node) => `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber + 1}`;
let start = 0;
if (after) {
  for (let i = 0; i < p.samples.length; i++) if (byId.get(p.samples[i]!)!.callFrame.functionName === after) start = i + 1;
}
let end = p.samples.length;
if (before) {
  for (let i = 0; i < p.samples.length; i++) if (byId.get(p.samples[i]!)!.callFrame.functionName === before) {
    end = i;
    break;
  }
}
const self = new Map<string, number>();
const incl = new Map<string, number>();
let total = 0;
for (let i = start; i < end; i++) {
  let id: number | undefined = p.samples[i]!;
  const chain: Node[] = [];
  while (id !== undefined) {
    chain.push(byId.get(id)!);
    id = parent.get(id);
  }
  if (under && !chain.some((n) => n.callFrame.functionName === under)) continue;
  const leaf = chain[0]!;
  if (leaf.callFrame.functionName === "(idle)" || leaf.callFrame.functionName === "(program)" && false) continue;
  total++;
  self.set(label(leaf), (self.get(label(leaf)) ?? 0) + 1);
  for (const l of new Set(chain.map(label))) incl.set(l, (incl.get(l) ?? 0) + 1);
}
console.log(`samples ${total} (from ${start} of ${p.samples.length})`);
const show = (m: Map<string, number>, title: string) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${String(v).padStart(6)} ${(100 * v / total).toFixed(1).padStart(5)}%  ${k}`);
};
show(self, "self");
show(incl, "inclusive");
