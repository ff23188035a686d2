// `loadout restore` refuses, with one line and nothing changed in the data dir,
// what it must not install: an empty or malformed key file beside the backup, a key that does not
// open every sealed value the backup holds (list config secrets and deployment configs included,
// each value actually opened), and any path that resolves to the live data dir's own files. The
// CLI runs as a real process (`bun src/main.ts restore`) on backups of real apps; each case checks
// the message and that every file of the data dir keeps its name and bytes.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, linkSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";
import { startFakePanel, type FakePanel } from "../../../test/fakes/panel";
import { SAMPLE_SERVER_JSON } from "../../../test/fakes/panel-server-json";
import { keyId, parseKey } from "../../shared/crypto";
import { DEPLOY_JOB } from "../servers/deploy/jobs";
import { KEY_FILES } from "./service";
import { sealedColumns } from "../index";

// The lists feature's sealed columns (its remembered configs): which of them a list's config
// fills is the lists feature's business, so these tests count all of them.
const LIST_COLUMNS = sealedColumns.filter((c) => c.table === "list_server_configs");
const sealedListValues = (db: Database) =>
  LIST_COLUMNS.reduce((n, c) => n + (db.query(`SELECT count(*) AS n FROM list_server_configs WHERE ${c.column} LIKE 'v1.%'`).get() as { n: number }).n, 0);
const listColumnsOf = (columns: Record<string, { sealed: number; opened: number }>) =>
  Object.entries(columns)
    .filter(([k]) => k.startsWith("list_server_configs."))
    .reduce((s, [, v]) => ({ sealed: s.sealed + v.sealed, opened: s.opened + v.opened }), { sealed: 0, opened: 0 });

setDefaultTimeout(60_000);
const MAIN = join(import.meta.dir, "../../main.ts");
const scratch = mkdtempSync(join(tmpdir(), "loadout-restore-refuses-"));
let seq = 0;
const freshDir = () => join(scratch, `dir-${++seq}`);
const protects = (file: "secret-key" | "jwt-secret") => KEY_FILES.find((k) => k.file === file)!.protects;
const otherKey = Buffer.alloc(32, 0x42).toString("base64");

