// The 1,000-mod list page's interaction latency (docs/performance.md "The 1,000-mod list page"),
// measured in a real browser against the compiled binary, never asserted in unit tests:
//   bun bench/web-list.ts            (npm run bench:web-list)
// A list of 1,000 catalog mods (each with a dependency, a few missing, an age rule) is opened
// as its owner in Debian's chromium, driven by playwright-core:
//   open   — navigation start → the table shows its first rows and counts 1,000 mods
//   filter — an input event in the filter box → the frame after the table shows the matching rows
//            (one of 1,000), then back to all (timed inside the page)
//   scroll — scrolling the page from top to bottom in 20 steps: the longest frame while scrolling
//            (rows mount in 50-row chunks on the way; all 1,000 are in the table at the end)
// Each is run RUNS times; the median and the worst are reported. Results: bench/results/web-list-<date>.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Database } from "bun:sqlite";
import { chromium } from "playwright-core";
import { startBinary } from "../test/e2e/build";

// The functions given to page.evaluate run in the browser; these names are its globals there
// (declared here only for the type checker, which compiles this file without the DOM library).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const { document, window, requestAnimationFrame, HTMLInputElement } = globalThis as any;

const ROOT = resolve(import.meta.dir, "..");
const RUNS = Number(process.env.RUNS ?? 7);
const N = 1000;

