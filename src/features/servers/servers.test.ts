// Registered game servers, credentials, deployments (panel fake + real sshd), deploy approval,
// auto_deploy debounce, crash recovery and key rotation, through the real app.
// Long on purpose: the cases share one real sshd and one fake panel started once for the file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SAMPLE_SERVER_JSON } from "../../../test/fakes/panel-server-json";
import { startFakePanel, type FakePanel } from "../../../test/fakes/panel";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";
import { startSshd, type SshdPeer } from "../../../test/peers/sshd";
import { startA2sResponder } from "../../../test/fakes/a2s";
import { decryptSecret, generateKey, keyId, parseKey } from "../../shared/crypto";
import { AUTO_DEPLOY_CHANGE_JOB, AUTO_DEPLOY_JOB, DEPLOY_JOB } from "./deploy/jobs";
import { readCredentialsForServer, rotateCredentialKey } from "./service";
import { LEASE_MS } from "../../jobs/queue";

const DEPLOY_TYPES = [DEPLOY_JOB, AUTO_DEPLOY_JOB, AUTO_DEPLOY_CHANGE_JOB];
const MOD_A = "5965550F24A0C152";
const MOD_B = "591AF5BDD9EEEE4C";
const MOD_C = "AAAABBBBCCCCDDDD";

let t: TestApp;
let panel: FakePanel;
let sshd: SshdPeer;
let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await createTestApp({ env: { LOADOUT_ALLOW_PRIVATE_URLS: "true" } });
  panel = startFakePanel();
  sshd = await startSshd();
  owner = await t.createUser({ display_name: "Owner" });
  other = await t.createUser({ display_name: "Other" });
});
afterAll(async () => {
  await t?.close();
  await panel?.stop();
  await sshd?.stop();
});

const drain = () => t.deps.jobs.drain({ types: DEPLOY_TYPES });

async function createList(user: TestUser, mods: string[] = [MOD_A, MOD_B]): Promise<string> {
  const res = await t.req("POST", "/api/v1/lists", { user, body: { name: `List ${Math.random()}`, description: "", is_public: false } });
  expect(res.status).toBe(200);
  for (const workshop_id of mods) {
    const add = await t.req("POST", `/api/v1/lists/${res.body.id}/mods`, { user, body: { workshop_id } });
    expect(add.status).toBeLessThan(300);
  }
  return res.body.id;
}

async function createServer(user: TestUser, body: Record<string, unknown>) {
  const res = await t.req("POST", "/api/v1/servers", { user, body: { name: "Test server", connection_type: "panel", file_path: "/server.json", ...body } });
  expect(res.status).toBe(200);
  return res.body;
}

async function panelServer(user: TestUser, listId: string | null, extra: Record<string, unknown> = {}) {
  const server = await createServer(user, { linked_list_id: listId, ...extra });
  const creds = await t.req("POST", `/api/v1/servers/${server.id}/credentials`, {
    user,
    body: { panel_url: panel.url, api_key: panel.apiKey, server_uuid: panel.serverUuid },
  });
  expect(creds.status).toBe(200);
  return server;
}

function addCollaborator(listId: string, user: TestUser, canDeploy: boolean) {
  t.deps.sqlite
    .query("INSERT INTO list_collaborators (list_id, user_id, can_add, can_remove, can_deploy, added_at) VALUES (?, ?, 1, 0, ?, ?)")
    .run(listId, user.id, canDeploy ? 1 : 0, Date.now());
}

function events(kind: string): Array<{ list_id: string; actor_id: string; data: any }> {
  return (t.deps.sqlite.query("SELECT list_id, actor_id, data FROM event_outbox WHERE kind = ? ORDER BY created_at, id").all(kind) as any[]).map(
    (r) => ({ ...r, data: JSON.parse(r.data) }),
  );
}

async function deployments(user: TestUser, serverId: string) {
  const res = await t.req("GET", `/api/v1/servers/${serverId}/deployments`, { user });
  expect(res.status).toBe(200);
  return res.body as any[];
}

