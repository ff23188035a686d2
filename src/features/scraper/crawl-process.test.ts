// The crawl in its worker process (src/jobs/worker-process.ts, crawl-process.ts): real `serve`
// processes (`bun src/main.ts serve`) on real SQLite files against the fake workshop, compared
// with the same crawl run in process; a child killed mid-crawl, a parent killed mid-crawl.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeWorkshop, type FakeWorkshop } from "../../../test/fakes/workshop";
import { generateCatalog, SMALL, smallCatalog, ver } from "../../../test/fixtures/workshop/dataset";
import { testConfig } from "../../config";
import { createDeps } from "../../runtime";
import { createMemoryLogger } from "../../shared/log";
import { JOB_SCRAPE_FULL } from "./jobs";
import { CRAWL_PROCESS_ENV } from "./crawl-process";

const MAIN = resolve(import.meta.dir, "../../main.ts");
const COUNT = 400; // 25 listing pages
let fake: FakeWorkshop;
const dirs: string[] = [];
const procs: Bun.Subprocess[] = [];

beforeAll(() => {
  fake = startFakeWorkshop({ mods: generateCatalog({ count: COUNT, seed: 7 }) });
});
afterAll(() => {
  for (const p of procs) p.kill("SIGKILL");
  fake?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const env = (dir: string, extra: Record<string, string> = {}) => ({
  LOADOUT_DATA_DIR: dir,
  LOADOUT_SCHEDULES: "off",
  LOADOUT_LOG_LEVEL: "info",
  LOADOUT_WORKSHOP_URL: fake.url,
  LOADOUT_JWT_SECRET: "crawl-process-test-secret-0123456789",
  LOADOUT_WORKSHOP_RPS: "1000",
  ...extra,
});
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), "loadout-crawl-child-"));
  dirs.push(d);
  return d;
};

/** What the crawl wrote, without the times of the scrape. */
function catalog(dir: string) {
  const db = new Database(join(dir, "loadout.db"), { readonly: true });
  try {
    const all = (sql: string) => db.query(sql).all();
    return {
      mods: all("SELECT workshop_id, name, summary, author_name, version, size_bytes, state, tags_json, created_at, updated_at FROM mods ORDER BY workshop_id"),
      versions: all("SELECT * FROM mod_versions ORDER BY workshop_id, version"),
      deps: all("SELECT * FROM mod_dependencies ORDER BY workshop_id, depends_on_id"),
      tags: all("SELECT * FROM mod_tags ORDER BY 1, 2"),
    };
  } finally {
    db.close();
  }
}
const jobCounts = (dir: string) => {
  const db = new Database(join(dir, "loadout.db"), { readonly: true });
  try {
    return Object.fromEntries((db.query("SELECT type || ' ' || status AS k, count(*) AS n FROM jobs GROUP BY 1").all() as { k: string; n: number }[]).map((r) => [r.k, r.n]));
  } finally {
    db.close();
  }
};
const pending = (dir: string) => {
  try {
    const db = new Database(join(dir, "loadout.db"), { readonly: true });
    try {
      return (db.query("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')").get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return -1;
  }
};

const undispatched = (dir: string) => {
  const db = new Database(join(dir, "loadout.db"), { readonly: true });
  try {
    return (db.query("SELECT count(*) AS n FROM event_outbox WHERE dispatched_at IS NULL").get() as { n: number }).n;
  } finally {
    db.close();
  }
};

function queueCrawl(dir: string) {
  const deps = createDeps(testConfig({ LOADOUT_DATA_DIR: dir }), { log: createMemoryLogger("error") });
  deps.jobs.enqueue(JOB_SCRAPE_FULL, { mode: "full" }, { dedupeKey: "scrape:full" });
  deps.sqlite.close();
}

/** A `serve` process: its stdout lines collected, its URL once started. */
async function startService(dir: string, extra: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, MAIN, "serve"], {
    env: { ...(process.env as Record<string, string>), ...env(dir, extra), LOADOUT_PORT: "0", LOADOUT_HOST: "127.0.0.1" },
    stdout: "pipe",
    stderr: "inherit",
  });
  procs.push(proc);
  const lines: any[] = [];
  let url = "";
  void (async () => {
    let buf = "";
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
      buf += new TextDecoder().decode(chunk);
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        try {
          const o = JSON.parse(line);
          lines.push(o);
          if (o.msg === "loadout started") url = o.url;
        } catch {}
      }
    }
  })();
  await until(() => url !== "", 20_000);
  return { proc, lines, get url() { return url; } };
}

