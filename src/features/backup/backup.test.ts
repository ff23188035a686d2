// Backups and restore (docs/operations.md). The CLI runs as a real process (`bun src/main.ts`)
// against the data dir of a real app; what is restored is then served by a real app on the
// restored data dir: lists, server credentials (a connection test against the fake panel) and
// webhook secrets (a test delivery verified by an independent Standard Webhooks verifier).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, copyFileSync, openSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";
import { startFakePanel, type FakePanel } from "../../../test/fakes/panel";
import { startReceiver, type Receiver } from "../../../test/fakes/receiver";
import { verifyStandardWebhook } from "../../../test/fakes/receiver-verify";
import { SAMPLE_SERVER_JSON } from "../../../test/fakes/panel-server-json";
import { seedMods, wid } from "../../../test/lists-kit";
import { freePort } from "../../../test/e2e/build";
import { loadMigrations, openDatabase } from "../../db/client";
import { loadConfig } from "../../config";
import { keyId, parseKey } from "../../shared/crypto";
import { DEPLOY_JOB } from "../servers/deploy/jobs";
import { BACKUP_JOB, backupFeature } from "./index";

const MAIN = join(import.meta.dir, "../../main.ts");
const scratch = mkdtempSync(join(tmpdir(), "loadout-backup-test-"));
let seq = 0;
const freshDir = () => join(scratch, `dir-${++seq}`);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `loadout <args>` as its own process, from source. */
async function cli(args: string[], env: Record<string, string>) {
  const p = Bun.spawn([process.execPath, MAIN, ...args], { env: { PATH: process.env.PATH ?? "", LOADOUT_LOG_LEVEL: "error", ...env }, stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => p.kill(), 60_000);
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  return { out, err, code };
}
const backup = (dataDir: string, file?: string, env: Record<string, string> = {}) => cli(["backup", ...(file ? [file] : [])], { LOADOUT_DATA_DIR: dataDir, ...env });
const restore = (dataDir: string, file: string, extra: string[] = [], env: Record<string, string> = {}) =>
  cli(["restore", ...extra, file], { LOADOUT_DATA_DIR: dataDir, ...env });

const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
function rows<T>(file: string, sql: string, ...args: any[]): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.query(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}

describe("backup under write load", () => {
  test("20 writers keep committing while `loadout backup` runs: the copy is whole and holds every row acknowledged before it started", async () => {
    // One user writes as fast as the machine allows: the per-user request limit (1,200 a minute)
    // is not what this test is about, so it is off.
    const t = await createTestApp({ env: { LOADOUT_RATE_LIMIT_USER: "0" } });
    try {
      const owner = await t.createUser();
      const MODS = 20 * 300;
      seedMods(
        t,
        Array.from({ length: MODS }, (_, i) => ({ id: wid(0x10000 + i) })),
      );
      // ~50 MB of history so the copy takes a while.
      const pad = (await t.req("POST", "/api/v1/lists", { user: owner, body: { name: "Padding" } })).body.id;
      const ins = t.deps.sqlite.query("INSERT INTO list_snapshots (id, list_id, snapshot_json, created_by, created_at) VALUES (?, ?, ?, ?, ?)");
      const blob = JSON.stringify(Array.from({ length: 30 }, (_, i) => ({ modId: wid(i), name: "x".repeat(40), version: "1.0.0" })));
      t.deps.sqlite.transaction(() => {
        for (let i = 0; i < 12_000; i++) ins.run(`pad-${i}`, pad, blob, owner.id, i);
      })();
      const WRITERS = 20;
      const lists: string[] = [];
      for (let w = 0; w < WRITERS; w++) lists.push((await t.req("POST", "/api/v1/lists", { user: owner, body: { name: `W${w}` } })).body.id);

      type Ack = { list: string; mod: string; at: number };
      const acks: Ack[] = [];
      const failures: string[] = [];
      let stop = false;
      const writers = lists.map(async (list, w) => {
        for (let i = 0; i < 300 && !stop; i++) {
          const mod = wid(0x10000 + w * 300 + i);
          const r = await t.req("POST", `/api/v1/lists/${list}/mods`, { user: owner, body: { workshop_id: mod } });
          if (r.status !== 200) failures.push(`${r.status} ${r.text}`);
          else acks.push({ list, mod, at: performance.now() });
          t.clock.advance(61_000 / 1200); // stay under the per-user rate limit on the test clock
        }
      });
      await Bun.sleep(150);
      const target = join(scratch, "under-load.db");
      const startedAt = performance.now();
      const b = await backup(t.dir, target);
      const endedAt = performance.now();
      await Bun.sleep(100);
      stop = true;
      await Promise.all(writers);

      expect(b.code).toBe(0);
      expect(b.out.trim()).toBe(target);
      expect(failures).toEqual([]);
      expect(rows<{ integrity_check: string }>(target, "PRAGMA integrity_check")).toEqual([{ integrity_check: "ok" }]);
      expect(rows(target, "PRAGMA foreign_key_check")).toEqual([]);
      const inCopy = new Set(rows<{ k: string }>(target, "SELECT list_id || ':' || workshop_id AS k FROM list_items").map((r) => r.k));
      const before = acks.filter((a) => a.at < startedAt);
      const during = acks.filter((a) => a.at >= startedAt && a.at <= endedAt);
      const after = acks.filter((a) => a.at > endedAt);
      expect(before.filter((a) => !inCopy.has(`${a.list}:${a.mod}`))).toEqual([]);
      expect(after.filter((a) => inCopy.has(`${a.list}:${a.mod}`))).toEqual([]);
      // One transaction each: a mod and its audit entry are both in the copy or neither is.
      const perList = rows<{ list_id: string; items: number; audits: number }>(
        target,
        `SELECT l.id AS list_id, (SELECT count(*) FROM list_items i WHERE i.list_id = l.id) AS items,
                (SELECT count(*) FROM list_audit a WHERE a.list_id = l.id AND a.action = 'add_mod') AS audits
         FROM lists l WHERE l.id IN (${lists.map(() => "?").join(",")})`,
        ...lists,
      );
      expect(perList.filter((r) => r.items !== r.audits)).toEqual([]);
      expect(rows<{ n: number }>(target, "SELECT count(*) AS n FROM list_snapshots")[0]!.n).toBe(12_000);
      expect(before.length).toBeGreaterThan(0);
      expect(during.length).toBeGreaterThan(0); // the writers really were writing while it copied
      console.log(
        `backup under load: ${(statSync(target).size / 1e6).toFixed(1)} MB in ${Math.round(endedAt - startedAt)} ms (process start included); ` +
          `${before.length} writes acknowledged before, ${during.length} during (${during.filter((a) => inCopy.has(`${a.list}:${a.mod}`)).length} of them in the copy), ${after.length} after`,
      );
    } finally {
      await t.close();
    }
  }, 120_000);
});

describe("restore into a fresh data directory", () => {
  let src: TestApp;
  let panel: FakePanel;
  let rx: Receiver;
  let owner: TestUser;
  let helper: TestUser;
  let apiKey: string;
  let serverId: string;
  let hook: { id: string; secret: string };
  const listIds: string[] = [];
  let file: string;

  beforeAll(async () => {
    src = await createTestApp({ env: { LOADOUT_ALLOW_PRIVATE_URLS: "true" } });
    panel = startFakePanel({ files: { "/server.json": SAMPLE_SERVER_JSON } });
    rx = await startReceiver();
    owner = await src.createUser({ display_name: "Owner" });
    helper = await src.createUser({ display_name: "Helper" });
    apiKey = src.apiKeyFor(owner);
    seedMods(src, [
      { id: wid(1), name: "Alpha", versions: ["1.0.0", "1.1.0"], version: "1.1.0", deps: [wid(2)] },
      { id: wid(2), name: "Bravo" },
      { id: wid(3), name: "Charlie" },
    ]);
    const ok = async (p: Promise<{ status: number; body: any; text: string }>) => {
      const r = await p;
      if (r.status >= 300) throw new Error(`${r.status} ${r.text}`);
      return r.body;
    };
    for (const [name, is_public, mods] of [
      ["Public ops", true, [wid(1), wid(2)]],
      ["Private night", false, [wid(3), wid(1)]],
      ["Empty", false, []],
    ] as const) {
      const l = await ok(src.req("POST", "/api/v1/lists", { user: owner, body: { name, is_public } }));
      for (const m of mods) await ok(src.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: m } }));
      listIds.push(l.id);
    }
    await ok(src.req("PUT", `/api/v1/lists/${listIds[1]}/mods/${wid(1)}/version`, { user: owner, body: { version: "1.0.0" } }));
    await ok(src.req("POST", `/api/v1/lists/${listIds[1]}/collaborators`, { user: owner, body: { search: helper.email, can_remove: true } }));
    await ok(src.req("POST", `/api/v1/lists/${listIds[1]}/versions`, { user: helper, body: { version_name: "before the op" } }));
    const server = await ok(src.req("POST", "/api/v1/servers", { user: owner, body: { name: "Box", connection_type: "panel", file_path: "/server.json", linked_list_id: listIds[1] } }));
    serverId = server.id;
    await ok(src.req("POST", `/api/v1/servers/${serverId}/credentials`, { user: owner, body: { panel_url: panel.url, api_key: panel.apiKey, server_uuid: panel.serverUuid } }));
    hook = await ok(src.req("POST", "/api/v1/settings/webhooks", { user: owner, body: { url: rx.url, type: "custom" } }));
    file = join(scratch, "full.db");
    const b = await backup(src.dir, file);
    expect(b.code).toBe(0);
    expect(b.err).toContain("key files beside it");
  }, 60_000);

  afterAll(async () => {
    await src?.close();
    await panel?.stop();
    rx?.stop();
  });

  test("every list, server credential and webhook secret is usable; sign-in tokens and API keys still work", async () => {
    expect(readdirSync(scratch).filter((f) => f.startsWith("full.db")).sort()).toEqual(["full.db", "full.db.jwt-secret", "full.db.secret-key"]);
    for (const f of ["full.db", "full.db.jwt-secret", "full.db.secret-key"]) expect((statSync(join(scratch, f)).mode & 0o777).toString(8)).toBe("600");
    const data = freshDir();
    const r = await restore(data, file);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report).toMatchObject({
      database: join(data, "loadout.db"),
      kept_aside: [],
      keys_restored: [join(data, "secret-key"), join(data, "jwt-secret")],
      schema: { backup_migrations: loadMigrations().length, binary_migrations: loadMigrations().length, migrated_at_next_start: 0 },
      sealed_secrets: { server_credentials: 1, webhook_secrets: 1, key_ok: true },
      next_step: "start the server",
    });
    expect(readFileSync(join(data, "secret-key"), "utf8")).toBe(readFileSync(join(src.dir, "secret-key"), "utf8"));
    for (const f of ["loadout.db", "secret-key", "jwt-secret"]) expect((statSync(join(data, f)).mode & 0o777).toString(8)).toBe("600");

    const dst = await createTestApp({ env: { LOADOUT_DATA_DIR: data, LOADOUT_ALLOW_PRIVATE_URLS: "true" } });
    try {
      // The same answers, with the original server's tokens (the JWT secret came back too).
      for (const id of listIds) {
        for (const path of [`/api/v1/lists/${id}`, `/api/v1/lists/${id}/versions`, `/api/v1/lists/${id}/audit`, `/api/v1/lists/${id}/collaborators`]) {
          const a = await src.req("GET", path, { user: owner });
          const b = await dst.req("GET", path, { user: owner });
          expect({ path, status: b.status, body: b.body }).toEqual({ path, status: 200, body: a.body });
        }
      }
      expect((await dst.req("GET", "/api/v1/lists/mine", { apiKey })).body.map((l: any) => l.id).sort()).toEqual([...listIds].sort());
      // The collaborator's rights came back with the list.
      expect((await dst.req("DELETE", `/api/v1/lists/${listIds[1]}/mods/${wid(3)}`, { user: helper })).status).toBe(204);

      // The panel credential decrypts: a connection test reaches the fake panel with its key.
      panel.requests.length = 0;
      const test_ = await dst.req("POST", `/api/v1/servers/${serverId}/test`, { user: owner });
      expect(test_.status).toBe(200);
      await dst.deps.jobs.drain({ types: [DEPLOY_JOB] });
      const detail = await dst.req("GET", `/api/v1/servers/${serverId}`, { user: owner });
      expect(detail.body.last_test).toMatchObject({ status: "success", error_message: null });
      expect(panel.requests.length).toBeGreaterThan(0);
      expect(panel.requests.every((q) => q.authorization === `Bearer ${panel.apiKey}`)).toBe(true);

      // The webhook secret decrypts: a test delivery is signed with the secret shown at creation.
      rx.reset();
      const sent = await dst.req("POST", `/api/v1/settings/webhooks/${hook.id}/test`, { user: owner });
      expect(sent.body).toMatchObject({ ok: true });
      const [got] = await rx.waitForRequests(1);
      expect(await verifyStandardWebhook(got!.headers, got!.body, hook.secret, { nowSeconds: Math.floor(dst.clock.now() / 1000) })).toEqual({ ok: true });
    } finally {
      await dst.close();
      rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);

  test("over an existing data dir: the current database and replaced keys are kept aside, never deleted", async () => {
    const other = await createTestApp();
    const data = other.dir;
    const u = await other.createUser();
    const l = (await other.req("POST", "/api/v1/lists", { user: u, body: { name: "Only here" } })).body.id;
    const oldKey = readFileSync(join(data, "secret-key"), "utf8");
    other.deps.sqlite.close(); // the "server" stopped
    // ... and a process that wrote one more list was killed with its row still in the WAL.
    const crash = Bun.spawn(
      [
        process.execPath,
        "-e",
        `const { Database } = require("bun:sqlite");
         const db = new Database(${JSON.stringify(join(data, "loadout.db"))});
         db.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0");
         db.query("INSERT INTO lists (id, owner_id, name, is_public, share_token, suggestion_token, created_at, updated_at) VALUES ('crash-list', ?, 'In the WAL', 0, 's', 'g', 0, 0)").run(${JSON.stringify(u.id)});
         process.kill(process.pid, "SIGKILL");`,
      ],
      { stdout: "ignore", stderr: "ignore" },
    );
    expect(await crash.exited).not.toBe(0);
    expect(statSync(join(data, "loadout.db-wal")).size).toBeGreaterThan(0);
    const r = await restore(data, file, [], {});
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    const aside = report.kept_aside as string[];
    const dbAside = aside.find((p) => /loadout\.db\.before-restore-[^-]+.*Z$/.test(p))!;
    expect(aside.some((p) => p.includes("secret-key.before-restore-"))).toBe(true);
    expect(aside.some((p) => p.includes("jwt-secret.before-restore-"))).toBe(true);
    expect(readFileSync(aside.find((p) => p.includes("secret-key.before-restore-"))!, "utf8")).toBe(oldKey);
    // The database set aside is whole on its own (the WAL was folded in before the rename): it
    // still holds the lists made before the restore, the crashed writer's too.
    // (Read from a copy of the file alone: no -wal beside it.)
    const alone = join(scratch, "aside-alone.db");
    copyFileSync(dbAside, alone);
    expect(rows<{ name: string }>(alone, "SELECT name FROM lists WHERE id IN (?, 'crash-list') ORDER BY name", l)).toEqual([{ name: "In the WAL" }, { name: "Only here" }]);
    expect(rows<{ n: number }>(join(data, "loadout.db"), "SELECT count(*) AS n FROM lists WHERE id = ?", l)[0]!.n).toBe(0);
    expect(readdirSync(data).filter((f) => f.includes("restoring"))).toEqual([]);
    rmSync(data, { recursive: true, force: true });
  }, 60_000);

  test("without the key files: refused, naming the key needed; accepted with the key in LOADOUT_SECRET_KEY or with --without-keys", async () => {
    const bare = join(scratch, "bare.db");
    copyFileSync(file, bare);
    const key = readFileSync(`${file}.secret-key`, "utf8").trim();
    const id = keyId(parseKey(key));
    const data = freshDir();
    const refused = await restore(data, bare);
    expect(refused.code).toBe(1);
    expect(refused.err.trim().split("\n")).toHaveLength(1);
    expect(refused.err).toContain(`restore: the backup's 1 server credential(s) and 1 webhook secret(s) are sealed with a key that would not be in force (no key at all)`);
    expect(refused.err).toContain(`the secret-key file of the data directory the backup was made from (key id ${id}): put it beside the backup as bare.db.secret-key, or set LOADOUT_SECRET_KEY to it`);
    expect(refused.err).toContain("nothing was changed");
    expect(existsSync(join(data, "loadout.db"))).toBe(false);

    // a wrong key in the environment is named as such
    const wrong = await restore(data, bare, [], { LOADOUT_SECRET_KEY: Buffer.alloc(32, 9).toString("base64") });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain(`would not be in force (LOADOUT_SECRET_KEY, key id ${keyId(Buffer.alloc(32, 9))})`);

    const withEnv = await restore(data, bare, [], { LOADOUT_SECRET_KEY: key });
    expect(withEnv.code).toBe(0);
    expect(JSON.parse(withEnv.out).sealed_secrets.key_ok).toBe(true);
    expect(withEnv.err).toContain("restore: secret-key: LOADOUT_SECRET_KEY is set and stays in force");
    expect(withEnv.err).toContain("restore: jwt-secret: no bare.db.jwt-secret beside the backup; a new jwt-secret is generated at the next start");

    const data2 = freshDir();
    const forced = await restore(data2, bare, ["--without-keys"]);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.out).sealed_secrets.key_ok).toBe(false);
    expect(forced.err).toContain("Restored anyway (--without-keys)");
  }, 60_000);

  test("a key from the environment is not written beside the backup, and the backup says so", async () => {
    const target = join(scratch, "env-key.db");
    const key = readFileSync(join(src.dir, "secret-key"), "utf8").trim();
    const b = await backup(src.dir, target, { LOADOUT_SECRET_KEY: key });
    expect(b.code).toBe(0);
    expect(b.err).toContain("LOADOUT_SECRET_KEY comes from the environment and is not written: keep it with this backup");
    expect(existsSync(`${target}.secret-key`)).toBe(false);
    expect(existsSync(`${target}.jwt-secret`)).toBe(true);
  }, 30_000);
});

