// No game password in clear in the data directory or a backup. A deploy stores
// the config it replaced and the one it wrote (whole server.json files with passwordAdmin,
// rcon.password and game.password); the probe deploys such a file to the fake panel and reads
// every byte of the data dir (the database, its WAL), and of a backup made by the real `loadout
// backup` command, for the passwords. Then the real `rotate-key` command changes the key under
// a deployment that is still verifying, and the rollback after it still restores the previous
// file byte for byte. Rows an earlier version wrote in clear are sealed at the next start.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SAMPLE_SERVER_JSON } from "../../../../test/fakes/panel-server-json";
import { startFakePanel, type FakePanel } from "../../../../test/fakes/panel";
import { startA2sResponder, type A2sResponder } from "../../../../test/fakes/a2s";
import { createTestApp, TestClock, type TestApp, type TestUser } from "../../../../test/helpers";
import { decryptSecret, keyId, parseKey } from "../../../shared/crypto";
import { AUTO_DEPLOY_CHANGE_JOB, AUTO_DEPLOY_JOB, DEPLOY_JOB } from "./jobs";
import { deploymentConfigAad } from "./config-seal";

setDefaultTimeout(60_000);
const DEPLOY_TYPES = [DEPLOY_JOB, AUTO_DEPLOY_JOB, AUTO_DEPLOY_CHANGE_JOB];
const MAIN = join(import.meta.dir, "../../../main.ts");
const POLL_MS = 40;

// Passwords no other test uses, so a hit can only come from this one.
const PASSWORDS = ["Adm1n-Probe-7f3e9c0d", "Rc0n-Probe-2b8d41aa", "G4me-Probe-91ac5e3f"];
const CONFIG = SAMPLE_SERVER_JSON.replace('"passwordAdmin": "adminpw"', `"passwordAdmin": "${PASSWORDS[0]}"`)
  .replace('"password": "rconpw"', `"password": "${PASSWORDS[1]}"`)
  .replace('"password": ""', `"password": "${PASSWORDS[2]}"`);

/** The real clock, moved forward on demand (a timeout "passes" without waiting for it). */
class SkipClock extends TestClock {
  offset = 0;
  override now = () => Date.now() + this.offset;
  override advance(ms: number) {
    this.offset += ms;
  }
}

const scratch = mkdtempSync(join(tmpdir(), "loadout-sealed-configs-"));
const cleanup: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  rmSync(scratch, { recursive: true, force: true });
});

async function cli(args: string[], dataDir: string) {
  const p = Bun.spawn([process.execPath, MAIN, ...args], {
    env: { PATH: process.env.PATH ?? "", LOADOUT_DATA_DIR: dataDir, LOADOUT_LOG_LEVEL: "error" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { out, err, code };
}

/** Every file under `paths` (folders walked) with the passwords found in its bytes. */
function passwordHits(paths: string[]): { file: string; found: string[] }[] {
  const files: string[] = [];
  const walk = (p: string) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) for (const f of readdirSync(p)) walk(join(p, f));
    else files.push(p);
  };
  for (const p of paths) walk(p);
  return files
    .map((file) => {
      const bytes = readFileSync(file);
      return { file, found: PASSWORDS.filter((pw) => bytes.includes(Buffer.from(pw, "utf8"))) };
    })
    .filter((h) => h.found.length > 0);
}

/** The app's database closed as a stopped service leaves it (the WAL folded in), its data dir kept. */
async function stopKeepingData(app: TestApp) {
  await app.deps.jobs.stop(1000);
  app.deps.sqlite.close();
}

async function reopen(dataDir: string, clock: TestClock) {
  const app = await createTestApp({ clock, env: { LOADOUT_DATA_DIR: dataDir, LOADOUT_ALLOW_PRIVATE_URLS: "true", LOADOUT_DEPLOY_POLL_MS: String(POLL_MS) } });
  cleanup.push(() => app.close());
  return app;
}

async function panelServer(app: TestApp, owner: TestUser, panel: FakePanel, a2s: A2sResponder) {
  const list = await app.req("POST", "/api/v1/lists", { user: owner, body: { name: "Sealed", is_public: false } });
  for (const workshop_id of ["5965550F24A0C152", "591AF5BDD9EEEE4C"]) {
    expect((await app.req("POST", `/api/v1/lists/${list.body.id}/mods`, { user: owner, body: { workshop_id } })).status).toBeLessThan(300);
  }
  const server = await app.req("POST", "/api/v1/servers", {
    user: owner,
    body: { name: "Sealed box", connection_type: "panel", file_path: "/server.json", linked_list_id: list.body.id, query_address: `127.0.0.1:${a2s.port}`, restart: "now", verify_timeout_s: 10 },
  });
  expect(server.status).toBe(200);
  const creds = await app.req("POST", `/api/v1/servers/${server.body.id}/credentials`, {
    user: owner,
    body: { panel_url: panel.url, api_key: panel.apiKey, server_uuid: panel.serverUuid },
  });
  expect(creds.status).toBe(200);
  return server.body.id as string;
}

async function runUntil(app: TestApp, owner: TestUser, serverId: string, id: string, until: (d: any) => boolean) {
  const end = Date.now() + 15_000;
  for (;;) {
    await app.deps.jobs.drain({ types: DEPLOY_TYPES });
    const d = (await app.req("GET", `/api/v1/servers/${serverId}/deployments`, { user: owner })).body.find((x: any) => x.id === id);
    if (until(d)) return d;
    if (Date.now() > end) throw new Error(`deployment stuck: ${JSON.stringify(d)}`);
    await Bun.sleep(10);
  }
}

const sealedLines = (app: TestApp) =>
  app.log.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === "sealed values an earlier version stored in clear");

