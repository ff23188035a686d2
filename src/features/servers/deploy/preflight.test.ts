// Pre-flight for the target server (docs/deploy.md), through the real app: a catalog scraped from
// the fake workshop (scenarios by gameId, versions with gameVersion), configs on the fake panel and
// a real sshd, an A2S responder reporting the server's version, and data.pak files written by the
// test pak writer and read through LOADOUT_ADDONS_DIR.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startA2sResponder, type A2sResponder } from "../../../../test/fakes/a2s";
import { SAMPLE_SERVER_JSON } from "../../../../test/fakes/panel-server-json";
import { startFakePanel, type FakePanel } from "../../../../test/fakes/panel";
import { startFakeWorkshop, type FakeWorkshop } from "../../../../test/fakes/workshop";
import { pakBytes } from "../../../../test/fixtures/pak-writer";
import { mod, ver, type FakeMod } from "../../../../test/fixtures/workshop/dataset";
import { createTestApp, type TestApp, type TestUser } from "../../../../test/helpers";
import { startSshd, type SshdPeer } from "../../../../test/peers/sshd";
import { queueDiscovery } from "../../scraper/jobs";
import { DEPLOY_JOB, runAutoDeploy } from "./jobs";
import { compareGameVersions } from "./game-version";
import { BASE_GAME_SCENARIOS, downloadWords } from "./preflight";

const ID = {
  core: "F100000000000001",
  missions: "F100000000000002",
  fresh: "F100000000000003",
  old: "F100000000000004",
  packA: "F100000000000005",
  packB: "F100000000000006",
  patchA: "F100000000000007",
  plain: "F100000000000008",
  frontAddon: "F100000000000009",
} as const;
const MOD_SCENARIO = "{AAAA0000BBBB1111}Missions/Frontline.conf";
const BASE_SCENARIO = "{ECC61978EDCC2B5A}Missions/23_Campaign.conf";
const UNKNOWN_SCENARIO = "{0123456789ABCDEF}Missions/Nowhere.conf";
const SERVER_GAME = "1.2.1.169";

function catalog(): FakeMod[] {
  return [
    mod({ id: ID.core, name: "Core Kit", versions: [ver("1.0.0", 1, 100_000_000)] }),
    mod({
      id: ID.missions,
      name: "Frontline Missions",
      versions: [
        ver("2.0.0", 2, 300_000_000, [], {
          scenarios: [{ name: "Frontline Everon", gameId: MOD_SCENARIO, gameMode: "Conflict", playerCount: 64, description: "Front" }],
        }),
      ],
    }),
    mod({
      id: ID.fresh,
      name: "Fresh Mod",
      versions: [ver("1.4.2", 3, 40_000_000), ver("1.5.0", 30, 50_000_000, [], { gameVersion: "1.3.0.140" })],
    }),
    mod({ id: ID.old, name: "Old Mod", versions: [ver("1.0.0", 4, 10_000_000, [], { gameVersion: "1.1.0.42" })] }),
    mod({ id: ID.packA, name: "Weapons Pack A", versions: [ver("1.0.0", 5, 200_000_000)] }),
    mod({ id: ID.packB, name: "Weapons Pack B", versions: [ver("1.0.0", 6, 250_000_000)] }),
    mod({ id: ID.patchA, name: "Pack A Patch", versions: [ver("1.0.0", 7, 5_000_000, [{ id: ID.packA, version: "1.0.0" }])] }),
    mod({ id: ID.plain, name: "Plain Mod", versions: [ver("1.0.0", 8, 1_000_000)] }),
    mod({ id: ID.frontAddon, name: "Frontline Addon", versions: [ver("1.0.0", 9, 2_000_000, [{ id: ID.missions, version: "2.0.0" }])] }),
  ];
}

const SHARED = ["Prefabs/Weapons/Rifles/M16/Rifle_M16A2.et", "Prefabs/Weapons/Rifles/M16/Rifle_M16A2_carbine.et"];

let t: TestApp;
let fake: FakeWorkshop;
let panel: FakePanel;
let sshd: SshdPeer;
let a2s: A2sResponder;
let addons: string;
let owner: TestUser;
let other: TestUser;

function configWith(scenarioId: string, mods: { modId: string; name: string; version?: string }[] = []): string {
  const c = JSON.parse(SAMPLE_SERVER_JSON);
  c.game.scenarioId = scenarioId;
  c.game.mods = mods;
  return `${JSON.stringify(c, null, 2)}\n`;
}

