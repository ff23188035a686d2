// Items from data.pak files (docs/catalog.md "Items"): a real OpenSSH sshd serves a game server's
// folder with its addons; a deploy queues the items scan, which reads each pak over SFTP
// random-access reads; the admin trigger and a local addons folder do the same; each (mod, version)
// is read once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";
import { startSshd, type SshdPeer } from "../../../test/peers/sshd";
import { startFakeWorkshop, type FakeWorkshop } from "../../../test/fakes/workshop";
import { SAMPLE_SERVER_JSON } from "../../../test/fakes/panel-server-json";
import { smallCatalog, SMALL } from "../../../test/fixtures/workshop/dataset";
import { pakBytes } from "../../../test/fixtures/pak-writer";
import { queueDiscovery } from "./jobs";
import { versionFromServerData } from "./addons";

const V1 = [
  "Prefabs/Vehicles/Wheeled/UAZ469/UAZ469.et",
  "Prefabs/Vehicles/Wheeled/UAZ469/UAZ469_covered.et",
  "Prefabs/Weapons/Rifles/AK74/Rifle_AK74.et",
  "Prefabs/Characters/Uniforms/Jacket_Camo.et",
  "Configs/Something.conf",
];
const V2 = [
  "Prefabs/Vehicles/Wheeled/UAZ469/UAZ469.et",
  "Prefabs/Vehicles/Wheeled/BTR70/BTR70.et",
  "Prefabs/Weapons/Rifles/AK74/Rifle_AK74.et",
  "Prefabs/Characters/Uniforms/Jacket_Camo.et",
];

let sshd: SshdPeer;
let fake: FakeWorkshop;
let t: TestApp;
let owner: TestUser;
let admin: TestUser;

const addonDir = () => join(sshd.workDir, "addons", `EveronVehiclesPack_${SMALL.vehicles}`);

/** Puts a data.pak (and ServerData.json naming its version) where the game server keeps the addon. */
function installAddon(paths: string[], version: string | null) {
  const uid = statSync(sshd.workDir).uid;
  const gid = statSync(sshd.workDir).gid;
  mkdirSync(addonDir(), { recursive: true });
  chownSync(join(sshd.workDir, "addons"), uid, gid);
  chownSync(addonDir(), uid, gid);
  const pak = join(addonDir(), "data.pak");
  writeFileSync(pak, pakBytes(paths, { dataSize: 4096 }));
  chownSync(pak, uid, gid);
  const sd = join(addonDir(), "ServerData.json");
  if (version) writeFileSync(sd, JSON.stringify({ id: SMALL.vehicles, name: "Everon Vehicles Pack", revision: { version } }));
  else rmSync(sd, { force: true });
}

const items = async (version?: string) => (await t.req("GET", `/api/v1/mods/${SMALL.vehicles}/items${version ? `?version=${version}` : ""}`)).body;

beforeAll(async () => {
  sshd = await startSshd();
  fake = startFakeWorkshop({ mods: smallCatalog() });
  t = await createTestApp({ env: { LOADOUT_WORKSHOP_URL: fake.url, LOADOUT_WORKSHOP_RPS: "1000", LOADOUT_ALLOW_PRIVATE_URLS: "true" } });
  owner = await t.createUser();
  admin = await t.createUser({ role: "admin" });
  queueDiscovery(t.deps, "full");
  await t.deps.jobs.drain();
}, 60_000);

afterAll(async () => {
  await t.close();
  fake.stop();
  await sshd.stop();
});

