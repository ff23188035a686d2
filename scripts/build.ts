// `bun run build`: one executable at dist/loadout with the migrations (Bun macro) and the
// API docs bundle (file import) embedded. --bytecode cuts cold start; no --minify: it has
// broken Elysia apps (see the stack notes), and our end-to-end test runs against this binary.
import { $ } from "bun";
import { mkdirSync } from "node:fs";

const outfile = process.argv[2] ?? "dist/loadout";
mkdirSync("dist", { recursive: true });
const started = performance.now();
const result = await Bun.build({
  entrypoints: ["src/main.ts"],
  compile: { outfile },
  bytecode: true,
  target: "bun",
  sourcemap: "none",
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
const size = (await $`stat -c %s ${outfile}`.text()).trim();
console.log(`built ${outfile} (${(Number(size) / 1e6).toFixed(1)} MB) in ${Math.round(performance.now() - started)} ms`);