async function restore(dataDir: string, file: string, extra: string[] = []) {
  const p = Bun.spawn([process.execPath, MAIN, "restore", ...extra, file], {
    env: { PATH: process.env.PATH ?? "", LOADOUT_DATA_DIR: dataDir, LOADOUT_LOG_LEVEL: "error" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { out, err, code };
}

async function backup(dataDir: string, file: string) {
  const p = Bun.spawn([process.execPath, MAIN, "backup", file], { env: { PATH: process.env.PATH ?? "", LOADOUT_DATA_DIR: dataDir, LOADOUT_LOG_LEVEL: "error" }, stdout: "pipe", stderr: "pipe" });
  expect(await p.exited).toBe(0);
}

/** Every file of the data dir, with its bytes' hash: the same after a refusal. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) {
    const p = join(dir, f);
    out[f] = statSync(p).isFile() ? createHash("sha256").update(readFileSync(p)).digest("hex") : "dir";
  }
  return out;
}

/** `name.db` in scratch: a copy of `base` with key files beside it (the base's own, a given text, or none). */
function variant(base: string, name: string, keys: { "secret-key"?: string | null; "jwt-secret"?: string | null } = {}): string {
  const file = join(scratch, name);
  copyFileSync(base, file);
  for (const k of ["secret-key", "jwt-secret"] as const) {
    const text = keys[k];
    if (text === null) continue;
    writeFileSync(`${file}.${k}`, text === undefined ? readFileSync(`${base}.${k}`) : text, { mode: 0o600 });
  }
  return file;
}

let goodDir: string;
/** A backup with two lists whose remembered configs hold sealed secrets, and nothing else sealed. */
let listsBackup: string;
let listIds: string[];
/** A backup whose only sealed values are a deployment's two configs. */
let deploysBackup: string;
let owner: TestUser;

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

beforeAll(async () => {
  // The data dir a refusal must leave as it is: a restored one, with its database and keys.
  const plainApp = await createTestApp();
  await plainApp.createUser();
  const plain = join(scratch, "plain.db");
  await backup(plainApp.dir, plain);
  await plainApp.close();
  goodDir = freshDir();
  expect((await restore(goodDir, plain)).code).toBe(0);

  // Two lists that remember a full config (passwordAdmin and rcon.password sealed).
  const a: TestApp = await createTestApp();
  owner = await a.createUser({ display_name: "Owner" });
  listIds = [];
  for (const name of ["Night ops", "Day ops"]) {
    const l = (await a.req("POST", "/api/v1/lists", { user: owner, body: { name } })).body;
    const applied = await a.req("POST", `/api/v1/lists/${l.id}/import-apply`, { user: owner, raw: SAMPLE_SERVER_JSON, headers: { "content-type": "text/plain" } });
    expect(applied.status).toBe(200);
    const view = (await a.req("GET", `/api/v1/lists/${l.id}/server-config`, { user: owner })).body;
    expect(view.secrets.filter((s: { set: boolean }) => s.set).length).toBeGreaterThan(0);
    listIds.push(l.id);
  }
  expect(sealedListValues(a.deps.sqlite)).toBe(2);
  listsBackup = join(scratch, "lists.db");
  await backup(a.dir, listsBackup);
  await a.close();

  // A deploy to the fake panel: the deployment keeps both configs sealed. The credentials are
  // then taken out of a copy, so the deployment's configs are the only sealed values in it.
  const panel: FakePanel = startFakePanel({ files: { "/server.json": SAMPLE_SERVER_JSON } });
  const d = await createTestApp({ env: { LOADOUT_ALLOW_PRIVATE_URLS: "true" } });
  try {
    const u = await d.createUser();
    const l = (await d.req("POST", "/api/v1/lists", { user: u, body: { name: "Deployed" } })).body;
    await d.req("POST", `/api/v1/lists/${l.id}/mods`, { user: u, body: { workshop_id: "5965550F24A0C152" } });
    const s = (await d.req("POST", "/api/v1/servers", { user: u, body: { name: "Box", connection_type: "panel", file_path: "/server.json", linked_list_id: l.id } })).body;
    await d.req("POST", `/api/v1/servers/${s.id}/credentials`, { user: u, body: { panel_url: panel.url, api_key: panel.apiKey, server_uuid: panel.serverUuid } });
    expect((await d.req("POST", `/api/v1/servers/${s.id}/deploy`, { user: u, body: {} })).status).toBe(200);
    await d.deps.jobs.drain({ types: [DEPLOY_JOB] });
    const row = d.deps.sqlite.query("SELECT status, previous_config, new_config FROM deployments WHERE kind = 'deploy'").get() as Record<string, string>;
    expect(row.status).toBe("success");
    expect(row.previous_config).toStartWith("v1.");
    expect(row.new_config).toStartWith("v1.");
    const full = join(scratch, "deploys-full.db");
    await backup(d.dir, full);
    deploysBackup = variant(full, "deploys.db");
    const db = new Database(deploysBackup);
    db.exec("DELETE FROM server_credentials");
    db.close();
  } finally {
    await d.close();
    await panel.stop();
  }
});

/** Restores `file` into the good data dir and expects one refusal line, the data dir unchanged. */
async function refused(file: string, extra: string[] = []): Promise<string> {
  const before = snapshot(goodDir);
  const r = await restore(goodDir, file, extra);
  expect(r.code).toBe(1);
  expect(r.out).toBe("");
  const lines = r.err.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("restore: ");
  expect(snapshot(goodDir)).toEqual(before);
  return lines[0]!;
}

describe("restore refuses key files it must not install", () => {
  test("an empty .jwt-secret beside the backup", async () => {
    const file = variant(listsBackup, "empty-jwt.db", { "jwt-secret": "\n" });
    expect(await refused(file)).toBe(`restore: empty-jwt.db.jwt-secret beside the backup is empty; it protects ${protects("jwt-secret")}; nothing was changed`);
  });

  test("a malformed .jwt-secret beside the backup (two lines; too short)", async () => {
    const twoLines = variant(listsBackup, "two-line-jwt.db", { "jwt-secret": "first-half-of-a-secret\nsecond-half-of-it\n" });
    expect(await refused(twoLines)).toBe(
      `restore: two-line-jwt.db.jwt-secret beside the backup is malformed (it holds line breaks or control characters); it protects ${protects("jwt-secret")}; nothing was changed`,
    );
    const short = variant(listsBackup, "short-jwt.db", { "jwt-secret": "abc123\n" });
    expect(await refused(short)).toBe(
      `restore: short-jwt.db.jwt-secret beside the backup is malformed (6 characters; a sign-in secret has at least 16); it protects ${protects("jwt-secret")}; nothing was changed`,
    );
  });

  test("an empty .secret-key beside the backup", async () => {
    const file = variant(listsBackup, "empty-key.db", { "secret-key": "" });
    expect(await refused(file)).toBe(`restore: empty-key.db.secret-key beside the backup is empty; it protects ${protects("secret-key")}; nothing was changed`);
  });

  test("a garbage .secret-key beside a backup that holds no sealed value", async () => {
    const plain = join(scratch, "plain.db");
    const garbage = variant(plain, "garbage-key.db", { "secret-key": "this is not a key at all\n" });
    expect(await refused(garbage)).toBe(
      `restore: garbage-key.db.secret-key beside the backup is not a key (secret key must be 32 bytes encoded as base64); it protects ${protects("secret-key")}; nothing was changed`,
    );
    const short = variant(plain, "short-key.db", { "secret-key": Buffer.alloc(16, 1).toString("base64") });
    expect(await refused(short)).toBe(
      `restore: short-key.db.secret-key beside the backup is not a key (secret key must be 32 bytes encoded as base64 (got 16 bytes)); it protects ${protects("secret-key")}; nothing was changed`,
    );
  });
});

describe("restore opens every sealed value with the key that will be in force", () => {
  test("a key that does not open the lists' config secrets", async () => {
    const right = keyId(parseKey(readFileSync(`${listsBackup}.secret-key`, "utf8")));
    const file = variant(listsBackup, "lists-wrong-key.db", { "secret-key": otherKey });
    const line = await refused(file);
    expect(line).toMatch(/^restore: the backup's 2 list [a-z ]+\(s\) are sealed with a key that would not be in force /);
    expect(line).toEndWith(
      `are sealed with a key that would not be in force (lists-wrong-key.db.secret-key, key id ${keyId(parseKey(otherKey))}). ` +
        `Needed: the secret-key file of the data directory the backup was made from (key id ${right}): put it beside the backup as lists-wrong-key.db.secret-key, or set LOADOUT_SECRET_KEY to it; ` +
        "nothing was changed (--without-keys restores anyway: those secrets must then be entered again)",
    );
  });

  test("with the right key: restored, and export/game opens the lists' passwords", async () => {
    const data = freshDir();
    const r = await restore(data, variant(listsBackup, "lists-right-key.db"));
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out).sealed_secrets;
    expect(report.key_ok).toBe(true);
    expect(listColumnsOf(report.columns)).toEqual({ sealed: 2, opened: 2 });
    const app = await createTestApp({ env: { LOADOUT_DATA_DIR: data } });
    try {
      const out = await app.req("GET", `/api/v1/lists/${listIds[0]}/export/game?type=fixed`, { user: owner });
      expect(out.status).toBe(200);
      expect(out.body.game.passwordAdmin).toBe("adminpw");
      expect(out.body.rcon.password).toBe("rconpw");
    } finally {
      await app.close();
    }
  });

  test("values sealed with the right key that do not open (moved to another list's row): the key id alone is not trusted", async () => {
    const file = variant(listsBackup, "lists-swapped.db");
    const db = new Database(file);
    const [a, b] = listIds as [string, string];
    for (const c of LIST_COLUMNS) {
      const value = (id: string) => (db.query(`SELECT ${c.column} AS v FROM list_server_configs WHERE list_id = ?`).get(id) as { v: string | null }).v;
      const [va, vb] = [value(a), value(b)];
      db.query(`UPDATE list_server_configs SET ${c.column} = ? WHERE list_id = ?`).run(vb, a);
      db.query(`UPDATE list_server_configs SET ${c.column} = ? WHERE list_id = ?`).run(va, b);
    }
    expect(sealedListValues(db)).toBe(2);
    db.close();
    const id = keyId(parseKey(readFileSync(`${listsBackup}.secret-key`, "utf8")));
    const line = await refused(file);
    expect(line).toMatch(/^restore: 2 of the backup's 2 list [a-z ]+\(s\) do not open with the key that would be in force /);
    expect(line).toContain(`do not open with the key that would be in force (lists-swapped.db.secret-key, key id ${id}), although sealed with it: list_server_configs.`);
    expect(line).toMatch(new RegExp(` of (${a}|${b}): `));
    expect(line).toContain("failed authentication");
    expect(line).toEndWith(" (and 1 more); the backup is damaged or was altered; nothing was changed (--without-keys restores anyway: those secrets must then be entered again)");
  });

  test("a key that does not open a deployment's configs", async () => {
    const right = keyId(parseKey(readFileSync(`${deploysBackup}.secret-key`, "utf8")));
    const file = variant(deploysBackup, "deploys-wrong-key.db", { "secret-key": otherKey });
    expect(await refused(file)).toBe(
      `restore: the backup's 2 deployment config(s) are sealed with a key that would not be in force (deploys-wrong-key.db.secret-key, key id ${keyId(parseKey(otherKey))}). ` +
        `Needed: the secret-key file of the data directory the backup was made from (key id ${right}): put it beside the backup as deploys-wrong-key.db.secret-key, or set LOADOUT_SECRET_KEY to it; ` +
        "nothing was changed (--without-keys restores anyway: those secrets must then be entered again)",
    );
    // With its own key it is restored, the two configs opened.
    const ok = await restore(freshDir(), variant(deploysBackup, "deploys-right-key.db"));
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out).sealed_secrets.columns).toMatchObject({
      "deployments.previous_config": { sealed: 1, opened: 1 },
      "deployments.new_config": { sealed: 1, opened: 1 },
    });
  });

  test("--without-keys still restores a backup whose sealed values the key does not open, and says so", async () => {
    const data = freshDir();
    const r = await restore(data, variant(listsBackup, "lists-without-keys.db", { "secret-key": otherKey }), ["--without-keys"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out).sealed_secrets;
    expect(report.key_ok).toBe(false);
    expect(listColumnsOf(report.columns)).toEqual({ sealed: 2, opened: 0 });
    expect(r.err).toMatch(/restore: the backup's 2 list [a-z ]+\(s\) are sealed with a key that would not be in force/);
    expect(r.err).toContain("Restored anyway (--without-keys): enter those secrets again");
    expect(readFileSync(join(data, "secret-key"), "utf8").trim()).toBe(otherKey);
  });
});

describe("restore refuses paths that resolve to the live data directory's own files", () => {
  test("the backup is a symbolic link to the data dir's own database", async () => {
    const link = join(scratch, "link-to-live.db");
    symlinkSync(join(goodDir, "loadout.db"), link);
    expect(await refused(link)).toBe(
      `restore: ${link} resolves to ${realpathSync(join(goodDir, "loadout.db"))}, the data directory's own database: restore from a copy outside the live data directory; nothing was changed`,
    );
  });

  test("the backup is a hard link to the data dir's own database", async () => {
    const link = join(scratch, "hardlink-to-live.db");
    linkSync(join(goodDir, "loadout.db"), link);
    expect(await refused(link)).toBe(
      `restore: ${link} resolves to ${realpathSync(join(goodDir, "loadout.db"))}, the data directory's own database: restore from a copy outside the live data directory; nothing was changed`,
    );
  });

  test("a key file beside the backup is a link to the data dir's own secret-key", async () => {
    const file = variant(listsBackup, "linked-key.db", { "secret-key": null });
    symlinkSync(join(goodDir, "secret-key"), `${file}.secret-key`);
    expect(await refused(file)).toBe(
      `restore: ${file}.secret-key resolves to ${realpathSync(join(goodDir, "secret-key"))}, the data directory's own secret-key file: restore from a copy outside the live data directory; nothing was changed`,
    );
  });
});
