// `bun run build`: one executable at dist/loadout with the migrations (Bun macro) and the
// API docs bundle (file import) embedded. --bytecode cuts cold start; no --minify: it has
// broken Elysia apps (see the stack notes), and our end-to-end test runs against this binary.
// The web app is built first (Bun's HTML bundler, src/features/web/bundle.ts) and each file is
// embedded precompressed (`loadout-web/gz/<path>.gz` and `loadout-web/br/<path>.br`), read back at run time
// through Bun.embeddedFiles (src/features/web/assets.ts).
import { $ } from "bun";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { buildWebBundle, compress } from "../src/features/web/bundle";
import { EMBED_PREFIX } from "../src/features/web/assets";
import { RUNTIME_FLAGS } from "../src/shared/runtime-flags";

const outfile = process.argv[2] ?? "dist/loadout";
mkdirSync("dist", { recursive: true });
const started = performance.now();
const stage = mkdtempSync(join(process.cwd(), "dist/.web-"));
const webFiles: string[] = [];
let webGzip = 0;
for (const { path, bytes } of await buildWebBundle()) {
  const a = compress(path, bytes);
  for (const [ext, data] of [["gz", a.gz], ["br", a.br]] as const) {
    const file = join(stage, EMBED_PREFIX, ext, `${path.slice(1)}.${ext}`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, data);
    webFiles.push("./" + relative(process.cwd(), file));
  }
  webGzip += a.gz.length;
}
const result = await Bun.build({
  entrypoints: ["src/main.ts", ...webFiles],
  // Bun's cap on request headers is a runtime flag, not a Bun.serve option: raised so that the
  // app's own 431 {error} answers headers between 16 and 64 KiB (src/shared/http.ts).
  compile: { outfile, execArgv: RUNTIME_FLAGS },
  bytecode: true,
  target: "bun",
  sourcemap: "none",
  naming: { asset: "[dir]/[name].[ext]" },
});
rmSync(stage, { recursive: true, force: true });
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
const size = (await $`stat -c %s ${outfile}`.text()).trim();
console.log(
  `built ${outfile} (${(Number(size) / 1e6).toFixed(1)} MB, web app ${webFiles.length / 2} files, ${(webGzip / 1024).toFixed(0)} KB gzip) in ${Math.round(performance.now() - started)} ms`,
);