describe("server CRUD", () => {
  test("create, read, list, update, delete, scoped to the caller", async () => {
    const listId = await createList(owner);
    const created = await createServer(owner, { linked_list_id: listId, auto_deploy: false });
    expect(created).toMatchObject({
      name: "Test server",
      connection_type: "panel",
      file_path: "/server.json",
      linked_list_id: listId,
      auto_deploy: false,
      has_credentials: false,
      credentials_set_at: null,
      last_test_status: null,
      last_test: null,
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);

    const mine = await t.req("GET", "/api/v1/servers", { user: owner });
    expect(mine.body.map((s: any) => s.id)).toContain(created.id);
    const theirs = await t.req("GET", "/api/v1/servers", { user: other });
    expect(theirs.body.map((s: any) => s.id)).not.toContain(created.id);
    expect((await t.req("GET", `/api/v1/servers/${created.id}`, { user: other })).status).toBe(404);
    expect((await t.req("GET", `/api/v1/servers/${created.id}`, { user: other })).body).toEqual({ error: "server not found", code: "server.not_found" });
    expect((await t.req("PUT", `/api/v1/servers/${created.id}`, { user: other, body: { name: "x" } })).status).toBe(404);
    expect((await t.req("DELETE", `/api/v1/servers/${created.id}`, { user: other })).status).toBe(404);

    const updated = await t.req("PUT", `/api/v1/servers/${created.id}`, {
      user: owner,
      body: { name: "  Renamed  ", file_path: "/profile/server.json", auto_deploy: true, linked_list_id: null },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: "Renamed", file_path: "/profile/server.json", auto_deploy: true, linked_list_id: null });

    await t.req("POST", `/api/v1/servers/${created.id}/credentials`, {
      user: owner,
      body: { panel_url: panel.url, api_key: panel.apiKey, server_uuid: panel.serverUuid },
    });
    const del = await t.req("DELETE", `/api/v1/servers/${created.id}`, { user: owner });
    expect(del.status).toBe(204);
    expect((await t.req("GET", `/api/v1/servers/${created.id}`, { user: owner })).status).toBe(404);
    expect(t.deps.sqlite.query("SELECT COUNT(*) AS n FROM server_credentials WHERE server_id = ?").get(created.id)).toEqual({ n: 0 });
  });

  test("validation and authentication", async () => {
    expect((await t.req("GET", "/api/v1/servers")).status).toBe(401);
    const bad = await t.req("POST", "/api/v1/servers", { user: owner, body: { name: "x", connection_type: "ftp", file_path: "/a.json" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toStartWith("connection_type:");
    const noName = await t.req("POST", "/api/v1/servers", { user: owner, body: { name: " ", connection_type: "sftp", file_path: "/a.json" } });
    expect(noName.status).toBe(400);
    expect(noName.body.error).toStartWith("name:");
    const noPath = await t.req("POST", "/api/v1/servers", { user: owner, body: { name: "x", connection_type: "sftp" } });
    expect(noPath.status).toBe(400);
    expect(noPath.body.error).toStartWith("file_path:");
  });

  test("linked_list_id must be a list the caller may deploy", async () => {
    const listId = await createList(owner);
    const body = { name: "x", connection_type: "panel", file_path: "/s.json", linked_list_id: listId };
    // a stranger cannot see the private list
    expect((await t.req("POST", "/api/v1/servers", { user: other, body })).status).toBe(404);
    // a collaborator without can_deploy
    const collab = await t.createUser();
    addCollaborator(listId, collab, false);
    const forbidden = await t.req("POST", "/api/v1/servers", { user: collab, body });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ error: "no permission", code: "list.forbidden" });
    // with can_deploy
    const deployer = await t.createUser();
    addCollaborator(listId, deployer, true);
    expect((await t.req("POST", "/api/v1/servers", { user: deployer, body })).status).toBe(200);
    // unknown list
    const unknown = { ...body, linked_list_id: "0190f0f0-0000-7000-8000-000000000000" };
    expect((await t.req("POST", "/api/v1/servers", { user: owner, body: unknown })).status).toBe(404);
  });
});

describe("credentials", () => {
  test("write-only, validated per connection_type, never in a response or log line", async () => {
    const sftp = await createServer(owner, { connection_type: "sftp" });
    const missing = await t.req("POST", `/api/v1/servers/${sftp.id}/credentials`, { user: owner, body: { host: "127.0.0.1", port: 22, username: "u" } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toStartWith("password:");
    const badPort = await t.req("POST", `/api/v1/servers/${sftp.id}/credentials`, {
      user: owner,
      body: { host: "127.0.0.1", port: 70000, username: "u", password: "p" },
    });
    expect(badPort.status).toBe(400);
    expect(badPort.body.error).toStartWith("port:");
    const panelShape = await t.req("POST", `/api/v1/servers/${sftp.id}/credentials`, {
      user: owner,
      body: { panel_url: panel.url, api_key: "k", server_uuid: "u" },
    });
    expect(panelShape.status).toBe(400);

    const password = "S3cret-pa55word-unique";
    const ok = await t.req("POST", `/api/v1/servers/${sftp.id}/credentials`, {
      user: owner,
      body: { host: "127.0.0.1", port: 2222, username: "sftptest", password },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, has_credentials: true });
    expect(ok.text).not.toContain(password);

    const panelSrv = await createServer(owner, { connection_type: "panel" });
    const badUrl = await t.req("POST", `/api/v1/servers/${panelSrv.id}/credentials`, {
      user: owner,
      body: { panel_url: "ftp://panel", api_key: "k", server_uuid: "u" },
    });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error).toStartWith("panel_url:");
    const noUuid = await t.req("POST", `/api/v1/servers/${panelSrv.id}/credentials`, { user: owner, body: { panel_url: panel.url, api_key: "k" } });
    expect(noUuid.status).toBe(400);
    expect(noUuid.body.error).toStartWith("server_uuid:");

    const detail = await t.req("GET", `/api/v1/servers/${sftp.id}`, { user: owner });
    expect(detail.body.has_credentials).toBe(true);
    expect(detail.body.credentials_set_at).toBe(new Date(t.clock.now()).toISOString()); // when, never what
    const all = await t.req("GET", "/api/v1/servers", { user: owner });
    for (const text of [detail.text, all.text]) {
      expect(text).not.toContain(password);
      expect(text).not.toContain("sftptest");
      expect(text).not.toContain('"password"');
    }
    expect(t.log.lines.join("\n")).not.toContain(password);
    // other users cannot write credentials to it
    expect((await t.req("POST", `/api/v1/servers/${sftp.id}/credentials`, { user: other, body: { host: "h", username: "u", password: "p" } })).status).toBe(404);
    expect(readCredentialsForServer(t.deps, sftp.id)).toEqual({ host: "127.0.0.1", port: 2222, username: "sftptest", password });
  });

  test("the same password gives different ciphertexts on two servers; the column holds no plaintext", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const s = await createServer(owner, { connection_type: "sftp" });
      await t.req("POST", `/api/v1/servers/${s.id}/credentials`, { user: owner, body: { host: "127.0.0.1", port: 22, username: "same", password: "same-password" } });
      ids.push(s.id);
    }
    const rows = ids.map((id) => t.deps.sqlite.query("SELECT secret, key_id FROM server_credentials WHERE server_id = ?").get(id) as { secret: string; key_id: string });
    expect(rows[0]!.secret).not.toBe(rows[1]!.secret);
    for (const r of rows) {
      expect(r.secret).not.toContain("same-password");
      expect(r.key_id).toBe(keyId(t.deps.secrets.credentialKey));
    }
    // a record copied to the other server fails (server id is the AAD)
    expect(() => decryptSecret(rows[0]!.secret, t.deps.secrets.credentialKey, ids[1]!)).toThrow(/another server/);
  });

  test("a tampered ciphertext fails the deployment with a clear error", async () => {
    const listId = await createList(owner);
    const server = await panelServer(owner, listId);
    const row = t.deps.sqlite.query("SELECT secret FROM server_credentials WHERE server_id = ?").get(server.id) as { secret: string };
    const parts = row.secret.split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    body[2] = body[2]! ^ 0x01;
    parts[3] = body.toString("base64url");
    t.deps.sqlite.query("UPDATE server_credentials SET secret = ? WHERE server_id = ?").run(parts.join("."), server.id);
    const res = await t.req("POST", `/api/v1/servers/${server.id}/deploy`, { user: owner });
    expect(res.status).toBe(200);
    await drain();
    const [d] = await deployments(owner, server.id);
    expect(d.status).toBe("failed");
    expect(d.error_message).toBe("stored credentials failed authentication (tampered with, or belong to another server)");
  });
});

describe("private addresses", () => {
  test("panel and SFTP targets on private addresses are refused unless allowed", async () => {
    const strict = await createTestApp();
    try {
      const u = await strict.createUser();
      for (const [type, body] of [
        ["panel", { panel_url: "http://127.0.0.1:8080", api_key: "k", server_uuid: "u" }],
        ["panel", { panel_url: "http://169.254.169.254", api_key: "k", server_uuid: "u" }],
        ["sftp", { host: "10.1.2.3", port: 22, username: "u", password: "p" }],
        ["sftp", { host: "localhost", port: 22, username: "u", password: "p" }],
      ] as const) {
        const s = await strict.req("POST", "/api/v1/servers", { user: u, body: { name: "s", connection_type: type, file_path: "/s.json" } });
        const res = await strict.req("POST", `/api/v1/servers/${s.body.id}/credentials`, { user: u, body });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: "url not allowed", code: "request.url_not_allowed" });
      }
    } finally {
      await strict.close();
    }
  });
});