const storedConfigs = (app: TestApp, id: string) =>
  app.deps.sqlite.query("SELECT previous_config, new_config FROM deployments WHERE id = ?").get(id) as { previous_config: string; new_config: string };

describe("deployment configs are sealed", () => {
  test("the probe: no password in the data dir, its WAL or a backup; rotate-key, then the rollback still restores the previous config", async () => {
    const clock = new SkipClock();
    const panel = startFakePanel({ files: { "/server.json": CONFIG } });
    cleanup.push(() => panel.stop());
    const a2s = await startA2sResponder({ name: "Loadout test", map: "Everon", players: 0, maxPlayers: 64, version: "1.2.1", gamePort: 2001 }, "silent");
    cleanup.push(() => a2s.close());
    const first = await createTestApp({ clock, env: { LOADOUT_ALLOW_PRIVATE_URLS: "true", LOADOUT_DEPLOY_POLL_MS: String(POLL_MS) } });
    const dataDir = first.dir;
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const owner = await first.createUser({ display_name: "Owner" });
    const serverId = await panelServer(first, owner, panel, a2s);

    // Deployed and restarted; the server does not answer yet: the deployment waits in verifying,
    // holding the previous config it will restore.
    const deployed = await first.req("POST", `/api/v1/servers/${serverId}/deploy`, { user: owner, body: {} });
    expect(deployed.status).toBe(200);
    const id = deployed.body.deployment_id as string;
    const verifying = await runUntil(first, owner, serverId, id, (d) => d.phase === "verifying" && d.verify_note !== null);
    expect(verifying.previous_config).toBeNull(); // the view shows configs only when the operator must act
    const written = panel.files.get("/server.json")!;
    expect(written).not.toBe(CONFIG);
    for (const pw of PASSWORDS) expect(written).toContain(pw); // the game's file keeps its passwords

    // Stored sealed: bound to this deployment and column.
    const stored = storedConfigs(first, id);
    const key = first.deps.secrets.credentialKey;
    expect(stored.previous_config).toStartWith(`v1.${keyId(key)}.`);
    expect(stored.new_config).toStartWith(`v1.${keyId(key)}.`);
    expect(decryptSecret(stored.previous_config, key, deploymentConfigAad("previous_config")(id))).toBe(CONFIG);
    expect(decryptSecret(stored.new_config, key, deploymentConfigAad("new_config")(id))).toBe(written);
    expect(() => decryptSecret(stored.previous_config, key, deploymentConfigAad("new_config")(id))).toThrow(/failed authentication/);

    // The probe, while the service runs: the database, its WAL (the deploy's rows are there) and a backup.
    expect(existsSync(join(dataDir, "loadout.db-wal"))).toBe(true);
    const backupFile = join(scratch, "probe.db");
    const b = await cli(["backup", backupFile], dataDir);
    expect(b.code).toBe(0);
    expect(passwordHits([dataDir, backupFile])).toEqual([]);

    // The service stops; rotate-key runs on the data dir; the service starts with the new key.
    await stopKeepingData(first);
    const oldKeyText = readFileSync(join(dataDir, "secret-key"), "utf8").trim();
    const newKeyText = Buffer.alloc(32, 0x5c).toString("base64");
    const rotated = await cli(["rotate-key", "--new-key", newKeyText], dataDir);
    expect(rotated.code).toBe(0);
    expect(JSON.parse(rotated.out)).toMatchObject({ rotated: 1, total: 1, unreadable: [], deployment_configs_rotated: 2, deployment_configs_unreadable: [] });
    expect(readFileSync(join(dataDir, "secret-key"), "utf8").trim()).toBe(newKeyText);
    const second = await reopen(dataDir, clock);
    expect(second.deps.secrets.credentialKey.equals(parseKey(newKeyText))).toBe(true);
    const resealed = storedConfigs(second, id);
    expect(resealed.previous_config).toStartWith(`v1.${keyId(parseKey(newKeyText))}.`);
    expect(() => decryptSecret(resealed.previous_config, parseKey(oldKeyText), deploymentConfigAad("previous_config")(id))).toThrow(/not the configured secret key/);

    // The server never answers within 10 s: the rollback opens the previous config with the new
    // key and writes it back byte for byte; the server answers after the rollback's restart.
    panel.onPower = () => (a2s.mode = "direct");
    clock.advance(10_000);
    const done = await runUntil(second, owner, serverId, id, (d) => d.status === "success" || d.status === "failed");
    expect(done).toMatchObject({ status: "failed", rolled_back: true, phase: "done" });
    expect(done.error_message).toMatch(/the previous config was restored and the server answered again/);
    expect(panel.files.get("/server.json")).toBe(CONFIG);
    expect(panel.signals).toEqual(["restart", "restart"]);
    // And still nothing in clear after the rollback.
    expect(passwordHits([dataDir])).toEqual([]);
  });

  test("rows an earlier version stored in clear are sealed at the next start, their clear text gone from the file and the WAL", async () => {
    const clock = new SkipClock();
    const panel = startFakePanel({ files: { "/server.json": CONFIG } });
    cleanup.push(() => panel.stop());
    const a2s = await startA2sResponder({ name: "Loadout test", map: "Everon", players: 0, maxPlayers: 64, version: "1.2.1", gamePort: 2001 }, "silent");
    cleanup.push(() => a2s.close());
    const first = await createTestApp({ clock, env: { LOADOUT_ALLOW_PRIVATE_URLS: "true", LOADOUT_DEPLOY_POLL_MS: String(POLL_MS) } });
    const dataDir = first.dir;
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const owner = await first.createUser();
    const serverId = await panelServer(first, owner, panel, a2s);
    // What the version before this one wrote: the configs in clear, on a deployment whose rollback
    // failed (so the API shows them), and on 200 more finished ones.
    const written = CONFIG.replace('"name": "Old mod"', '"name": "New mod"');
    const insert = first.deps.sqlite.query(
      `INSERT INTO deployments (id, server_id, kind, status, trigger, restart_mode, phase, previous_config, new_config, restart_requested_at, restarted_at, created_at, finished_at)
       VALUES (?, ?, 'deploy', 'failed', 'manual', 'now', 'done', ?, ?, 1, 1, ?, ?)`,
    );
    const ids = Array.from({ length: 201 }, (_, i) => `0190aaaa-0000-7000-8000-${String(i).padStart(12, "0")}`);
    first.deps.sqlite.transaction(() => {
      for (const [i, id] of ids.entries()) insert.run(id, serverId, CONFIG, written, clock.now() - 1000 + i, clock.now());
    })();
    await stopKeepingData(first);
    // The probe sees them (in the database or its WAL): it would find a leak.
    expect(passwordHits([dataDir]).flatMap((h) => h.found).sort()).toEqual([...PASSWORDS].sort());

    const second = await reopen(dataDir, clock);
    expect(sealedLines(second).map((l) => l.values)).toEqual([ids.length * 2]);
    const key = second.deps.secrets.credentialKey;
    for (const id of [ids[0]!, ids[200]!]) {
      const s = storedConfigs(second, id);
      expect(decryptSecret(s.previous_config, key, deploymentConfigAad("previous_config")(id))).toBe(CONFIG);
      expect(decryptSecret(s.new_config, key, deploymentConfigAad("new_config")(id))).toBe(written);
    }
    // The API's answer is what it was: the failed rollback's configs, opened.
    const view = (await second.req("GET", `/api/v1/servers/${serverId}/deployments?limit=500`, { user: owner })).body.find((d: any) => d.id === ids[200]);
    expect(view).toMatchObject({ previous_config: CONFIG, new_config: written });
    expect(passwordHits([dataDir])).toEqual([]);
    await stopKeepingData(second);
    expect(passwordHits([dataDir])).toEqual([]);

    // Idempotent: the next start finds nothing left in clear.
    const third = await reopen(dataDir, clock);
    expect(sealedLines(third)).toEqual([]);
    expect(storedConfigs(third, ids[0]!).previous_config).toStartWith("v1.");
  });
});