function writeAddon(id: string, paths: string[]) {
  mkdirSync(join(addons, `Addon_${id}`), { recursive: true });
  writeFileSync(join(addons, `Addon_${id}`, "data.pak"), pakBytes(paths));
}

beforeAll(async () => {
  fake = startFakeWorkshop({ mods: catalog() });
  addons = mkdtempSync(join(tmpdir(), "loadout-preflight-addons-"));
  // Pack A and Pack B ship the same rifles; the patch (depending on Pack A) overrides one of them.
  writeAddon(ID.packA, [...SHARED, "Prefabs/Weapons/Rifles/AK74/Rifle_AK74.et"]);
  writeAddon(ID.packB, [...SHARED, "Prefabs/Vehicles/Wheeled/M998/M998.et"]);
  writeAddon(ID.patchA, ["Prefabs/Weapons/Rifles/AK74/Rifle_AK74.et"]);
  t = await createTestApp({
    env: { LOADOUT_WORKSHOP_URL: fake.url, LOADOUT_WORKSHOP_RPS: "1000", LOADOUT_ALLOW_PRIVATE_URLS: "true", LOADOUT_ADDONS_DIR: addons },
  });
  panel = startFakePanel();
  sshd = await startSshd();
  a2s = await startA2sResponder({ name: "Test", map: "Everon", players: 0, maxPlayers: 64, version: SERVER_GAME, gamePort: 2001 });
  owner = await t.createUser({ display_name: "Owner" });
  other = await t.createUser({ display_name: "Other" });
  queueDiscovery(t.deps, "full");
  await t.deps.jobs.drain();
  const scan = await t.req("POST", "/api/v1/jobs/items", { user: await t.createUser({ role: "admin" }) });
  expect(scan.status).toBe(202);
  await t.deps.jobs.drain({ types: ["items.scan"] });
}, 120_000);

afterAll(async () => {
  await t?.close();
  fake?.stop();
  await panel?.stop();
  await sshd?.stop();
  a2s?.close();
  rmSync(addons, { recursive: true, force: true });
});

const drain = () => t.deps.jobs.drain({ types: [DEPLOY_JOB] });

async function list(mods: string[], user = owner): Promise<string> {
  const res = await t.req("POST", "/api/v1/lists", { user, body: { name: `Pre-flight ${Math.random()}`, description: "", is_public: false } });
  for (const workshop_id of mods) expect((await t.req("POST", `/api/v1/lists/${res.body.id}/mods`, { user, body: { workshop_id } })).status).toBeLessThan(300);
  return res.body.id;
}

async function panelServer(listId: string, file: string, extra: Record<string, unknown> = {}) {
  panel.files.set(file, configWith(BASE_SCENARIO));
  const s = await t.req("POST", "/api/v1/servers", { user: owner, body: { name: "Panel", connection_type: "panel", file_path: file, linked_list_id: listId, ...extra } });
  expect(s.status).toBe(200);
  await t.req("POST", `/api/v1/servers/${s.body.id}/credentials`, { user: owner, body: { panel_url: panel.url, api_key: panel.apiKey, server_uuid: panel.serverUuid } });
  return s.body.id as string;
}

async function sftpServer(listId: string, name: string, config: string, extra: Record<string, unknown> = {}) {
  const path = sshd.writeFile(name, config);
  const s = await t.req("POST", "/api/v1/servers", { user: owner, body: { name: "SFTP", connection_type: "sftp", file_path: path, linked_list_id: listId, ...extra } });
  expect(s.status).toBe(200);
  await t.req("POST", `/api/v1/servers/${s.body.id}/credentials`, {
    user: owner,
    body: { host: sshd.host, port: sshd.port, username: sshd.username, password: sshd.password },
  });
  return { id: s.body.id as string, path };
}

/** Runs a connection test: Loadout records the scenario and mods it read. */
async function connectionTest(serverId: string) {
  const r = await t.req("POST", `/api/v1/servers/${serverId}/test`, { user: owner });
  expect(r.status).toBe(200);
  await drain();
  const d = (await t.req("GET", `/api/v1/servers/${serverId}/deployments`, { user: owner })).body.find((x: any) => x.id === r.body.deployment_id);
  expect(d.status).toBe("success");
}