describe("deployments", () => {
  test("panel deploy: pending → running → success, file rewritten, event recorded", async () => {
    panel.files.set("/server.json", SAMPLE_SERVER_JSON);
    const listId = await createList(owner, [MOD_A, MOD_B]);
    await t.req("PUT", `/api/v1/lists/${listId}/mods/${MOD_A}/version`, { user: owner, body: { version: "1.2.0" } });
    const server = await panelServer(owner, listId);

    const res = await t.req("POST", `/api/v1/servers/${server.id}/deploy`, { user: owner });
    expect(res.status).toBe(200);
    const deploymentId = res.body.deployment_id;
    expect(deploymentId).toBeString();
    const [pending] = await deployments(owner, server.id);
    expect(pending).toMatchObject({ id: deploymentId, status: "pending", kind: "deploy", item_count: null, error_message: null });

    expect(await drain()).toBeGreaterThanOrEqual(1);
    const [done] = await deployments(owner, server.id);
    expect(done.status).toBe("success");
    expect(done.item_count).toBe(2);
    expect(done.error_message).toBeNull();
    expect(done.snapshot_json).toEqual([
      expect.objectContaining({ modId: MOD_A, version: "1.2.0" }),
      expect.objectContaining({ modId: MOD_B }),
    ]);
    expect(done.snapshot_json[1].version).toBeUndefined();

    const written = JSON.parse(panel.files.get("/server.json")!);
    expect(written.game.mods.map((m: any) => m.modId)).toEqual([MOD_A, MOD_B]);
    expect(written.rcon).toEqual(JSON.parse(SAMPLE_SERVER_JSON).rcon);
    const ev = events("deployment_succeeded").find((e) => e.data.deployment_id === deploymentId);
    expect(ev).toMatchObject({ list_id: listId, actor_id: owner.id, data: { server_id: server.id, item_count: 2 } });
  });

  test("a deploy writes per-mod required: stated flags, and the list's default where the server's differs", async () => {
    // The server requires mods by default (SAMPLE_SERVER_JSON); the list was imported from a config whose mods are optional by default.
    panel.files.set("/server.json", SAMPLE_SERVER_JSON);
    expect(JSON.parse(SAMPLE_SERVER_JSON).game.modsRequiredByDefault ?? true).toBe(true);
    const listId = await createList(owner, []);
    const file = JSON.stringify({ game: { name: "optional mods", modsRequiredByDefault: false, mods: [{ modId: MOD_A, name: "A", required: true }, { modId: MOD_B, name: "B" }] } });
    const imported = await t.req("POST", `/api/v1/lists/${listId}/import-apply`, { user: owner, raw: file, headers: { "content-type": "text/plain" } });
    expect(imported.status).toBe(200);
    const server = await panelServer(owner, listId);
    expect((await t.req("POST", `/api/v1/servers/${server.id}/deploy`, { user: owner })).status).toBe(200);
    await drain();
    const [done] = await deployments(owner, server.id);
    expect(done.status).toBe("success");
    const written = JSON.parse(panel.files.get("/server.json")!);
    expect(written.game.mods.map((m: any) => [m.modId, m.required])).toEqual([
      [MOD_A, true],
      [MOD_B, false],
    ]);
    // Everything else of the server's own config is kept (deploys do not write the list's remembered config).
    expect(written.game.name).toBe(JSON.parse(SAMPLE_SERVER_JSON).game.name);
  });

  test("deploy with a list_id override, and without any list", async () => {
    panel.files.set("/server.json", SAMPLE_SERVER_JSON);
    const linked = await createList(owner, [MOD_A]);
    const override = await createList(owner, [MOD_A, MOD_B, MOD_C]);
    const server = await panelServer(owner, linked);
    const res = await t.req("POST", `/api/v1/servers/${server.id}/deploy`, { user: owner, body: { list_id: override } });
    expect(res.status).toBe(200);
    await drain();
    const [d] = await deployments(owner, server.id);
    expect(d).toMatchObject({ status: "success", item_count: 3, list_id: override });

    const bare = await panelServer(owner, null);
    const none = await t.req("POST", `/api/v1/servers/${bare.id}/deploy`, { user: owner });
    expect(none.status).toBe(400);
    // a list the caller cannot deploy
    const foreign = await createList(other, [MOD_A]);
    expect((await t.req("POST", `/api/v1/servers/${bare.id}/deploy`, { user: owner, body: { list_id: foreign } })).status).toBe(404);
    // no credentials yet
    const noCreds = await createServer(owner, { linked_list_id: linked });
    expect((await t.req("POST", `/api/v1/servers/${noCreds.id}/deploy`, { user: owner })).status).toBe(409);
    expect((await t.req("POST", `/api/v1/servers/${noCreds.id}/test`, { user: owner })).status).toBe(409);
  });

  test("a failing panel gives failed with an actionable message and a deployment_failed event", async () => {
    panel.files.set("/server.json", SAMPLE_SERVER_JSON);
    const listId = await createList(owner, [MOD_A]);
    const server = await createServer(owner, { linked_list_id: listId });
    await t.req("POST", `/api/v1/servers/${server.id}/credentials`, {
      user: owner,
      body: { panel_url: panel.url, api_key: "ptlc_wrong_key", server_uuid: panel.serverUuid },
    });
    const res = await t.req("POST", `/api/v1/servers/${server.id}/deploy`, { user: owner });
    await drain();
    const [d] = await deployments(owner, server.id);
    expect(d.status).toBe("failed");
    expect(d.error_message).toStartWith("the panel rejected the API key (401 Unauthorized)");
    expect(d.error_message).not.toContain("ptlc_wrong_key");
    expect(events("deployment_failed").some((e) => e.data.deployment_id === res.body.deployment_id)).toBe(true);
    expect(t.log.lines.join("\n")).not.toContain("ptlc_wrong_key");
  });

  test("connection test is a deployment of kind test; detail shows the last test status", async () => {
    panel.files.set("/server.json", SAMPLE_SERVER_JSON);
    const server = await panelServer(owner, null);
    const res = await t.req("POST", `/api/v1/servers/${server.id}/test`, { user: owner });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["deployment_id"]);
    expect((await t.req("GET", `/api/v1/servers/${server.id}`, { user: owner })).body.last_test_status).toBe("pending");
    await drain();
    const detail = await t.req("GET", `/api/v1/servers/${server.id}`, { user: owner });
    expect(detail.body.last_test_status).toBe("success");
    expect(detail.body.last_test).toMatchObject({ deployment_id: res.body.deployment_id, status: "success", error_message: null });
    const [d] = await deployments(owner, server.id);
    expect(d).toMatchObject({ id: res.body.deployment_id, kind: "test", status: "success" });
    // What was read: the mods the config names now.
    // (per-mod required included: nothing the file says is dropped)
    const named = (JSON.parse(SAMPLE_SERVER_JSON).game.mods as { modId: string; name: string; version?: string; required?: boolean }[]).map((m) => ({
      modId: m.modId,
      name: m.name ?? "",
      ...(m.version ? { version: m.version } : {}),
      ...(typeof m.required === "boolean" ? { required: m.required } : {}),
    }));
    expect(d.snapshot_json).toEqual(named);
    expect(d.item_count).toBe(named.length);
    expect(panel.files.get("/server.json")).toBe(SAMPLE_SERVER_JSON); // a test writes nothing

    panel.files.delete("/server.json");
    await t.req("POST", `/api/v1/servers/${server.id}/test`, { user: owner });
    await drain();
    const after = await t.req("GET", `/api/v1/servers/${server.id}`, { user: owner });
    expect(after.body.last_test).toMatchObject({ status: "failed", error_message: "file not found: /server.json" });
  });

  test("SFTP deploy against the real sshd, and a wrong password", async () => {
    const path = sshd.writeFile("server.json", SAMPLE_SERVER_JSON);
    const listId = await createList(owner, [MOD_A, MOD_B]);
    const server = await createServer(owner, { connection_type: "sftp", file_path: path, linked_list_id: listId });
    await t.req("POST", `/api/v1/servers/${server.id}/credentials`, {
      user: owner,
      body: { host: sshd.host, port: sshd.port, username: sshd.username, password: sshd.password },
    });
    await t.req("POST", `/api/v1/servers/${server.id}/deploy`, { user: owner });
    await drain();
    const [d] = await deployments(owner, server.id);
    expect(d).toMatchObject({ status: "success", item_count: 2 });
    expect(JSON.parse(sshd.readFile("server.json")).game.mods.map((m: any) => m.modId)).toEqual([MOD_A, MOD_B]);
    expect(sshd.readFile("server.json.bak")).toBe(SAMPLE_SERVER_JSON);

    const wrong = await createServer(owner, { connection_type: "sftp", file_path: path, linked_list_id: listId });
    await t.req("POST", `/api/v1/servers/${wrong.id}/credentials`, {
      user: owner,
      body: { host: sshd.host, port: sshd.port, username: sshd.username, password: "not-the-password" },
    });
    await t.req("POST", `/api/v1/servers/${wrong.id}/test`, { user: owner });
    await drain();
    const detail = await t.req("GET", `/api/v1/servers/${wrong.id}`, { user: owner });
    expect(detail.body.last_test).toMatchObject({ status: "failed", error_message: `authentication failed for sftptest@127.0.0.1:${sshd.port}` });
    expect(t.log.lines.join("\n")).not.toContain("not-the-password");
  });

  test("SFTP host key: pinned at the first connection, a different key is refused, storing credentials again re-pins", async () => {
    const path = sshd.writeFile("pinned.json", SAMPLE_SERVER_JSON);
    const listId = await createList(owner, [MOD_A]);
    const server = await createServer(owner, { connection_type: "sftp", file_path: path, linked_list_id: listId });
    const creds = { host: sshd.host, port: sshd.port, username: sshd.username, password: sshd.password };
    await t.req("POST", `/api/v1/servers/${server.id}/credentials`, { user: owner, body: creds });
    expect((await t.req("GET", `/api/v1/servers/${server.id}`, { user: owner })).body.host_key_fingerprint).toBeNull();
    await t.req("POST", `/api/v1/servers/${server.id}/test`, { user: owner });
    await drain();
    const pinned = await t.req("GET", `/api/v1/servers/${server.id}`, { user: owner });
    expect(pinned.body.last_test.status).toBe("success");
    expect(pinned.body.host_key_fingerprint).toBe(sshd.hostKeyFingerprint);

    // The host now presents another key (simulated by pinning a different one): refused, file untouched.
    const other = "SHA256:" + Buffer.alloc(32, 1).toString("base64").replace(/=+$/, "");
    t.deps.sqlite.query("UPDATE server_credentials SET host_key_sha256 = ? WHERE server_id = ?").run(other, server.id);
    await t.req("POST", `/api/v1/servers/${server.id}/deploy`, { user: owner });
    await drain();
    const [refused] = await deployments(owner, server.id);
    expect(refused.status).toBe("failed");
    expect(refused.error_message).toBe(
      `the host key of 127.0.0.1:${sshd.port} changed (expected ${other}, got ${sshd.hostKeyFingerprint}); if the server was reinstalled, store its credentials again to trust the new key`,
    );
    expect(sshd.readFile("pinned.json")).toBe(SAMPLE_SERVER_JSON);

    // Storing the credentials again trusts the key the host presents next.
    await t.req("POST", `/api/v1/servers/${server.id}/credentials`, { user: owner, body: creds });
    await t.req("POST", `/api/v1/servers/${server.id}/deploy`, { user: owner });
    await drain();
    const [ok] = await deployments(owner, server.id);
    expect(ok.status).toBe("success");
    expect((await t.req("GET", `/api/v1/servers/${server.id}`, { user: owner })).body.host_key_fingerprint).toBe(sshd.hostKeyFingerprint);
  });

  test("a deployment interrupted by a crash while running is retried after restart", async () => {
    panel.files.set("/server.json", SAMPLE_SERVER_JSON);
    const listId = await createList(owner, [MOD_A, MOD_B, MOD_C]);
    const server = await panelServer(owner, listId);
    const res = await t.req("POST", `/api/v1/servers/${server.id}/deploy`, { user: owner });
    const id = res.body.deployment_id;
    // What a process killed mid-deploy leaves behind: the job claimed and running, the deployment running.
    const now = t.clock.now();
    t.deps.sqlite.query("UPDATE jobs SET status = 'running', attempts = 1, started_at = ?, lease_until = ? WHERE id = (SELECT job_id FROM deployments WHERE id = ?)").run(now, now + LEASE_MS, id);
    t.deps.sqlite.query("UPDATE deployments SET status = 'running', started_at = ? WHERE id = ?").run(now, id);
    expect(await drain()).toBe(0); // nothing claimable while it looks running
    expect((await deployments(owner, server.id))[0].status).toBe("running");

    t.clock.advance(LEASE_MS + 1000); // its lease ran out: nobody renews it
    expect(t.deps.jobs.recoverInterrupted()).toBeGreaterThanOrEqual(1); // what the next start (or worker tick) does
    await drain();
    const [d] = await deployments(owner, server.id);
    expect(d).toMatchObject({ id, status: "success", item_count: 3 });
  });

  test("one deployment at a time per server (job lane)", async () => {
    const server = await panelServer(owner, await createList(owner, [MOD_A]));
    const a = await t.req("POST", `/api/v1/servers/${server.id}/deploy`, { user: owner });
    const b = await t.req("POST", `/api/v1/servers/${server.id}/deploy`, { user: owner });
    const lanes = t.deps.sqlite
      .query("SELECT lane FROM jobs WHERE id IN (SELECT job_id FROM deployments WHERE id IN (?, ?))")
      .all(a.body.deployment_id, b.body.deployment_id) as { lane: string }[];
    expect(lanes.map((l) => l.lane)).toEqual([`server:${server.id}`, `server:${server.id}`]);
    // the second cannot be claimed while the first runs
    t.deps.sqlite.query("UPDATE jobs SET status = 'running' WHERE id = (SELECT job_id FROM deployments WHERE id = ?)").run(a.body.deployment_id);
    expect(await drain()).toBe(0);
    t.deps.sqlite.query("UPDATE jobs SET status = 'queued' WHERE id = (SELECT job_id FROM deployments WHERE id = ?)").run(a.body.deployment_id);
    panel.files.set("/server.json", SAMPLE_SERVER_JSON);
    expect(await drain()).toBe(2);
    expect((await deployments(owner, server.id)).map((d) => d.status)).toEqual(["success", "success"]);
  });
});