const work = mkdtempSync(join(tmpdir(), "loadout-bench-web-list-"));
const bin = join(work, "loadout");
const build = Bun.spawnSync([process.execPath, "scripts/build.ts", bin], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr}`);
const env = {
  LOADOUT_DATA_DIR: join(work, "data"),
  LOADOUT_ADMIN_EMAIL: "bench@example.com",
  LOADOUT_ADMIN_PASSWORD: "bench password",
  LOADOUT_RATE_LIMIT_ANON: "0",
  LOADOUT_RATE_LIMIT_USER: "0",
};
const { proc, base } = await startBinary(bin, work, env);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const results: Record<string, { median_ms: number; worst_ms: number; runs: number[] }> = {};
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const login = (await (
    await fetch(`${base}/api/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "bench@example.com", password: "bench password" }) })
  ).json()) as { token: string };
  const auth = { authorization: `Bearer ${login.token}`, "content-type": "application/json" };
  const list = (await (await fetch(`${base}/api/v1/lists`, { method: "POST", headers: auth, body: JSON.stringify({ name: "Thousand", description: "1,000 mods", is_public: false }) })).json()) as { id: string };
  await fetch(`${base}/api/v1/lists/${list.id}`, { method: "PUT", headers: auth, body: JSON.stringify({ max_mod_age_days: 365 }) });
  const me = (await (await fetch(`${base}/api/v1/auth/me`, { headers: auth })).json()) as { id: string };

  // The catalog and the list's rows, written straight into the binary's database (WAL).
  const db = new Database(join(work, "data", "loadout.db"));
  db.exec("PRAGMA busy_timeout = 5000");
  const now = Date.now();
  const id = (i: number) => (0x5000000000000000n + BigInt(i)).toString(16).toUpperCase();
  const words = ["Tactical", "Vehicles", "Weapons", "Terrain", "Uniforms", "Sounds", "Medical", "Radio", "Aircraft", "Boats"];
  db.transaction(() => {
    const mod = db.query("INSERT INTO mods (workshop_id, name, version, size_bytes, state, game_version, updated_at, created_at) VALUES (?, ?, ?, ?, 'active', '1.2.0', ?, ?)");
    const ver = db.query("INSERT INTO mod_versions (workshop_id, version, size_bytes, created_at, game_version) VALUES (?, ?, ?, ?, '1.2.0')");
    const dep = db.query("INSERT INTO mod_dependencies (workshop_id, depends_on_id) VALUES (?, ?)");
    const item = db.query("INSERT INTO list_items (list_id, workshop_id, name, position, pinned_version, added_by, added_at) VALUES (?, ?, '', ?, NULL, ?, ?)");
    for (let i = 0; i < N + 20; i++) {
      const updated = now - ((i * 7919) % 500) * 86_400_000; // some older than the 365-day rule
      mod.run(id(i), `${words[i % words.length]} ${words[(i * 7) % words.length]} pack ${i}`, `1.${i % 9}.0`, 1_000_000 + ((i * 104729) % 900_000_000), updated, updated);
      for (let v = 0; v < 3; v++) ver.run(id(i), `1.${v}.0`, 1_000_000, updated - (3 - v) * 86_400_000);
      // Chains of up to five mods (as in real packs); every 50th needs a mod the list lacks.
      if (i < N && i % 50 === 0) dep.run(id(i), id(N + ((i / 50) % 20)));
      else if (i % 5 !== 0) dep.run(id(i), id(i - 1));
      if (i < N) item.run(list.id, id(i), i, me.id, now - i * 60_000);
    }
  })();
  db.close();

  const apiRuns: number[] = [];
  for (let r = 0; r < 10; r++) {
    const t0 = performance.now();
    await (await fetch(`${base}/api/v1/lists/${list.id}`, { headers: auth })).arrayBuffer();
    apiRuns.push(Math.round(performance.now() - t0));
  }
  results["list detail API (fetch)"] = { median_ms: median(apiRuns), worst_ms: Math.max(...apiRuns), runs: apiRuns };

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript((token: string) => localStorage.setItem("loadout.token", token), login.token);
  const page = await context.newPage();
  const url = `${base}/lists/${list.id}`;
  // Rows that are rendered (the table mounts 50-row chunks as they near the viewport).
  const REAL = "table tbody:not([data-placeholder]) tr";
  const shownAll = () => page.waitForFunction((n) => document.querySelector("p[aria-live]")?.textContent === n && document.querySelectorAll("table tbody:not([data-placeholder]) tr").length > 0, `${N.toLocaleString("en-US")} mods`, { timeout: 60_000 });

  const open: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    await page.goto("about:blank");
    const t0 = Date.now();
    await page.goto(url);
    await shownAll();
    open.push(Date.now() - t0);
  }
  results.open = { median_ms: median(open), worst_ms: Math.max(...open), runs: open };

  // The list detail's own API time (server + transfer), from the last open's resource timing.
  const apiMs = await page.evaluate(
    (path) => performance.getEntriesByType("resource").filter((e) => e.name.endsWith(path)).map((e) => Math.round((e as PerformanceResourceTiming).responseEnd - (e as PerformanceResourceTiming).requestStart))[0] ?? -1,
    `/api/v1/lists/${list.id}`,
  );
  results["open: list detail API"] = { median_ms: apiMs, worst_ms: apiMs, runs: [apiMs] };

  // A keystroke as the user makes it, timed inside the page: the input event → the frame
  // after the table shows the result (no round trips to the test driver in the measurement).
  const filter: number[] = [];
  const type = (value: string, want: string) =>
    page.evaluate(
      async ({ value, want }) => {
        const input = document.getElementById("filter-mods");
        const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
        const t0 = performance.now();
        setter.call(input, value);
        input.dispatchEvent(new Event("input", { bubbles: true }));
        for (;;) {
          await new Promise((r) => requestAnimationFrame(() => r(null)));
          if (document.querySelector("p[aria-live]")?.textContent === want && document.querySelector("table tbody:not([data-placeholder]) tr")) break;
        }
        await new Promise((r) => requestAnimationFrame(() => r(null)));
        return performance.now() - t0;
      },
      { value, want },
    );
  const box = page.getByLabel("Filter mods");
  for (let r = 0; r < RUNS; r++) {
    const term = `pack ${100 + r}`; // "pack 100", "pack 1000"… a handful of rows
    filter.push(await type(term, `1 of ${N.toLocaleString("en-US")} mods`));
    filter.push(await type("", `${N.toLocaleString("en-US")} mods`)); // and back to all 1,000
  }
  results["filter (narrow, then all)"] = { median_ms: Math.round(median(filter)), worst_ms: Math.round(Math.max(...filter)), runs: filter.map(Math.round) };

  const scroll: number[] = [];
  const blanks: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    await page.reload();
    await shownAll();
    // Page-down through the whole list, two frames per page: the longest frame, and how many
    // pages still showed an unrendered chunk at the viewport's centre after those two frames.
    const { worst, blank } = await page.evaluate(async () => {
      const frame = () => new Promise((res) => requestAnimationFrame(() => res(null)));
      let last = performance.now();
      let worstFrame = 0;
      let blankPages = 0;
      for (let page = 0; page < 500; page++) {
        const before = window.scrollY;
        window.scrollBy(0, window.innerHeight);
        if (window.scrollY === before) break; // the bottom
        for (let f = 0; f < 2; f++) {
          await frame();
          const t = performance.now();
          worstFrame = Math.max(worstFrame, t - last);
          last = t;
        }
        const el = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
        if (el?.closest("tbody[data-placeholder]")) blankPages++;
      }
      return { worst: worstFrame, blank: blankPages };
    });
    blanks.push(blank);
    scroll.push(Math.round(worst));
  }
  results["scroll (longest frame)"] = { median_ms: median(scroll), worst_ms: Math.max(...scroll), runs: scroll };
  console.log(`scroll: pages that showed a blank chunk after two frames: ${blanks.join(", ")} (of ~${Math.ceil((N * 41) / 900)})`);

  if (process.env.PROFILE) {
    // Where an open and a filter round trip spend the main thread: the trace's top-level events by name.
    await browser.startTracing(page, { categories: ["devtools.timeline"] });
    await page.goto(url);
    await shownAll();
    await box.fill("pack 100");
    await page.waitForFunction((q) => document.querySelectorAll(q).length <= 20, REAL);
    await box.fill("");
    await shownAll();
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: { name: string; ph: string; dur?: number }[] };
    const by = new Map<string, number>();
    for (const e of trace.traceEvents) if (e.ph === "X" && e.dur) by.set(e.name, (by.get(e.name) ?? 0) + e.dur / 1000);
    for (const [name, ms] of [...by].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${name.padEnd(32)} ${ms.toFixed(0)} ms`);
  }
  await context.close();
} finally {
  await browser.close();
  proc.kill();
  rmSync(work, { recursive: true, force: true });
}

for (const [k, v] of Object.entries(results)) console.log(`${k.padEnd(24)} median ${String(v.median_ms).padStart(5)} ms   worst ${String(v.worst_ms).padStart(5)} ms   (${v.runs.join(", ")})`);
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
const file = join(ROOT, `bench/results/web-list-${new Date().toISOString().slice(0, 10)}.json`);
writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), mods: N, runs: RUNS, loadavg: (await Bun.file("/proc/loadavg").text()).trim(), results }, null, 2) + "\n");
console.log(`written ${file}`);
