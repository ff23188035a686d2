// The web app's budgets (docs/performance.md "The web app"), measured, never asserted in unit
// tests:
//   bun bench/web.ts            (npm run bench:web)
// 1. Bundle: the gzip size of what the first page loads (index.html's script and stylesheet)
//    against the 200 KB budget, what the catalog and a mod page load in all (with their own
//    chunks), and every lazily loaded chunk.
// 2. Lighthouse (npm `lighthouse`, run by node, Debian's /usr/bin/chromium) on the catalog and
//    a mod page of the compiled binary with the fake workshop's small catalog crawled into it:
//    performance ≥ 90, accessibility ≥ 95, best practices ≥ 95.
// Results: bench/results/web-<date>T<hhmm>.json; the numbers go to docs/performance.md by hand.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { Database } from "bun:sqlite";
import { buildWebBundle, CHUNKS_PATH } from "../src/features/web/bundle";
import { startFakeWorkshop } from "../test/fakes/workshop";
import { smallCatalog, SMALL } from "../test/fixtures/workshop/dataset";
import { freePort } from "../test/e2e/build";

const ROOT = resolve(import.meta.dir, "..");
const BUDGET_KB = 200;

// 1. Bundle sizes
const files = await buildWebBundle();
const gz = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;
const html = new TextDecoder().decode(files.find((f) => f.path === "/index.html")!.bytes);
const initialPaths = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
const initial = files.filter((f) => initialPaths.includes(f.path));
const initialGz = initial.reduce((n, f) => n + gz(f.bytes), 0) + gz(files.find((f) => f.path === "/index.html")!.bytes);
const chunks = files
  .filter((f) => f.path !== "/index.html" && f.path !== CHUNKS_PATH)
  .map((f) => ({ path: f.path, raw: f.bytes.length, gzip: gz(f.bytes), initial: initialPaths.includes(f.path) }))
  .sort((a, b) => b.gzip - a.gzip);
console.log(`first page: ${(initialGz / 1024).toFixed(1)} KB gzip (budget ${BUDGET_KB} KB) — ${initialGz / 1024 <= BUDGET_KB ? "within" : "OVER"}`);
// What a page needs in all: the first page's files and the page's own chunks (the build's chunk
// manifest: what the page's response preloads, src/features/web/preload.ts).
const manifest = JSON.parse(new TextDecoder().decode(files.find((f) => f.path === CHUNKS_PATH)!.bytes)) as Record<string, string[]>;
const pageGz = (modules: string[]) => {
  const paths = new Set(modules.flatMap((m) => manifest[m] ?? []));
  return initialGz + [...paths].reduce((n, p) => n + gz(files.find((f) => f.path === p)!.bytes), 0);
};
const pages = { catalog: pageGz(["catalog/catalog.page.tsx"]), mod: pageGz(["catalog/mod.page.tsx", "catalog/mod/overview.tsx"]), "mod dependencies": pageGz(["catalog/mod.page.tsx", "catalog/mod/dependencies.tsx"]) };
for (const [name, bytes] of Object.entries(pages)) console.log(`  the ${name} page with its chunks: ${(bytes / 1024).toFixed(1)} KB gzip`);
for (const c of chunks) console.log(`  ${c.initial ? "*" : " "} ${c.path.padEnd(44)} ${(c.gzip / 1024).toFixed(1).padStart(7)} KB gzip ${(c.raw / 1024).toFixed(1).padStart(8)} KB raw`);