describe("deploy approval", () => {
  test("collaborator deploys become requests; owner approves, rejects; only pending moves", async () => {
    panel.files.set("/server.json", SAMPLE_SERVER_JSON);
    const listId = await createList(owner, [MOD_A, MOD_B]);
    const collab = await t.createUser({ display_name: "Collab" });
    const reader = await t.createUser();
    addCollaborator(listId, collab, true);
    addCollaborator(listId, reader, false);
    const server = await panelServer(collab, listId);

    // gate: only owners may set it
    expect((await t.req("PUT", `/api/v1/lists/${listId}/require-deploy-approval`, { user: collab, body: { require_deploy_approval: true } })).status).toBe(403);
    expect((await t.req("PUT", `/api/v1/lists/${listId}/require-deploy-approval`, { user: owner, body: { require_deploy_approval: "yes" } })).status).toBe(400);
    // without the gate a collaborator deploys directly and cannot file a request
    const direct = await t.req("POST", `/api/v1/servers/${server.id}/deploy`, { user: collab });
    expect(direct.body.deployment_id).toBeString();
    expect((await t.req("POST", `/api/v1/servers/${server.id}/deploy-request`, { user: collab })).status).toBe(409);

    const gate = await t.req("PUT", `/api/v1/lists/${listId}/require-deploy-approval`, { user: owner, body: { require_deploy_approval: true } });
    expect(gate.status).toBe(200);
    expect(gate.body).toEqual({ ok: true, require_deploy_approval: true });
    expect((await t.req("GET", `/api/v1/lists/${listId}`, { user: owner })).body.require_deploy_approval).toBe(true);

    const gated = await t.req("POST", `/api/v1/servers/${server.id}/deploy`, { user: collab });
    expect(gated.status).toBe(200);
    expect(gated.body).toEqual({ request_id: expect.any(String), status: "pending" });
    const again = await t.req("POST", `/api/v1/servers/${server.id}/deploy-request`, { user: collab });
    expect(again.status).toBe(200);
    expect(again.body.request_id).toBe(gated.body.request_id); // one pending request per server and list
    expect(events("deploy_requested").find((e) => e.data.request_id === gated.body.request_id)).toMatchObject({ list_id: listId, actor_id: collab.id });

    // a collaborator without can_deploy cannot even register a server on it; a non-owner cannot list or decide
    expect((await t.req("GET", `/api/v1/lists/${listId}/deploy-requests`, { user: collab })).status).toBe(403);
    expect((await t.req("PATCH", `/api/v1/deploy-requests/${gated.body.request_id}`, { user: collab, body: { status: "approved" } })).status).toBe(403);
    expect((await t.req("PATCH", `/api/v1/deploy-requests/${gated.body.request_id}`, { user: other, body: { status: "approved" } })).status).toBe(404);
    expect((await t.req("PATCH", `/api/v1/deploy-requests/${gated.body.request_id}`, { user: owner, body: { status: "maybe" } })).status).toBe(400);

    const listed = await t.req("GET", `/api/v1/lists/${listId}/deploy-requests`, { user: owner });
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({ request_id: gated.body.request_id, status: "pending", server_id: server.id, requested_by: collab.id, requested_by_name: "Collab" });

    const before = (await deployments(collab, server.id)).length;
    const approved = await t.req("PATCH", `/api/v1/deploy-requests/${gated.body.request_id}`, { user: owner, body: { status: "approved", note: "ok" } });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: "approved", note: "ok", decided_by: owner.id, deployment_id: expect.any(String) });
    expect((await t.req("PATCH", `/api/v1/deploy-requests/${gated.body.request_id}`, { user: owner, body: { status: "rejected" } })).body).toEqual({
      code: "deploy_request.already_reviewed",
      error: "deploy request already reviewed",
    });
    await drain();
    const history = await deployments(collab, server.id);
    expect(history.length).toBe(before + 1);
    expect(history[0]).toMatchObject({ id: approved.body.deployment_id, status: "success", trigger: "approval", request_id: gated.body.request_id });
    expect(events("deploy_request_decided").find((e) => e.data.request_id === gated.body.request_id)).toMatchObject({
      actor_id: owner.id,
      data: { status: "approved", requested_by: collab.id, deployment_id: approved.body.deployment_id },
    });

    // rejection with a note
    const second = await t.req("POST", `/api/v1/servers/${server.id}/deploy-request`, { user: collab });
    expect(second.body.request_id).not.toBe(gated.body.request_id);
    const rejected = await t.req("PATCH", `/api/v1/deploy-requests/${second.body.request_id}`, { user: owner, body: { status: "rejected", note: "not today" } });
    expect(rejected.body).toMatchObject({ status: "rejected", note: "not today", deployment_id: null });
    const all = await t.req("GET", `/api/v1/lists/${listId}/deploy-requests`, { user: owner });
    expect(all.body.map((r: any) => r.status).sort()).toEqual(["approved", "rejected"]);
    // The requester follows their own server's requests, with the decisions and notes; nobody else sees them.
    const mine = await t.req("GET", `/api/v1/servers/${server.id}/deploy-requests`, { user: collab });
    expect(mine.status).toBe(200);
    expect(mine.body.map((r: any) => [r.request_id, r.status, r.note])).toEqual([
      [second.body.request_id, "rejected", "not today"],
      [gated.body.request_id, "approved", "ok"],
    ]);
    expect((await t.req("GET", `/api/v1/servers/${server.id}/deploy-requests`, { user: owner })).status).toBe(404);

    // approval re-checks rights: a requester who lost can_deploy since filing is not deployed for
    const third = await t.req("POST", `/api/v1/servers/${server.id}/deploy-request`, { user: collab });
    expect(third.body.status).toBe("pending");
    const removed = await t.req("DELETE", `/api/v1/lists/${listId}/collaborators/${collab.id}`, { user: owner });
    expect(removed.status).toBe(204);
    const deploysBefore = (t.deps.sqlite.query("SELECT count(*) AS n FROM deployments WHERE server_id = ?").get(server.id) as { n: number }).n;
    const refused = await t.req("PATCH", `/api/v1/deploy-requests/${third.body.request_id}`, { user: owner, body: { status: "approved" } });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: "the requester can no longer deploy this list; reject the request instead", code: "deploy_request.requester_lost_access" });
    expect((t.deps.sqlite.query("SELECT count(*) AS n FROM deployments WHERE server_id = ?").get(server.id) as { n: number }).n).toBe(deploysBefore);
    const stillPending = await t.req("GET", `/api/v1/lists/${listId}/deploy-requests`, { user: owner });
    expect(stillPending.body.find((r: any) => r.request_id === third.body.request_id).status).toBe("pending");
    expect((await t.req("PATCH", `/api/v1/deploy-requests/${third.body.request_id}`, { user: owner, body: { status: "rejected", note: "left the team" } })).status).toBe(200);

    // owners deploy directly even with the gate
    const ownerServer = await panelServer(owner, listId);
    const ownerDeploy = await t.req("POST", `/api/v1/servers/${ownerServer.id}/deploy`, { user: owner });
    expect(ownerDeploy.body.deployment_id).toBeString();
  });
});