describe("restore refuses", () => {
  let good: string;
  let goodDir: string;
  beforeAll(async () => {
    const t = await createTestApp();
    await t.createUser();
    goodDir = freshDir();
    good = join(scratch, "good.db");
    expect((await backup(t.dir, good)).code).toBe(0);
    await t.close();
    // a data dir with a database of its own, to show a refusal leaves it untouched
    expect((await restore(goodDir, good)).code).toBe(0);
  }, 60_000);

  /** The database and keys keep their bytes, and no file appears or goes. */
  function untouched(dir: string) {
    const snap = () => ({ files: readdirSync(dir).sort(), bytes: ["loadout.db", "secret-key", "jwt-secret"].map((f) => sha(join(dir, f))) });
    const before = snap();
    return () => expect(snap()).toEqual(before);
  }

  test("while a server holds the data directory", async () => {
    const port = await freePort();
    const server = Bun.spawn([process.execPath, MAIN, "serve"], {
      env: { PATH: process.env.PATH ?? "", LOADOUT_DATA_DIR: goodDir, LOADOUT_PORT: String(port), LOADOUT_HOST: "127.0.0.1", LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "error" },
      stdout: "ignore",
      stderr: "pipe",
    });
    try {
      let up = false;
      for (let i = 0; i < 400 && !up; i++) {
        up = (await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => null))?.status === 200;
        if (!up) await Bun.sleep(25);
      }
      expect(up).toBe(true);
      const check = untouched(goodDir);
      const r = await restore(goodDir, good);
      expect(r.code).toBe(1);
      expect(r.err.trim()).toBe(
        `restore: another loadout process (pid ${server.pid}) is serving the data directory ${goodDir}; stop it first, restore, then start it again`,
      );
      check();
    } finally {
      server.kill("SIGTERM");
      await server.exited;
    }
  }, 60_000);

  test("a file that is not a database, a damaged one and a cut-off one", async () => {
    const junk = join(scratch, "junk.db");
    writeFileSync(junk, "this is not a database ".repeat(500));
    const damaged = join(scratch, "damaged.db");
    copyFileSync(good, damaged);
    const size = statSync(damaged).size;
    // overwrite the middle pages (b-tree pages of the tables) with noise
    const fd = openSync(damaged, "r+");
    writeSync(fd, Buffer.alloc(16_384, 0xa5), 0, 16_384, Math.floor(size / 2 / 4096) * 4096);
    closeSync(fd);
    const cut = join(scratch, "cut.db");
    writeFileSync(cut, readFileSync(good).subarray(0, Math.floor(size / 3)));
    const plain = join(scratch, "plain.db");
    const p = new Database(plain);
    p.exec("CREATE TABLE notes (x TEXT)");
    p.close();

    const check = untouched(goodDir);
    for (const [f, says] of [
      [junk, "junk.db is not a readable SQLite database (file is not a database)"],
      [damaged, "damaged.db "],
      [cut, "cut.db "],
      [plain, "plain.db is an SQLite database but not a loadout database"],
    ] as const) {
      const r = await restore(goodDir, f);
      expect({ f, code: r.code }).toEqual({ f, code: 1 });
      expect(r.err).toStartWith(`restore: ${says}`);
      expect(r.err).toMatch(/integrity check|not a readable SQLite database|not a loadout database/);
      expect(r.err.trim()).toEndWith("nothing was changed");
    }
    check();
    expect(readdirSync(goodDir).filter((f) => f.includes("restoring"))).toEqual([]);
    const missing = await restore(goodDir, join(scratch, "nope.db"));
    expect([missing.code, missing.err.trim()]).toEqual([1, `restore: no backup file at ${join(scratch, "nope.db")}`]);
  }, 60_000);

  test("a backup from a newer schema; an older one is accepted and migrated at the next start", async () => {
    const known = loadMigrations();
    const newest = Math.max(...known.map((m) => m.folderMillis));
    const newer = join(scratch, "newer.db");
    copyFileSync(good, newer);
    const db = new Database(newer);
    db.query("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ?)").run(newest + 86_400_000);
    db.close();
    const check = untouched(goodDir);
    const r = await restore(goodDir, newer);
    expect(r.code).toBe(1);
    expect(r.err.trim()).toBe(
      `restore: newer.db comes from a newer loadout: its schema has a migration of ${new Date(newest + 86_400_000).toISOString()}, this binary knows migrations up to ${new Date(newest).toISOString()} (${known.length}); restore it with that newer version; nothing was changed`,
    );
    check();

    // A database made by the previous release: every migration but the last.
    const older = join(scratch, "older.db");
    const o = openDatabase(older);
    (o.db as any).dialect.migrate(known.slice(0, -1), (o.db as any).session, {});
    o.sqlite.exec("PRAGMA journal_mode = DELETE");
    o.sqlite.close();
    const data = freshDir();
    const ok = await restore(data, older, ["--without-keys"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({
      schema: { backup_migrations: known.length - 1, binary_migrations: known.length, migrated_at_next_start: 1 },
      next_step: "start the server: it applies the 1 newer migration(s) of this version first",
    });
    const started = await createTestApp({ env: { LOADOUT_DATA_DIR: data } });
    try {
      expect((started.deps.sqlite.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number }).n).toBe(known.length);
      expect((await started.req("GET", "/api/v1/health")).status).toBe(200);
    } finally {
      await started.close();
    }
  }, 60_000);
});