async function until(ok: () => boolean | Promise<boolean>, ms: number, what = "condition") {
  const end = performance.now() + ms;
  while (!(await ok())) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** Children of `pid` (from /proc: the kernel has no children file here). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const e of readdirSync("/proc")) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) out.push(Number(e));
    } catch {}
  }
  return out;
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
};
const metric = async (url: string, name: string) => {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = text.match(new RegExp(`^${name.replace(/[{}"]/g, (c) => "\\" + c)} (\\S+)$`, "m"));
  return m ? Number(m[1]) : null;
};

let reference: ReturnType<typeof catalog>;

describe("the crawl in a worker process", () => {
  test("gives the catalog the same crawl gives in process, and the service answers from it without a restart", async () => {
    // in process (JobQueue.drain), the reference
    const a = newDir();
    const deps = createDeps(testConfig({ ...env(a), LOADOUT_LOG_LEVEL: "error" }), { log: createMemoryLogger("error") });
    deps.jobs.enqueue(JOB_SCRAPE_FULL, { mode: "full" }, { dedupeKey: "scrape:full" });
    while ((await deps.jobs.drain()) > 0);
    deps.sqlite.close();
    reference = catalog(a);
    expect(reference.mods.length).toBe(COUNT);

    // through `serve` and its child
    const b = newDir();
    const svc = await startService(b);
    // the service's caches hold the empty catalog first
    const before: any = await (await fetch(`${svc.url}/api/v1/mods?limit=5`)).json();
    expect(before.total).toBe(0);
    const firstId = (reference.mods[0] as { workshop_id: string }).workshop_id;
    expect((await fetch(`${svc.url}/api/v1/mods/${firstId}`)).status).toBe(404);
    queueCrawl(b);
    await until(() => pending(b) === 0, 30_000, "the crawl");
    await until(async () => (await metric(svc.url, `loadout_worker_process_exits_total{worker="crawl",outcome="idle"}`)) === 1, 10_000, "the child's exit");
    expect(catalog(b)).toEqual(reference);
    expect(Object.keys(jobCounts(b)).every((k) => k.endsWith(" succeeded"))).toBe(true);

    // the parent's API sees the child's commits (generation counters moved by triggers)
    const after: any = await (await fetch(`${svc.url}/api/v1/mods?limit=5`)).json();
    expect(after.total).toBe(COUNT);
    const detail = await fetch(`${svc.url}/api/v1/mods/${firstId}`);
    expect(detail.status).toBe(200);
    const name = (reference.mods[0] as { name: string }).name;
    // the search index too: the mod's whole name, ranked among the mods that share its words
    const found: any = await (await fetch(`${svc.url}/api/v1/mods?q=${encodeURIComponent(name)}&limit=100`)).json();
    expect(found.total).toBeGreaterThan(0);
    expect(found.mods.map((m: { name: string }) => m.name)).toContain(name);
    const health: any = await (await fetch(`${svc.url}/api/v1/health`)).json();
    expect(health.sources.workshop.last_ok_at).not.toBeNull();

    // what the child cost, in the parent's metrics; its log lines on the same output, tagged
    expect(await metric(svc.url, `loadout_worker_process_starts_total{worker="crawl"}`)).toBe(1);
    expect((await metric(svc.url, `loadout_worker_process_cpu_seconds_total{worker="crawl"}`))!).toBeGreaterThan(0);
    expect((await metric(svc.url, `loadout_worker_process_last_max_rss_bytes{worker="crawl"}`))!).toBeGreaterThan(10 * 2 ** 20);
    expect(svc.lines.some((l) => l.process === "crawl-worker" && l.msg === "worker process done: nothing due")).toBe(true);
    expect(svc.lines.some((l) => l.worker === "crawl" && l.msg === "worker process started")).toBe(true);
    expect(childrenOf(svc.proc.pid)).toEqual([]);

    // a detail scrape asked of the API starts a child again, which runs it and exits
    const r = await fetch(`${svc.url}/api/v1/jobs/scraper/detail`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ workshop_id: firstId }) });
    expect(r.status).toBe(202);
    const { job_id } = (await r.json()) as { job_id: string };
    await until(async () => (await metric(svc.url, `loadout_worker_process_exits_total{worker="crawl",outcome="idle"}`)) === 2, 15_000, "a second child");
    const db = new Database(join(b, "loadout.db"), { readonly: true });
    expect(db.query("SELECT status FROM jobs WHERE id = ?").get(job_id)).toEqual({ status: "succeeded" });
    db.close();
    svc.proc.kill("SIGTERM");
    expect(await svc.proc.exited).toBe(0);
  }, 60_000);

  /** A service whose child is waiting for listing page 12, with batches of the first pages queued or running. */
  async function crawlHeldAtPage12() {
    const dir = newDir();
    const svc = await startService(dir);
    const release = fake.holdListingPage(12);
    const seen = fake.requests.length;
    queueCrawl(dir);
    await until(() => fake.requests.slice(seen).some((r) => r.query.page === "11"), 20_000, "page 11");
    const [child] = childrenOf(svc.proc.pid);
    expect(child).toBeDefined();
    return { dir, svc, release, child };
  }

  test("a child killed mid-crawl: its jobs are queued again, another child finishes the crawl, nothing twice", async () => {
    const { dir, svc, release, child } = await crawlHeldAtPage12();
    // It runs with the settings that trade its memory for CPU (the service's environment has none of them).
    const env = Object.fromEntries(
      readFileSync(`/proc/${child}/environ`, "utf8").split("\0").filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
    );
    for (const [k, v] of Object.entries(CRAWL_PROCESS_ENV)) expect(env[k]).toBe(v);
    expect(readFileSync(`/proc/${svc.proc.pid}/environ`, "utf8")).not.toContain("MIMALLOC_PURGE_HOLES");
    process.kill(child!, "SIGKILL");
    await until(async () => (await metric(svc.url, `loadout_worker_process_exits_total{worker="crawl",outcome="crashed"}`)) === 1, 10_000, "the crash seen");
    expect((await metric(svc.url, `loadout_worker_process_requeued_jobs_total{worker="crawl"}`))!).toBeGreaterThanOrEqual(1);
    release();
    await until(() => pending(dir) === 0, 30_000, "the crawl");
    expect(catalog(dir)).toEqual(reference);
    const counts = jobCounts(dir);
    expect(counts[`${JOB_SCRAPE_FULL} succeeded`]).toBe(1);
    expect(Object.keys(counts).every((k) => k.endsWith(" succeeded"))).toBe(true);
    // (/metrics answers the same body for a second)
    await until(async () => (await metric(svc.url, `loadout_worker_process_starts_total{worker="crawl"}`))! >= 2, 3_000, "the second start counted");
    expect(svc.lines.some((l) => l.msg === "worker process stopped unexpectedly; its jobs were queued again" && l.signal === "SIGKILL")).toBe(true);
    svc.proc.kill("SIGTERM");
    expect(await svc.proc.exited).toBe(0);
  }, 60_000);

  test("a parent killed mid-crawl: its child stops, and the service started again finishes the crawl", async () => {
    const { dir, svc, release, child } = await crawlHeldAtPage12();
    svc.proc.kill("SIGKILL");
    await until(() => !alive(child!), 5_000, "the child to stop");
    release();
    // jobs it held are queued again (it stopped cleanly), not left to their leases
    const db = new Database(join(dir, "loadout.db"), { readonly: true });
    expect((db.query("SELECT count(*) AS n FROM jobs WHERE status = 'running'").get() as { n: number }).n).toBe(0);
    db.close();
    const again = await startService(dir);
    await until(() => pending(dir) === 0, 30_000, "the crawl");
    expect(catalog(dir)).toEqual(reference);
    expect(jobCounts(dir)[`${JOB_SCRAPE_FULL} succeeded`]).toBe(1);
    again.proc.kill("SIGTERM");
    expect(await again.proc.exited).toBe(0);
  }, 60_000);

  test("LOADOUT_CRAWL_PROCESS=inline: no child, the service crawls itself", async () => {
    const dir = newDir();
    // Started (its database migrated) before the crawl is queued: it said so, not 1.5 s went by.
    const { proc } = await startService(dir, { LOADOUT_CRAWL_PROCESS: "inline" });
    queueCrawl(dir);
    let children = 0;
    await until(() => {
      children = Math.max(children, childrenOf(proc.pid).length);
      return pending(dir) === 0;
    }, 30_000, "the crawl");
    expect(children).toBe(0);
    expect(catalog(dir).mods.length).toBe(COUNT);
    proc.kill("SIGTERM");
    await proc.exited;
  }, 60_000);

  test("the scraper's hook in the child: a new version of a listed mod is one mod_updated notification in the service", async () => {
    const small = startFakeWorkshop({ mods: smallCatalog() });
    try {
      const dir = newDir();
      const svc = await startService(dir, {
        LOADOUT_WORKSHOP_URL: small.url,
        LOADOUT_ADMIN_EMAIL: "admin@example.com",
        LOADOUT_ADMIN_PASSWORD: "admin-password",
      });
      const call = async (method: string, path: string, body?: unknown, token?: string): Promise<any> => {
        const r = await fetch(svc.url + path, {
          method,
          headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await r.text();
        return { status: r.status, json: text ? JSON.parse(text) : null };
      };
      const token = (await call("POST", "/api/v1/auth/login", { email: "admin@example.com", password: "admin-password" })).json.token as string;
      expect((await call("POST", "/api/v1/jobs/scraper", { mode: "full" }, token)).status).toBe(202);
      await until(async () => (await call("GET", `/api/v1/mods/${SMALL.core}`)).status === 200 && pending(dir) === 0, 20_000, "the first crawl");
      const list = await call("POST", "/api/v1/lists", { name: "Watched", description: "", is_public: false }, token);
      expect((await call("POST", `/api/v1/lists/${list.json.id}/mods`, { workshop_id: SMALL.core }, token)).status).toBe(200);
      const before = (await call("GET", `/api/v1/mods/${SMALL.core}`)).json.version as string;

      small.mods.get(SMALL.core)!.versions.push(ver("9.0.0", 400, 2_000_000));
      expect((await call("POST", "/api/v1/jobs/scraper/detail", { workshop_id: SMALL.core })).status).toBe(202);
      await until(async () => (await call("GET", `/api/v1/mods/${SMALL.core}`)).json.version === "9.0.0", 20_000, "the new version in the service's answer");
      await until(async () => ((await call("GET", "/api/v1/notifications", undefined, token)).json as any[]).some((x) => x.event === "mod_updated"), 10_000, "the notification");
      // Anything recorded twice would be dispatched by the time no job is left and the outbox is
      // empty (the dispatcher marks each event as it fans it out to notifications).
      await until(() => pending(dir) === 0 && undispatched(dir) === 0, 20_000, "every job done and every event dispatched");
      const notes = ((await call("GET", "/api/v1/notifications", undefined, token)).json as any[]).filter((x) => x.event === "mod_updated");
      expect(notes).toHaveLength(1);
      expect(notes[0].data).toMatchObject({ old_version: before, new_version: "9.0.0", workshop_id: SMALL.core });
      svc.proc.kill("SIGTERM");
      expect(await svc.proc.exited).toBe(0);
    } finally {
      small.stop();
    }
  }, 60_000);
});