async function check(listId: string, serverId?: string, user = owner) {
  return t.req("GET", `/api/v1/lists/${listId}/check${serverId ? `?server_id=${serverId}` : ""}`, { user });
}

const kinds = (body: any) => body.findings.map((f: any) => f.kind);
const finding = (body: any, kind: string) => body.findings.find((f: any) => f.kind === kind);

describe("scenario", () => {
  test("from a catalog mod not in the list: scenario_missing with its fix; the guard refuses, adding the mod lets the deploy through", async () => {
    const listId = await list([ID.core]);
    const serverId = await panelServer(listId, "/scenario-missing.json");
    // Not read yet: said so, and the scenario is not judged.
    const before = await check(listId, serverId);
    expect(before.status).toBe(200);
    expect(kinds(before.body)).toContain("server_config_unknown");
    expect(kinds(before.body)).not.toContain("scenario_missing");

    panel.files.set("/scenario-missing.json", configWith(MOD_SCENARIO, [{ modId: ID.core, name: "Core Kit" }]));
    await connectionTest(serverId);
    const res = await check(listId, serverId);
    expect(res.body.ok).toBe(false);
    expect(res.body.findings[0]).toEqual({
      kind: "scenario_missing",
      severity: "error",
      blocks_deploy: true,
      // Names, not ids (the ids are in `mods`); the fix says what it does.
      message: `The server's scenario "Frontline Everon" comes from Frontline Missions, which is neither in the list nor among its dependencies: the server could not start it`,
      mods: [ID.missions],
      fix: { action: "add_mod", label: "Add Frontline Missions", workshop_id: ID.missions, adds: [ID.missions] },
    });
    expect(res.body.server).toMatchObject({ server_id: serverId, scenario_id: MOD_SCENARIO, scenario_name: "Frontline Everon" });

    // The guard: 409 with the findings, nothing written.
    const written = panel.requests.filter((r) => r.method === "POST").length;
    const refused = await t.req("POST", `/api/v1/servers/${serverId}/deploy`, { user: owner, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toStartWith("pre-flight for this server found 1 error, nothing was written: ");
    expect(refused.body.findings.map((f: any) => f.kind)).toEqual(["scenario_missing"]);
    expect((await t.req("GET", `/api/v1/servers/${serverId}/deployments`, { user: owner })).body.filter((d: any) => d.kind === "deploy")).toEqual([]);
    expect(panel.requests.filter((r) => r.method === "POST").length).toBe(written);

    // The fix (one API call), then the deploy goes through.
    expect((await t.req("POST", `/api/v1/lists/${listId}/mods`, { user: owner, body: { workshop_id: ID.missions } })).status).toBeLessThan(300);
    expect(kinds((await check(listId, serverId)).body)).not.toContain("scenario_missing");
    const ok = await t.req("POST", `/api/v1/servers/${serverId}/deploy`, { user: owner, body: {} });
    expect(ok.status).toBe(200);
    await drain();
    const d = (await t.req("GET", `/api/v1/servers/${serverId}/deployments`, { user: owner })).body[0];
    expect(d).toMatchObject({ kind: "deploy", status: "success", forced: false });
    expect(JSON.parse(panel.files.get("/scenario-missing.json")!).game.mods.map((m: any) => m.modId)).toEqual([ID.core, ID.missions]);
  });

  test("SFTP: from a mod in the list, from the base game: no scenario finding; unknown anywhere: scenario_unknown", async () => {
    const listId = await list([ID.missions, ID.plain]);
    const { id } = await sftpServer(listId, "in-list.json", configWith(MOD_SCENARIO));
    await connectionTest(id);
    const inList = await check(listId, id);
    expect(kinds(inList.body)).not.toContain("scenario_missing");
    expect(kinds(inList.body)).not.toContain("scenario_unknown");
    expect(inList.body.server.scenario_name).toBe("Frontline Everon");

    sshd.writeFile("in-list.json", configWith(BASE_SCENARIO));
    await connectionTest(id);
    const base = await check(listId, id);
    expect(base.body.server).toMatchObject({ scenario_id: BASE_SCENARIO, scenario_name: "Conflict - Everon" });
    expect(kinds(base.body).filter((k: string) => k.startsWith("scenario"))).toEqual([]);

    sshd.writeFile("in-list.json", configWith(UNKNOWN_SCENARIO));
    await connectionTest(id);
    const unknown = await check(listId, id);
    expect(finding(unknown.body, "scenario_unknown")).toMatchObject({ severity: "warning", fix: { action: "choose_scenario", label: "Choose another scenario" } });
    expect(unknown.body.ok).toBe(true); // a warning does not block
    expect(BASE_GAME_SCENARIOS.get("59AD59368755F41A")).toBe("Game Master - Everon");
  });

  test("SFTP: the providing mod reached as a dependency of the list counts; a list without it is scenario_missing", async () => {
    const viaDependency = await list([ID.frontAddon]);
    const { id } = await sftpServer(viaDependency, "dep.json", configWith(MOD_SCENARIO));
    await connectionTest(id);
    const via = (await check(viaDependency, id)).body;
    expect(kinds(via)).not.toContain("scenario_missing");
    // The dependency the list lacks does not stop the deploy (the server's rule: blocks_deploy): a warning, by name.
    expect(finding(via, "missing_dependency")).toEqual({
      kind: "missing_dependency",
      severity: "warning",
      blocks_deploy: false,
      message: "Frontline Missions is required by Frontline Addon but not in the list",
      mods: [ID.missions, ID.frontAddon],
      fix: { action: "add_mod", label: "Add Frontline Missions", workshop_id: ID.missions, adds: [ID.missions] },
    });
    expect(via.ok).toBe(true);
    expect(via.findings.filter((f: any) => f.blocks_deploy)).toEqual([]);
    const without = await list([ID.core]);
    expect(finding((await check(without, id)).body, "scenario_missing")).toMatchObject({ severity: "error", mods: [ID.missions] });
  });
});

describe("game version", () => {
  test("newer than the server (A2S): error with a pin fix; the pin clears it; older major.minor: warning; a newer server: no error", async () => {
    a2s.info.version = SERVER_GAME;
    const listId = await list([ID.fresh, ID.old, ID.plain]);
    const serverId = await panelServer(listId, "/versions.json", { query_address: `127.0.0.1:${a2s.port}` });
    await connectionTest(serverId);
    const res = await check(listId, serverId);
    expect(res.body.server).toMatchObject({ game_version: SERVER_GAME, game_version_from: "a2s", game_version_note: null });
    expect(finding(res.body, "game_version_newer")).toEqual({
      kind: "game_version_newer",
      severity: "error",
      blocks_deploy: true,
      message: expect.stringContaining(`Fresh Mod 1.5.0 was published for game version 1.3.0.140, newer than the server's ${SERVER_GAME}`),
      mods: [ID.fresh],
      fix: { action: "pin_version", label: "Pin Fresh Mod to 1.4.2", workshop_id: ID.fresh, version: "1.4.2" },
    });
    expect(finding(res.body, "game_version_older")).toMatchObject({ severity: "warning", mods: [ID.old] });
    expect(res.body.findings.filter((f: any) => ["game_version_newer", "game_version_older"].includes(f.kind) && f.mods.includes(ID.plain))).toEqual([]);

    // The guard refuses; force deploys and is recorded.
    const refused = await t.req("POST", `/api/v1/servers/${serverId}/deploy`, { user: owner, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.findings).toEqual([finding(res.body, "game_version_newer")]);
    const forced = await t.req("POST", `/api/v1/servers/${serverId}/deploy`, { user: owner, body: { force: true } });
    expect(forced.status).toBe(200);
    await drain();
    const d = (await t.req("GET", `/api/v1/servers/${serverId}/deployments`, { user: owner })).body[0];
    expect(d).toMatchObject({ id: forced.body.deployment_id, status: "success", forced: true });

    // The pin fix.
    expect((await t.req("PUT", `/api/v1/lists/${listId}/mods/${ID.fresh}/version`, { user: owner, body: { version: "1.4.2" } })).status).toBe(204);
    const pinned = await check(listId, serverId);
    expect(kinds(pinned.body)).not.toContain("game_version_newer");

    // A server on a newer game: nothing is newer than it; Old Mod is still older.
    await t.req("PUT", `/api/v1/lists/${listId}/mods/${ID.fresh}/version`, { user: owner, body: { version: null } });
    a2s.info.version = "1.3.0.140";
    const newer = await check(listId, serverId);
    expect(newer.body.server.game_version).toBe("1.3.0.140");
    expect(kinds(newer.body)).not.toContain("game_version_newer");
    expect(finding(newer.body, "game_version_older").mods).toEqual([ID.old]);
    a2s.info.version = SERVER_GAME;
  });

  test("no A2S answer: the live source's version for the address, else unknown and the version findings skipped (said why)", async () => {
    const silent = await startA2sResponder({ name: "x", map: "x", players: 0, maxPlayers: 1, version: "9.9", gamePort: null }, "silent");
    try {
      const listId = await list([ID.fresh]);
      const serverId = await panelServer(listId, "/silent.json", { query_address: `127.0.0.1:${silent.port}` });
      const res = await check(listId, serverId);
      expect(res.body.server).toMatchObject({ game_version: null, game_version_from: null });
      expect(res.body.server.game_version_note).toContain("version checks skipped");
      expect(finding(res.body, "game_version_unknown").message).toContain(`no A2S answer from 127.0.0.1:${silent.port}`);
      expect(kinds(res.body)).not.toContain("game_version_newer");

      // The live source has seen the server (a row as the live ingest writes it).
      t.deps.sqlite
        .query(
          `INSERT INTO game_servers (id, sid, source, host_address, name, ip, port, game_version, first_seen_at, last_seen_at)
           VALUES ('gs-preflight', 990001, 'battlemetrics', ?, 'Live', '127.0.0.1', ?, '1.2.0.102', ?, ?)`,
        )
        .run(`127.0.0.1:${silent.port}`, silent.port, Date.now(), Date.now());
      const live = await check(listId, serverId);
      expect(live.body.server).toMatchObject({ game_version: "1.2.0.102", game_version_from: "live" });
      expect(finding(live.body, "game_version_newer").mods).toEqual([ID.fresh]);
    } finally {
      silent.close();
    }
  });

  test("versions compare over the parts both have", () => {
    expect(compareGameVersions("1.2.1", "1.2.1.169")).toBe(0);
    expect(compareGameVersions("1.3.0.140", "1.2.1.169")).toBe(1);
    expect(compareGameVersions("1.2.0.102", "1.2.1.169")).toBe(-1);
  });
});

describe("file conflicts (items read from data.pak through LOADOUT_ADDONS_DIR)", () => {
  test("two mods of the list shipping the same paths: a warning naming both, the paths and the later one; a mod and its dependency: none", async () => {
    const listId = await list([ID.packA, ID.patchA, ID.packB]);
    const serverId = await panelServer(listId, "/conflict.json");
    const res = await check(listId, serverId);
    const conflicts = res.body.findings.filter((f: any) => f.kind === "file_conflict");
    expect(conflicts).toEqual([
      {
        kind: "file_conflict",
        severity: "warning",
        blocks_deploy: false,
        message: `Weapons Pack A and Weapons Pack B both ship 2 files (${SHARED.map((p) => p.toLowerCase()).join(", ")}); Weapons Pack B comes later in the mod order, so its copy is the one the game loads`,
        mods: [ID.packA, ID.packB],
      },
    ]);
    // Pack A and its patch share Rifle_AK74.et, but the patch depends on Pack A: by design.
    const noConflict = await list([ID.packA, ID.patchA]);
    expect(kinds((await check(noConflict, serverId)).body)).not.toContain("file_conflict");
  });
});

describe("download", () => {
  test("what a new player downloads, and what a player with the server's current mods downloads for this change", async () => {
    const listId = await list([ID.core, ID.packA, ID.packB]);
    const serverId = await panelServer(listId, "/download.json");
    const unknown = await check(listId, serverId);
    expect(unknown.body.server.download).toEqual({ full_bytes: 550_000_000, full_mods: 3, change_bytes: null, change_new: null, change_updated: null });
    panel.files.set("/download.json", configWith(BASE_SCENARIO, [{ modId: ID.core, name: "Core Kit" }, { modId: ID.packA, name: "Pack A", version: "0.9.0" }]));
    await connectionTest(serverId);
    const res = await check(listId, serverId);
    expect(res.body.server.download).toEqual({ full_bytes: 550_000_000, full_mods: 3, change_bytes: 450_000_000, change_new: 1, change_updated: 1 });
    expect(finding(res.body, "download")).toEqual({
      kind: "download",
      blocks_deploy: false,
      severity: "info",
      message:
        "A player who has none of these mods downloads 550 MB (3 mods) before joining. A player who has the server's current mods downloads 450 MB for this change (1 new, 1 updated).",
      mods: [],
    });
    expect(downloadWords({ full_bytes: 3_200_000_000, full_mods: 12, change_bytes: 0, change_new: 0, change_updated: 0 })).toBe(
      "A player who has none of these mods downloads 3.2 GB (12 mods) before joining. A player who has the server's current mods downloads nothing for this change.",
    );
  });
});

describe("the check's contract", () => {
  test("without server_id the answer is today's; server_id needs the caller's server and a list it may deploy", async () => {
    const listId = await list([ID.core]);
    const serverId = await panelServer(listId, "/contract.json");
    const plain = await check(listId);
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body).sort()).toEqual(["findings", "mod_count", "ok", "total_download_size_bytes", "total_size_bytes"]);
    expect(plain.body.findings.filter((f: any) => f.fix !== undefined || ["download", "server_config_unknown"].includes(f.kind))).toEqual([]);
    // Someone else's server: 404, as for deploys.
    const otherList = await list([ID.core], other);
    expect((await check(otherList, serverId, other)).status).toBe(404);
    expect((await check(otherList, serverId, other)).body).toEqual({ error: "server not found", code: "server.not_found" });
    // The owner's server, a list the owner may not deploy (not even read): 404 list not found.
    expect((await check(otherList, serverId, owner)).status).toBe(404);
    // Read access through the share link is no deploy right: 404 list not found, as for deploys.
    const share = (await t.req("GET", `/api/v1/lists/${otherList}`, { user: other })).body.share_token;
    const shared = await t.req("GET", `/api/v1/lists/${otherList}/check?share=${share}&server_id=${serverId}`, { user: owner });
    expect(shared.status).toBe(404);
    expect(shared.body).toEqual({ error: "list not found", code: "list.not_found" });
    // A collaborator without can_deploy: 403, as for deploys.
    t.deps.sqlite
      .query("INSERT INTO list_collaborators (list_id, user_id, can_add, can_remove, can_deploy, added_at) VALUES (?, ?, 1, 0, 0, ?)")
      .run(otherList, owner.id, Date.now());
    const collaborator = await check(otherList, serverId, owner);
    expect(collaborator.status).toBe(403);
    expect((await t.req("POST", `/api/v1/servers/${serverId}/deploy`, { user: owner, body: { list_id: otherList } })).status).toBe(403);
    // Anonymous (through the share link) with server_id: 401.
    const anon = await t.req("GET", `/api/v1/lists/${otherList}/check?share=${share}&server_id=${serverId}`);
    expect(anon.status).toBe(401);
    expect((await t.req("GET", `/api/v1/lists/${otherList}/check?share=${share}`)).status).toBe(200);
  });
});

describe("auto-deploy", () => {
  test("blocked: a failed deployment whose error lists the findings, and an event; the file is left as it was", async () => {
    const listId = await list([ID.core, ID.missions]);
    const { id, path } = await sftpServer(listId, "auto.json", configWith(BASE_SCENARIO), { auto_deploy: true });
    await connectionTest(id);
    // The scenario is changed on the server after the last read; the job reads it again before writing.
    const config = configWith(MOD_SCENARIO);
    sshd.writeFile("auto.json", config);
    expect((await t.req("DELETE", `/api/v1/lists/${listId}/mods/${ID.missions}`, { user: owner })).status).toBeLessThan(300);
    const queued = runAutoDeploy(t.deps, listId);
    expect(queued.deployments).toHaveLength(1);
    await drain();
    const d = (await t.req("GET", `/api/v1/servers/${id}/deployments`, { user: owner })).body.find((x: any) => x.id === queued.deployments[0]);
    expect(d).toMatchObject({ kind: "deploy", trigger: "auto", status: "failed", forced: false });
    expect(d.error_message).toStartWith("pre-flight for this server found 1 error, nothing was written: ");
    expect(d.error_message).toContain("Frontline Missions");
    expect(sshd.readFile("auto.json")).toBe(config);
    expect(path).toEndWith("auto.json");
    const events = t.deps.sqlite.query("SELECT data FROM event_outbox WHERE kind = 'deployment_failed'").all() as { data: string }[];
    expect(events.map((e) => JSON.parse(e.data)).find((e) => e.deployment_id === d.id)).toMatchObject({ trigger: "auto", error_message: d.error_message });
  });
});

describe("the server's config as the game checks it at start", () => {
  /** The sample config with `maxPlayers` misspelt, a legacy root key and `maxPlayers`... as a panel template might carry them. */
  const typoed = () =>
    configWith(BASE_SCENARIO, [{ modId: ID.core, name: "Core Kit" }])
      .replace('"maxPlayers": 64', '"maxplayers": 64')
      .replace('"bindPort": 2001', '"gameHostBindPort": 2001');

  for (const peer of ["panel", "sftp"] as const) {
    test(`${peer}: a misspelt and a legacy key are errors with a rename fix; the deploy renames them in the same write, every other byte kept`, async () => {
      const listId = await list([ID.core, ID.plain]);
      let serverId: string;
      let read: () => string;
      if (peer === "panel") {
        serverId = await panelServer(listId, "/config-typo.json");
        panel.files.set("/config-typo.json", typoed());
        read = () => panel.files.get("/config-typo.json")!;
      } else {
        const s = await sftpServer(listId, "config-typo.json", typoed());
        serverId = s.id;
        read = () => sshd.readFile("config-typo.json");
      }
      await connectionTest(serverId);
      const res = await check(listId, serverId);
      const invalid = res.body.findings.filter((f: any) => f.kind === "config_invalid");
      expect(invalid.map((f: any) => [f.severity, f.path, f.fix?.action, f.fix?.to])).toEqual([
        ["error", "gameHostBindPort", "rename_key", "bindPort"],
        ["error", "game.maxplayers", "rename_key", "maxPlayers"],
      ]);
      expect(invalid[1].message).toContain('did you mean "maxPlayers"');
      expect(invalid[1].message).toContain("the server would refuse to start with it");

      // The guard refuses: nothing written.
      const before = read();
      const refused = await t.req("POST", `/api/v1/servers/${serverId}/deploy`, { user: owner, body: {} });
      expect(refused.status).toBe(409);
      expect(refused.body.findings.map((f: any) => f.kind)).toEqual(["config_invalid", "config_invalid"]);
      expect(read()).toBe(before);

      // One rename fixed: still refused for the other. Both: the deploy goes through.
      const renames = invalid.map((f: any) => ({ path: f.fix.path, from: f.fix.from, to: f.fix.to }));
      expect((await t.req("POST", `/api/v1/servers/${serverId}/deploy`, { user: owner, body: { rename_keys: renames.slice(0, 1) } })).status).toBe(409);
      const ok = await t.req("POST", `/api/v1/servers/${serverId}/deploy`, { user: owner, body: { rename_keys: renames } });
      expect(ok.status).toBe(200);
      await drain();
      const d = (await t.req("GET", `/api/v1/servers/${serverId}/deployments`, { user: owner })).body[0];
      expect(d).toMatchObject({ kind: "deploy", status: "success" });
      const after = read();
      // Only the two key names and game.mods changed.
      const { outsideMods } = await import("../../../../test/config-text");
      expect(outsideMods(after)).toBe(outsideMods(before.replace('"maxplayers"', '"maxPlayers"').replace('"gameHostBindPort"', '"bindPort"')));
      expect(JSON.parse(after).game.mods.map((m: any) => m.modId)).toEqual([ID.core, ID.plain]);
      // What was written is what the findings now read: no config problem left.
      expect((await check(listId, serverId)).body.findings.filter((f: any) => f.kind === "config_invalid")).toEqual([]);
    });
  }

  test("a duplicated key is a warning (which value the game takes), not a block", async () => {
    const listId = await list([ID.core]);
    const serverId = await panelServer(listId, "/config-dup.json");
    panel.files.set("/config-dup.json", configWith(BASE_SCENARIO, [{ modId: ID.core, name: "Core Kit" }]).replace('"maxPlayers": 64', '"maxPlayers": 64,\n    "maxPlayers": 32'));
    await connectionTest(serverId);
    const dup = (await check(listId, serverId)).body.findings.filter((f: any) => f.kind === "config_invalid");
    expect(dup.map((f: any) => [f.severity, f.path])).toEqual([["warning", "game.maxPlayers"]]);
    expect((await t.req("POST", `/api/v1/servers/${serverId}/deploy`, { user: owner, body: {} })).status).toBe(200);
    await drain();
  });
});