describe("items from data.pak over SFTP", () => {
  test("a deploy queues the items scan; items of the installed version appear; a new version on the server is read by the admin trigger; diff compares them", async () => {
    sshd.writeFile("server.json", SAMPLE_SERVER_JSON);
    installAddon(V1, "1.0.0");
    const list = await t.req("POST", "/api/v1/lists", { user: owner, body: { name: "Vehicles" } });
    expect((await t.req("POST", `/api/v1/lists/${list.body.id}/mods`, { user: owner, body: { workshop_id: SMALL.vehicles } })).status).toBe(200);
    const server = await t.req("POST", "/api/v1/servers", {
      user: owner,
      body: { name: "Our server", connection_type: "sftp", file_path: join(sshd.workDir, "server.json"), linked_list_id: list.body.id },
    });
    expect(server.body).toMatchObject({ items_scan: false, addons_path: null });
    await t.req("POST", `/api/v1/servers/${server.body.id}/credentials`, {
      user: owner,
      body: { host: sshd.host, port: sshd.port, username: sshd.username, password: sshd.password },
    });
    expect((await t.req("POST", `/api/v1/servers/${server.body.id}/deploy`, { user: owner })).status).toBe(200);
    await t.deps.jobs.drain({ types: ["deploy.run"] });
    const queued = t.deps.jobs.list({ type: "items.scan", limit: 5 });
    expect(queued).toHaveLength(1);
    expect(queued[0]!.payload).toEqual({ server_id: server.body.id, scheduled_only: false });
    await t.deps.jobs.drain({ types: ["items.scan"] });
    const scan = t.deps.jobs.get(queued[0]!.id)!;
    expect(scan.status).toBe("succeeded");
    expect((scan.result as any).sources[0]).toMatchObject({
      source: `server:${server.body.id}`,
      addons: 1,
      scanned: [{ workshop_id: SMALL.vehicles, version: "1.0.0", version_from: "server_data", items: 4, paths: 5 }],
      failed: [],
    });
    // a pak of 4 KB of data read from well under a KB of headers and tree
    expect((scan.result as any).sources[0].scanned[0].bytes_read).toBeLessThan(1000);
    const v1 = await items("1.0.0");
    expect(v1.items.map((i: any) => [i.type, i.name]).sort()).toEqual([
      ["gear", "Jacket_Camo"],
      ["vehicle", "UAZ469"],
      ["vehicle", "UAZ469_covered"],
      ["weapon", "Rifle_AK74"],
    ]);

    // The same (mod, version) again: not read twice.
    const again = await t.req("POST", "/api/v1/jobs/items", { user: admin });
    expect(again.status).toBe(202);
    await t.deps.jobs.drain({ types: ["items.scan"] });
    expect((t.deps.jobs.get(again.body.job_id)!.result as any).sources[0]).toMatchObject({ already_scanned: 1, scanned: [] });

    // The server updated the mod: the next scan reads the new version's pak.
    installAddon(V2, "1.1.0");
    const next = await t.req("POST", "/api/v1/jobs/items", { user: admin });
    await t.deps.jobs.drain({ types: ["items.scan"] });
    expect((t.deps.jobs.get(next.body.job_id)!.result as any).sources[0].scanned).toMatchObject([{ version: "1.1.0", items: 4 }]);
    const diff = await t.req("GET", `/api/v1/mods/${SMALL.vehicles}/diff?from=1.0.0&to=1.1.0`);
    expect(diff.status).toBe(200);
    expect(diff.body.added.map((i: any) => i.name)).toEqual(["BTR70"]);
    expect(diff.body.removed.map((i: any) => i.name)).toEqual(["UAZ469_covered"]);
    expect(diff.body.items_known).toEqual({ from: true, to: true });
  }, 60_000);

  test("without ServerData.json the version is the one deployed, else the catalog's; a broken pak fails alone", async () => {
    installAddon(V1, null);
    const server = t.deps.sqlite.query("SELECT id FROM servers LIMIT 1").get() as { id: string };
    // The last deployment's snapshot has no version for the mod (the list pins none), so the catalog's current one is used.
    t.deps.sqlite.exec("DELETE FROM mod_item_scans; DELETE FROM mod_items");
    const r = await t.req("POST", "/api/v1/jobs/items", { user: admin });
    await t.deps.jobs.drain({ types: ["items.scan"] });
    const res = (t.deps.jobs.get(r.body.job_id)!.result as any).sources[0];
    const current = (await t.req("GET", `/api/v1/mods/${SMALL.vehicles}`)).body.version;
    expect(res.scanned).toMatchObject([{ version: current, version_from: "catalog" }]);
    // A damaged pak: the scan reports it and goes on.
    writeFileSync(join(addonDir(), "data.pak"), "not a pak at all, just text");
    t.deps.sqlite.exec("DELETE FROM mod_item_scans; DELETE FROM mod_items");
    const bad = await t.req("POST", "/api/v1/jobs/items", { user: admin });
    await t.deps.jobs.drain({ types: ["items.scan"] });
    const job = t.deps.jobs.get(bad.body.job_id)!;
    expect(job.status).toBe("succeeded");
    expect((job.result as any).sources[0].failed).toEqual([{ workshop_id: SMALL.vehicles, error: 'not a PAK file: starts with "not ", expected FORM…PAC1 (at byte offset 0)' }]);
    expect(server.id).toBeString();
  }, 60_000);

  test("a local addons folder (LOADOUT_ADDONS_DIR)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loadout-addons-"));
    const local = await createTestApp({ env: { LOADOUT_WORKSHOP_URL: fake.url, LOADOUT_WORKSHOP_RPS: "1000", LOADOUT_ADDONS_DIR: dir } });
    try {
      queueDiscovery(local.deps, "full");
      await local.deps.jobs.drain();
      mkdirSync(join(dir, `Vehicles_${SMALL.vehicles}`));
      writeFileSync(join(dir, `Vehicles_${SMALL.vehicles}`, "data.pak"), pakBytes(V2));
      writeFileSync(join(dir, `Vehicles_${SMALL.vehicles}`, "ServerData.json"), JSON.stringify({ revision: { version: "1.1.0" } }));
      mkdirSync(join(dir, "NotAnAddon"));
      const r = await local.req("POST", "/api/v1/jobs/items", { user: await local.createUser({ role: "admin" }) });
      await local.deps.jobs.drain({ types: ["items.scan"] });
      expect((local.deps.jobs.get(r.body.job_id)!.result as any).sources).toMatchObject([{ source: "local", addons: 1, scanned: [{ version: "1.1.0", items: 4 }] }]);
      expect((await local.req("GET", `/api/v1/mods/${SMALL.vehicles}/items?version=1.1.0`)).body.items).toHaveLength(4);
    } finally {
      await local.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("POST /jobs/items is for admins; ServerData.json versions are read where they are", async () => {
    expect((await t.req("POST", "/api/v1/jobs/items", { user: owner })).status).toBe(403);
    expect((await t.req("POST", "/api/v1/jobs/items")).status).toBe(401);
    expect(versionFromServerData(JSON.stringify({ id: "X", revision: { version: "1.2.3" } }))).toBe("1.2.3");
    expect(versionFromServerData(JSON.stringify({ version: "0.9.1", gameVersion: "1.3.0.140" }))).toBe("0.9.1");
    expect(versionFromServerData(JSON.stringify({ gameVersion: "1.3.0.140" }))).toBeNull();
    expect(versionFromServerData("{not json")).toBeNull();
  });
});