// 2. Lighthouse against the compiled binary
const work = mkdtempSync(join(tmpdir(), "loadout-bench-web-"));
const bin = join(work, "loadout");
const build = Bun.spawnSync([process.execPath, "scripts/build.ts", bin], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr}`);
const fake = startFakeWorkshop({ mods: smallCatalog() });
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = Bun.spawn([bin, "serve"], {
  cwd: work,
  env: {
    PATH: process.env.PATH ?? "",
    LOADOUT_PORT: String(port),
    LOADOUT_HOST: "127.0.0.1",
    LOADOUT_DATA_DIR: join(work, "data"),
    LOADOUT_SCHEDULES: "off",
    LOADOUT_WORKSHOP_URL: fake.url,
    LOADOUT_WORKSHOP_RPS: "1000",
    LOADOUT_ADMIN_EMAIL: "bench@example.com",
    LOADOUT_ADMIN_PASSWORD: "bench password",
    LOADOUT_RATE_LIMIT_ANON: "0",
  },
  stdout: "ignore",
  stderr: "pipe",
});
const results: Record<string, Record<string, number>> = {};
try {
  for (let i = 0; i < 200 && !(await fetch(`${base}/api/v1/health`).then((r) => r.ok).catch(() => false)); i++) await Bun.sleep(50);
  const token = ((await (await fetch(`${base}/api/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "bench@example.com", password: "bench password" }) })).json()) as any).token;
  await fetch(`${base}/api/v1/jobs/scraper`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ mode: "full" }) });
  for (let i = 0; i < 300 && (await fetch(`${base}/api/v1/mods/${SMALL.chainA}`)).status !== 200; i++) await Bun.sleep(100);

  const pages = { catalog: `${base}/mods`, mod: `${base}/mods/${SMALL.chainA}`, "mod dependencies": `${base}/mods/${SMALL.chainA}?tab=dependencies` };
  // The fake catalog's images live on hosts this machine cannot reach (and the CSP refuses):
  // a real install loads them from the workshop CDN. Measured without them.
  const sqlite = new Database(join(work, "data", "loadout.db"));
  sqlite.exec("UPDATE mods SET image_url = NULL; DELETE FROM mod_screenshots");
  sqlite.close();
  for (const [name, url] of Object.entries(pages)) for (const mobile of [false, true]) {
    const out = join(work, `${name.replace(/\W+/g, "-")}-${mobile ? "mobile" : "desktop"}.json`);
    const key = `${name} (${mobile ? "mobile, Lighthouse's default throttling" : "desktop preset"})`;
    const flags = "--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync";
    const lh = Bun.spawnSync(
      ["node", join(ROOT, "node_modules/lighthouse/cli/index.js"), url, "--quiet", "--output=json", `--output-path=${out}`, "--chrome-path=/usr/bin/chromium", `--chrome-flags=${flags}`, "--only-categories=performance,accessibility,best-practices", ...(mobile ? [] : ["--preset=desktop"])],
      { cwd: ROOT, stdout: "pipe", stderr: "pipe" },
    );
    if (lh.exitCode !== 0) {
      console.log(`lighthouse ${key}: failed: ${lh.stderr.toString().slice(-500)}`);
      continue;
    }
    const report = (await Bun.file(out).json()) as any;
    results[key] = Object.fromEntries(Object.entries(report.categories).map(([k, v]: [string, any]) => [k, Math.round(v.score * 100)]));
    const audits = report.audits;
    results[key]!["LCP ms"] = Math.round(audits["largest-contentful-paint"].numericValue);
    results[key]!["TBT ms"] = Math.round(audits["total-blocking-time"].numericValue);
    console.log(`lighthouse ${key}: ${JSON.stringify(results[key])}`);
    for (const [k, v] of Object.entries(report.categories) as [string, any][]) {
      if (v.score < 1) {
        const failing = v.auditRefs
          .map((r: any) => audits[r.id])
          .filter((a: any) => a && a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative")
          .map((a: any) => a.id);
        if (failing.length) console.log(`    ${k}: below full marks on ${failing.join(", ")}`);
      }
    }
  }
} finally {
  server.kill();
  fake.stop();
  rmSync(work, { recursive: true, force: true });
}

mkdirSync(join(ROOT, "bench/results"), { recursive: true });
// One file a run (two runs of a day are both kept): web-<date>T<hhmm>.json.
const file = join(ROOT, `bench/results/web-${new Date().toISOString().slice(0, 16).replace(":", "")}.json`);
writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), first_page_gzip_bytes: initialGz, pages_gzip_bytes: pages, budget_kb: BUDGET_KB, chunks, lighthouse: results }, null, 2) + "\n");
console.log(`written ${file}`);