describe("auto_deploy", () => {
  test("changes to a linked list within 30 s make one deployment", async () => {
    panel.files.set("/server.json", SAMPLE_SERVER_JSON);
    const listId = await createList(owner, [MOD_A]);
    const server = await panelServer(owner, listId, { auto_deploy: true });
    const pendingAuto = () =>
      t.deps.sqlite.query("SELECT COUNT(*) AS n FROM jobs WHERE type = ? AND status = 'queued' AND json_extract(payload, '$.list_id') = ?").get(AUTO_DEPLOY_JOB, listId) as { n: number };

    await t.req("POST", `/api/v1/lists/${listId}/mods`, { user: owner, body: { workshop_id: MOD_B } });
    await drain();
    expect(pendingAuto().n).toBe(1);
    t.clock.advance(10_000);
    await t.req("PUT", `/api/v1/lists/${listId}/mods/${MOD_B}/version`, { user: owner, body: { version: "2.0.0" } });
    await t.req("POST", `/api/v1/lists/${listId}/mods`, { user: owner, body: { workshop_id: MOD_C } });
    await drain();
    expect(pendingAuto().n).toBe(1);
    expect(await deployments(owner, server.id)).toHaveLength(0);

    t.clock.advance(20_001);
    await drain();
    const list = await deployments(owner, server.id);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ status: "success", trigger: "auto", item_count: 3 });
    expect(list[0].snapshot_json.find((m: any) => m.modId === MOD_B).version).toBe("2.0.0");

    // a later change makes a new one; a server without auto_deploy is left alone
    const manual = await panelServer(owner, listId, { auto_deploy: false });
    await t.req("DELETE", `/api/v1/lists/${listId}/mods/${MOD_A}`, { user: owner });
    await drain();
    t.clock.advance(30_001);
    await drain();
    expect(await deployments(owner, server.id)).toHaveLength(2);
    expect(await deployments(owner, manual.id)).toHaveLength(0);
  });
});