describe("scheduled backups", () => {
  test("configuration: unset means no schedule; a bad cron or keep stops the start", () => {
    const base = { LOADOUT_SCHEDULES: "off" };
    expect(loadConfig(base).LOADOUT_BACKUP_CRON).toBeUndefined();
    expect(loadConfig(base).LOADOUT_BACKUP_KEEP).toBe(7);
    expect(() => loadConfig({ ...base, LOADOUT_BACKUP_CRON: "every night" })).toThrow('invalid configuration: LOADOUT_BACKUP_CRON must be a cron expression such as "0 3 * * *"');
    expect(() => loadConfig({ ...base, LOADOUT_BACKUP_KEEP: "0" })).toThrow("invalid configuration: LOADOUT_BACKUP_KEEP must be a whole number of backups from 1 to 1000");
    expect(loadConfig({ ...base, LOADOUT_BACKUP_CRON: "0 3 * * *", LOADOUT_BACKUP_KEEP: "3" })).toMatchObject({ LOADOUT_BACKUP_CRON: "0 3 * * *", LOADOUT_BACKUP_KEEP: 3 });
  });

  test("the job writes a whole backup with its keys and keeps exactly LOADOUT_BACKUP_KEEP scheduled ones; manual backups stay", async () => {
    const t = await createTestApp({ env: { LOADOUT_BACKUP_CRON: "0 3 * * *", LOADOUT_BACKUP_KEEP: "3" } });
    try {
      expect(backupFeature.schedules!(t.deps).map((s) => [s.name, s.cron])).toEqual([["backup", "0 3 * * *"]]);
      const u = await t.createUser();
      const manual = await backup(t.dir);
      expect(manual.code).toBe(0);
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        await t.req("POST", "/api/v1/lists", { user: u, body: { name: `List ${i}` } });
        t.clock.advance(86_400_000);
        const id = t.deps.jobs.enqueue(BACKUP_JOB, {}, { dedupeKey: BACKUP_JOB });
        await t.deps.jobs.drain({ types: [BACKUP_JOB] });
        const job = t.deps.jobs.get(id)!;
        expect({ status: job.status, error: job.error }).toEqual({ status: "succeeded", error: null });
        made.push((job.result as { file: string }).file);
      }
      const dir = join(t.dir, "backups");
      const names = readdirSync(dir).sort();
      const scheduled = names.filter((f) => f.startsWith("scheduled-") && f.endsWith(".db"));
      expect(scheduled).toHaveLength(3);
      expect(scheduled.map((f) => join(dir, f))).toEqual(made.slice(2));
      // each kept one has its key files; the deleted ones left nothing behind
      expect(names.filter((f) => f.startsWith("scheduled-"))).toHaveLength(9);
      expect(names.filter((f) => f.startsWith("loadout-"))).toHaveLength(3);
      // the newest holds the last list written before it
      expect(rows<{ n: number }>(made[4]!, "SELECT count(*) AS n FROM lists")[0]!.n).toBe(5);
      expect(rows<{ integrity_check: string }>(made[4]!, "PRAGMA integrity_check")).toEqual([{ integrity_check: "ok" }]);
    } finally {
      await t.close();
    }
  }, 120_000);

  test("without LOADOUT_BACKUP_CRON there is no schedule", async () => {
    const t = await createTestApp();
    try {
      expect(backupFeature.schedules!(t.deps)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