describe("status", () => {
  test("reachable or not and why, players and where to connect (asked once per 5 s), the last successful deploy, moderators without it, others 404", async () => {
    const a2s = await startA2sResponder({ name: "Everon night", map: "Everon", players: 7, maxPlayers: 64, version: "1.3.0.140", gamePort: 2302 });
    try {
      const listId = await createList(owner);
      const none = await panelServer(owner, listId);
      // A panel server without a query address: not known, and said why.
      const unknown = await t.req("GET", `/api/v1/servers/${none.id}/status`, { user: owner });
      expect(unknown.status).toBe(200);
      expect(unknown.body).toMatchObject({ reachable: null, players: null, address: null, query_address: null, deployed: null, live_server_id: null });
      expect(unknown.body.note).toContain("no query address is set");

      const server = await panelServer(owner, listId, { query_address: `127.0.0.1:${a2s.port}` });
      const status = () => t.req("GET", `/api/v1/servers/${server.id}/status`, { user: owner });
      const up = await status();
      expect(up.body).toEqual({
        reachable: true,
        note: null,
        address: "127.0.0.1:2302",
        query_address: `127.0.0.1:${a2s.port}`,
        name: "Everon night",
        scenario: "Everon",
        players: 7,
        max_players: 64,
        players_from: "a2s",
        game_version: "1.3.0.140",
        checked_at: new Date(t.clock.now()).toISOString(),
        deployed: null,
        live_server_id: null,
      });
      // Asked again within 5 s: the same answer, the server not asked again.
      const asked = a2s.requests.length;
      a2s.info.players = 9;
      expect((await status()).body.players).toBe(7);
      expect(a2s.requests.length).toBe(asked);
      t.clock.advance(5_000);
      expect((await status()).body.players).toBe(9);

      // Silent: not reachable, and why.
      a2s.mode = "silent";
      t.clock.advance(5_000);
      const down = (await status()).body;
      expect(down).toMatchObject({ reachable: false, players: null, address: null, query_address: `127.0.0.1:${a2s.port}` });
      expect(down.note).toBe(`no answer on 127.0.0.1:${a2s.port} within 1.5 s`);

      // The last successful deploy: the list and when.
      panel.files.set("/server.json", SAMPLE_SERVER_JSON);
      const dep = await t.req("POST", `/api/v1/servers/${server.id}/deploy`, { user: owner, body: {} });
      expect(dep.status).toBe(200);
      await drain();
      const listName = (await t.req("GET", `/api/v1/lists/${listId}`, { user: owner })).body.name;
      expect((await status()).body.deployed).toEqual({ deployment_id: dep.body.deployment_id, list_id: listId, list_name: listName, mod_count: 2, finished_at: expect.any(String) });

      // A moderator sees whether it answers, not what was deployed; anyone else gets 404.
      const moderator = await t.createUser({ display_name: "Moderator" });
      expect((await t.req("POST", `/api/v1/servers/${server.id}/moderators`, { user: owner, body: { email: moderator.email } })).status).toBe(200);
      expect((await t.req("GET", `/api/v1/servers/${server.id}/status`, { user: moderator })).body).toMatchObject({ reachable: false, deployed: null });
      expect((await t.req("GET", `/api/v1/servers/${server.id}/status`, { user: other })).status).toBe(404);
      expect((await t.req("GET", `/api/v1/servers/${server.id}/status`)).status).toBe(401);
    } finally {
      a2s.close();
    }
  });
});

describe("key rotation", () => {
  test("rotateCredentialKey re-encrypts every credential under the new key", async () => {
    const s = await createServer(owner, { connection_type: "sftp" });
    await t.req("POST", `/api/v1/servers/${s.id}/credentials`, { user: owner, body: { host: "127.0.0.1", port: 22, username: "u", password: "rotate-me" } });
    const newKeyText = generateKey();
    const newKey = parseKey(newKeyText);
    const oldKey = t.deps.secrets.credentialKey;
    const tampered = (t.deps.sqlite.query("SELECT server_id, secret FROM server_credentials").all() as { server_id: string; secret: string }[]).filter((r) => {
      try {
        decryptSecret(r.secret, oldKey, r.server_id);
        return false;
      } catch {
        return true;
      }
    });
    expect(tampered.length).toBe(1); // the one damaged by the tampering test above
    const result = rotateCredentialKey(t.deps, newKeyText);
    expect(result.unreadable).toEqual(tampered.map((r) => r.server_id));
    expect(result.rotated).toBe(result.total - 1);
    expect(result.total).toBeGreaterThanOrEqual(2);
    const row = t.deps.sqlite.query("SELECT secret, key_id FROM server_credentials WHERE server_id = ?").get(s.id) as { secret: string; key_id: string };
    expect(row.key_id).toBe(keyId(newKey));
    expect(JSON.parse(decryptSecret(row.secret, newKey, s.id)).password).toBe("rotate-me");
    expect(() => decryptSecret(row.secret, oldKey, s.id)).toThrow(/not the configured secret key/);
    // rerunning is a no-op
    expect(rotateCredentialKey(t.deps, newKeyText).rotated).toBe(0);
    // a wrong configured key changes nothing
    const wrong = { ...t.deps, secrets: { ...t.deps.secrets, credentialKey: parseKey(generateKey()) } };
    expect(() => rotateCredentialKey(wrong, generateKey())).toThrow(/nothing was changed/);
    expect((t.deps.sqlite.query("SELECT key_id FROM server_credentials WHERE server_id = ?").get(s.id) as { key_id: string }).key_id).toBe(keyId(newKey));
    // the service now needs the new key configured; put it in place for the other tests
    (t.deps.secrets as { credentialKey: Buffer }).credentialKey = newKey;
    expect(readCredentialsForServer(t.deps, s.id)).toMatchObject({ password: "rotate-me" });
  });
});
