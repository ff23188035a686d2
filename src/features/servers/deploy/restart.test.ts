// The deploy loop (docs/deploy.md): restart, verify, roll back, through the real app against real
// peers: the fake panel's power and resources endpoints, the real OpenSSH sshd running a real
// restart script, and a real UDP A2S responder that is silent or answers on demand.
// Long on purpose: every phase of the loop against the same started peers, kept in one file.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SAMPLE_SERVER_JSON } from "../../../../test/fakes/panel-server-json";
import { startFakePanel, type FakePanel } from "../../../../test/fakes/panel";
import { CONTROL, startA2sResponder, type A2sResponder } from "../../../../test/fakes/a2s";
import { createTestApp, TestClock, type TestApp, type TestUser } from "../../../../test/helpers";
import { startSshd, type SshdPeer } from "../../../../test/peers/sshd";
import { LEASE_MS } from "../../../jobs/queue";
import { AUTO_DEPLOY_CHANGE_JOB, AUTO_DEPLOY_JOB, DEPLOY_JOB } from "./jobs";
import { discordPayload, describeEvent } from "../../events/render";
import { triggerDispatch } from "../../events/jobs";
import { DISPATCH_JOB } from "../../events/dispatch";

const DEPLOY_TYPES = [DEPLOY_JOB, AUTO_DEPLOY_JOB, AUTO_DEPLOY_CHANGE_JOB];
const MOD_A = "5965550F24A0C152";
const MOD_B = "591AF5BDD9EEEE4C";
const POLL_MS = 40;
// Real peers on a shared machine: generous ceilings (the tests take well under a second each).
setDefaultTimeout(20_000);

/** The real clock, moved forward on demand (a timeout "passes" without waiting for it). */
class SkipClock extends TestClock {
  offset = 0;
  override now = () => Date.now() + this.offset;
  override advance(ms: number) {
    this.offset += ms;
  }
}

let t: TestApp;
let clock: SkipClock;
let sshd: SshdPeer;
let owner: TestUser;
let ownerOfSuite: TestUser;
const cleanup: Array<() => unknown> = [];

beforeAll(async () => {
  clock = new SkipClock();
  t = await createTestApp({ clock, env: { LOADOUT_ALLOW_PRIVATE_URLS: "true", LOADOUT_DEPLOY_POLL_MS: String(POLL_MS) } });
  sshd = await startSshd();
  owner = await t.createUser({ display_name: "Owner" });
  ownerOfSuite = owner;
});
afterAll(async () => {
  for (const c of cleanup) await c();
  await t?.close();
  await sshd?.stop();
});

async function newPanel(): Promise<FakePanel> {
  const panel = startFakePanel({ files: { "/server.json": SAMPLE_SERVER_JSON } });
  cleanup.push(() => panel.stop());
  return panel;
}

async function newA2s(mode: "direct" | "silent", players = 0): Promise<A2sResponder> {
  const a2s = await startA2sResponder({ name: "Loadout test", map: "Everon", players, maxPlayers: 64, version: "1.2.1", gamePort: 2001 }, mode);
  cleanup.push(() => a2s.close());
  return a2s;
}

async function createList(mods: string[] = [MOD_A, MOD_B]): Promise<string> {
  const res = await t.req("POST", "/api/v1/lists", { user: owner, body: { name: `List ${Math.random()}`, description: "", is_public: false } });
  expect(res.status).toBe(200);
  for (const workshop_id of mods) {
    expect((await t.req("POST", `/api/v1/lists/${res.body.id}/mods`, { user: owner, body: { workshop_id } })).status).toBeLessThan(300);
  }
  return res.body.id;
}

async function panelServer(panel: FakePanel, a2s: A2sResponder, extra: Record<string, unknown> = {}) {
  const listId = await createList();
  const res = await t.req("POST", "/api/v1/servers", {
    user: owner,
    body: { name: "Everon PvE", connection_type: "panel", file_path: "/server.json", linked_list_id: listId, query_address: `127.0.0.1:${a2s.port}`, ...extra },
  });
  expect(res.status).toBe(200);
  const creds = await t.req("POST", `/api/v1/servers/${res.body.id}/credentials`, {
    user: owner,
    body: { panel_url: panel.url, api_key: panel.apiKey, server_uuid: panel.serverUuid },
  });
  expect(creds.status).toBe(200);
  return res.body as { id: string; restart: string; verify_timeout_s: number };
}

async function deploy(serverId: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await t.req("POST", `/api/v1/servers/${serverId}/deploy`, { user: owner, body });
  expect(res.status).toBe(200);
  return res.body.deployment_id;
}

/** Whose app and which user read a deployment (the suite's by default). */
interface As {
  app?: TestApp;
  user?: TestUser;
  ms?: number;
}

async function deployment(serverId: string, id: string, as: As = {}): Promise<any> {
  const res = await (as.app ?? t).req("GET", `/api/v1/servers/${serverId}/deployments`, { user: as.user ?? owner });
  expect(res.status).toBe(200);
  return res.body.find((d: any) => d.id === id);
}

/**
 * Runs due jobs (the worker's job, by hand) until `until` holds for the deployment, collecting
 * the phases seen on the way. Fails after `ms` of wall time.
 */
async function runUntil(serverId: string, id: string, until: (d: any) => boolean, as: As = {}): Promise<{ d: any; phases: string[] }> {
  const phases: string[] = [];
  const end = Date.now() + (as.ms ?? 8000);
  for (;;) {
    await (as.app ?? t).deps.jobs.drain({ types: DEPLOY_TYPES });
    const d = await deployment(serverId, id, as);
    if (d.phase && phases[phases.length - 1] !== d.phase) phases.push(d.phase);
    if (until(d)) return { d, phases };
    if (Date.now() > end) throw new Error(`deployment stuck: ${JSON.stringify({ phases, d })}`);
    await Bun.sleep(10);
  }
}
const finished = (d: any) => d.status === "success" || d.status === "failed";
const checked = (d: any) => d.phase === "verifying" && d.verify_note !== null;

/** A panel server set to restart now and come back within 10 s, deployed, restarted, and not answering yet. */
async function restartedAndSilent(onPower?: (panel: FakePanel, a2s: A2sResponder) => void) {
  const panel = await newPanel();
  const a2s = await newA2s("silent");
  if (onPower) panel.onPower = () => onPower(panel, a2s);
  const server = await panelServer(panel, a2s, { restart: "now", verify_timeout_s: 10 });
  const id = await deploy(server.id);
  const { d } = await runUntil(server.id, id, checked);
  return { panel, a2s, server, id, d, written: panel.files.get("/server.json")! };
}

function events(kind: string, deploymentId: string): any[] {
  return (t.deps.sqlite.query("SELECT data FROM event_outbox WHERE kind = ? ORDER BY created_at, id").all(kind) as any[])
    .map((r) => JSON.parse(r.data))
    .filter((d) => d.deployment_id === deploymentId);
}

describe("restart settings on servers", () => {
  test("defaults keep today's behaviour; fields validated; SFTP needs restart_command, a panel query_address", async () => {
    const panel = await newPanel();
    const a2s = await newA2s("direct");
    const server = await panelServer(panel, a2s);
    const view = (await t.req("GET", `/api/v1/servers/${server.id}`, { user: owner })).body;
    expect(view).toMatchObject({ restart: "none", empty_wait_s: 3600, verify_timeout_s: 600, restart_command: null });

    const bad = async (body: Record<string, unknown>, error: string | RegExp) => {
      const res = await t.req("PUT", `/api/v1/servers/${server.id}`, { user: owner, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(error);
    };
    await bad({ restart: "later" }, "restart: must be none, now or when_empty");
    await bad({ verify_timeout_s: 5 }, "verify_timeout_s: must be 10 to 3600");
    await bad({ verify_timeout_s: 3601 }, "verify_timeout_s: must be 10 to 3600");
    await bad({ empty_wait_s: -1 }, /^empty_wait_s: must be 0 to/);
    await bad({ restart_command: "systemctl restart reforger" }, /^restart_command: only SFTP servers/);
    await bad({ restart: "now", query_address: null }, /^restart: a panel server is verified by its A2S answer/);

    const ok = await t.req("PUT", `/api/v1/servers/${server.id}`, { user: owner, body: { restart: "when_empty", empty_wait_s: 120, verify_timeout_s: 30 } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ restart: "when_empty", empty_wait_s: 120, verify_timeout_s: 30 });

    const sftp = await t.req("POST", "/api/v1/servers", {
      user: owner,
      body: { name: "Box", connection_type: "sftp", file_path: "/srv/server.json", restart: "now" },
    });
    expect(sftp.status).toBe(400);
    expect(sftp.body.error).toBe(
      `restart: an SFTP server restarts by running its restart_command over SSH; set restart_command (e.g. "systemctl restart reforger") or use restart "none"`,
    );
    const withCommand = await t.req("POST", "/api/v1/servers", {
      user: owner,
      body: { name: "Box", connection_type: "sftp", file_path: "/srv/server.json", restart: "now", restart_command: "docker restart reforger" },
    });
    expect(withCommand.status).toBe(200);
    expect(withCommand.body).toMatchObject({ restart: "now", restart_command: "docker restart reforger" });
    // Dropping the command while a restart mode needs it is refused too.
    const drop = await t.req("PUT", `/api/v1/servers/${withCommand.body.id}`, { user: owner, body: { restart_command: null } });
    expect(drop.status).toBe(400);

    // The per-deploy override is checked the same way.
    const plain = await t.req("POST", "/api/v1/servers", { user: owner, body: { name: "Plain", connection_type: "sftp", file_path: "/srv/server.json" } });
    await t.req("POST", `/api/v1/servers/${plain.body.id}/credentials`, { user: owner, body: { host: "127.0.0.1", username: "u", password: "p" } });
    const listId = await createList([MOD_A]);
    const override = await t.req("POST", `/api/v1/servers/${plain.body.id}/deploy`, { user: owner, body: { list_id: listId, restart: "now" } });
    expect(override.status).toBe(400);
    expect(override.body.error).toMatch(/^restart: an SFTP server restarts by running its restart_command/);
  });
});

describe("panel: restart, verify, roll back", () => {
  test("restart now: writing → restarting → verifying → done, one power signal, verified when running and A2S answers", async () => {
    const panel = await newPanel();
    const a2s = await newA2s("silent");
    panel.power.bootMs = 150; // the panel says `starting` for a moment
    panel.onPower = () => setTimeout(() => (a2s.mode = "direct"), 100);
    const server = await panelServer(panel, a2s, { restart: "now", verify_timeout_s: 60 });
    const id = await deploy(server.id);
    const { d, phases } = await runUntil(server.id, id, finished);
    expect(d).toMatchObject({ status: "success", phase: "done", restart: "now", rolled_back: false, error_message: null, item_count: 2 });
    expect(phases).toContain("verifying");
    expect(phases[phases.length - 1]).toBe("done");
    expect(d.restarted_at).not.toBeNull();
    expect(d.verified_at).not.toBeNull();
    expect(Date.parse(d.verified_at)).toBeGreaterThanOrEqual(Date.parse(d.restarted_at));
    expect(d.previous_config).toBeNull(); // configs are only shown when the operator must act
    expect(panel.signals).toEqual(["restart"]);
    const power = panel.requests.find((r) => r.path.endsWith("/power"))!;
    expect(JSON.parse(power.body)).toEqual({ signal: "restart" });
    expect(power.contentType).toStartWith("application/json");
    expect(panel.requests.some((r) => r.path.endsWith("/resources"))).toBe(true);
    expect(JSON.parse(panel.files.get("/server.json")!).game.mods.map((m: any) => m.modId)).toEqual([MOD_A, MOD_B]);

    const restarting = events("deploy.restarting", id);
    expect(restarting).toHaveLength(1);
    // The config had one old mod; the list has two new ones.
    expect(restarting[0]).toMatchObject({ server_name: "Everon PvE", rollback: false, reason: "now", removed: ["Old mod"] });
    expect(restarting[0].added).toHaveLength(2);
    expect(events("deploy.verified", id)).toHaveLength(1);
    expect(events("deployment_succeeded", id)).toHaveLength(1);
    const text = describeEvent({ id: "e", kind: "deploy.restarting", created_at: Date.now(), list: null, actor: null, data: restarting[0] });
    expect(text.body).toBe("Server restarting in a moment for mod updates: +2 \u22121");
  });

  test("a deploy whose config equals what the server has writes nothing and restarts nothing, and says so; restart_anyway restarts", async () => {
    const panel = await newPanel();
    const a2s = await newA2s("direct");
    const server = await panelServer(panel, a2s, { restart: "now", verify_timeout_s: 60 });
    await runUntil(server.id, await deploy(server.id), finished);
    expect(panel.signals).toEqual(["restart"]);
    const writes = panel.requests.filter((r) => r.path.endsWith("/files/write")).length;
    const again = await runUntil(server.id, await deploy(server.id), finished);
    expect(again.d).toMatchObject({
      status: "success",
      config_unchanged: true,
      failed_phase: null,
      restarted_at: null,
      verify_note: "the server's config already had these mods: nothing written, not restarted",
    });
    expect(panel.signals).toEqual(["restart"]);
    expect(panel.requests.filter((r) => r.path.endsWith("/files/write")).length).toBe(writes);
    const anyway = await runUntil(server.id, await deploy(server.id, { restart_anyway: true }), finished);
    expect(anyway.d).toMatchObject({ status: "success", config_unchanged: true, restart_anyway: true });
    expect(anyway.d.restarted_at).not.toBeNull();
    expect(panel.signals).toEqual(["restart", "restart"]);
  });

  test("when_empty: waits while players are on, restarts when they leave", async () => {
    const panel = await newPanel();
    const a2s = await newA2s("direct", 3);
    const server = await panelServer(panel, a2s, { restart: "when_empty", empty_wait_s: 3600, verify_timeout_s: 60 });
    const id = await deploy(server.id);
    const waiting = await runUntil(server.id, id, (d) => d.phase === "waiting_for_empty" && d.verify_note === "3 players on (A2S)");
    expect(waiting.d.status).toBe("running");
    expect(Date.parse(waiting.d.wait_until) - Date.parse(waiting.d.phase_started_at)).toBe(3600_000);
    // Written already, not restarted: players keep playing.
    expect(JSON.parse(panel.files.get("/server.json")!).game.mods).toHaveLength(2);
    await Bun.sleep(3 * POLL_MS);
    await t.deps.jobs.drain({ types: DEPLOY_TYPES });
    expect(panel.signals).toEqual([]);

    a2s.info.players = 0;
    const { d } = await runUntil(server.id, id, finished);
    expect(d).toMatchObject({ status: "success", wait_ended: "empty", phase: "done" });
    expect(panel.signals).toEqual(["restart"]);
    expect(events("deploy.restarting", id)[0].reason).toBe("empty");
  });

  test("when_empty past empty_wait_s restarts anyway and says so", async () => {
    const panel = await newPanel();
    const a2s = await newA2s("direct", 2);
    const server = await panelServer(panel, a2s, { restart: "when_empty", empty_wait_s: 120, verify_timeout_s: 60 });
    const id = await deploy(server.id);
    await runUntil(server.id, id, (d) => d.phase === "waiting_for_empty" && d.verify_note === "2 players on (A2S)");
    clock.advance(120_000); // two minutes pass with players on
    const { d } = await runUntil(server.id, id, finished);
    expect(d).toMatchObject({ status: "success", wait_ended: "timeout" });
    expect(panel.signals).toEqual(["restart"]);
    expect(events("deploy.restarting", id)[0].reason).toBe("timeout");
  });

  test("restart now instead: the action cuts the wait short; 409 once it is not waiting", async () => {
    const panel = await newPanel();
    const a2s = await newA2s("direct", 5);
    const server = await panelServer(panel, a2s, { restart: "when_empty", verify_timeout_s: 60 });
    const id = await deploy(server.id);
    await runUntil(server.id, id, (d) => d.phase === "waiting_for_empty");
    const now = await t.req("POST", `/api/v1/servers/${server.id}/deployments/${id}/restart-now`, { user: owner });
    expect(now.status).toBe(200);
    expect(now.body.id).toBe(id);
    const { d } = await runUntil(server.id, id, finished);
    expect(d).toMatchObject({ status: "success", wait_ended: "restart_now" });
    expect(panel.signals).toEqual(["restart"]);
    const late = await t.req("POST", `/api/v1/servers/${server.id}/deployments/${id}/restart-now`, { user: owner });
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ error: "the deployment has finished", code: "deployment.finished" });
    const unknown = await t.req("POST", `/api/v1/servers/${server.id}/deployments/00000000-0000-7000-8000-000000000000/restart-now`, { user: owner });
    expect(unknown.status).toBe(404);
  });

  test("a per-deploy override: restart none on a server set to now changes nothing after the write", async () => {
    const panel = await newPanel();
    const a2s = await newA2s("direct");
    const server = await panelServer(panel, a2s, { restart: "now" });
    const id = await deploy(server.id, { restart: "none" });
    const { d } = await runUntil(server.id, id, finished);
    expect(d).toMatchObject({ status: "success", restart: "none", phase: "done", restarted_at: null, verified_at: null });
    expect(panel.signals).toEqual([]);
  });

  test("never back: the previous config is written back byte for byte, restarted again, failed with rolled_back and an actionable message", async () => {
    const { panel, a2s, server, id, d: verifying } = await restartedAndSilent((panel, a2s) => {
      if (panel.signals.length === 2) a2s.mode = "direct"; // the old config loads
    });
    expect(verifying.verify_note).toBe(`no A2S answer on 127.0.0.1:${a2s.port} yet`);
    expect(panel.files.get("/server.json")).not.toBe(SAMPLE_SERVER_JSON);
    clock.advance(10_000);
    const { d } = await runUntil(server.id, id, finished);
    expect(d.phase).toBe("done");
    expect(d.status).toBe("failed");
    expect(d.rolled_back).toBe(true);
    expect(d.error_message).toMatch(
      new RegExp(
        `^server did not answer on 127\\.0\\.0\\.1:${a2s.port} within 10 s after the restart; the previous config was restored and the server answered again at \\d\\d:\\d\\d UTC$`,
      ),
    );
    expect(panel.files.get("/server.json")).toBe(SAMPLE_SERVER_JSON); // byte for byte
    expect(panel.signals).toEqual(["restart", "restart"]);
    // What the page shows without reading the message: where it failed, why, and when it was safe again.
    expect(d).toMatchObject({
      verify_timeout_s: 10,
      empty_wait_s: null,
      failed_phase: "verifying",
      rollback_reason: `server did not answer on 127.0.0.1:${a2s.port} within 10 s after the restart`,
    });
    expect(Date.parse(d.rolled_back_at)).toBeGreaterThan(Date.parse(d.restarted_at));
    // What Loadout knows the server runs (the pre-flight, Live) is the previous config's mods again.
    const seen = t.deps.sqlite.query("SELECT config_mods_json FROM servers WHERE id = ?").get(server.id) as { config_mods_json: string };
    expect(JSON.parse(seen.config_mods_json).map((m: { modId: string }) => m.modId)).toEqual(["0000000000000001"]);
    const rolled = events("deploy.rolled_back", id);
    expect(rolled).toHaveLength(1);
    expect(rolled[0]).toMatchObject({ ok: true });
    expect(events("deploy.restarting", id).map((e) => e.rollback)).toEqual([false, true]);
    expect(events("deployment_failed", id)).toHaveLength(1);
    expect(events("deploy.verified", id)).toHaveLength(0);
    const chat = discordPayload({ id: "e", kind: "deploy.rolled_back", created_at: Date.now(), list: null, actor: null, data: rolled[0] });
    expect(chat.embeds![0]!.title).toBe("Everon PvE rolled back");
    expect(chat.embeds![0]!.fields).toEqual([]); // no ids in a players' channel
  });

  test("the rollback fails too: said exactly, both configs kept on the entry", async () => {
    const { panel, a2s, server, id, written } = await restartedAndSilent();
    clock.advance(10_000);
    await runUntil(server.id, id, (d) => d.phase === "rolling_back" && d.verify_note !== null && panel.signals.length === 2);
    clock.advance(10_000);
    const { d } = await runUntil(server.id, id, finished);
    expect(d.status).toBe("failed");
    expect(d.rolled_back).toBe(true);
    expect(d.error_message).toBe(
      `server did not answer on 127.0.0.1:${a2s.port} within 10 s after the restart; the previous config was restored and the server restarted again, but it did not answer within 10 s either (no A2S answer on 127.0.0.1:${a2s.port} yet); the previous and the new config are kept on this deployment`,
    );
    expect(d.previous_config).toBe(SAMPLE_SERVER_JSON);
    expect(d.new_config).toBe(written);
    // Failed while rolling back: never answered again, so not safe (rolled_back_at stays null).
    expect(d).toMatchObject({ failed_phase: "rolling_back", rolled_back_at: null });
    expect(events("deploy.rolled_back", id)[0]).toMatchObject({ ok: false });
  });

  test("restoring the previous config is tried again while the panel fails, and said exactly when it never works", async () => {
    const { panel, server, id, written } = await restartedAndSilent();
    panel.fault({ kind: "status", status: 500 }); // the panel is down from now on
    clock.advance(10_000);
    const trying = await runUntil(server.id, id, (d) => d.phase === "rolling_back" && /trying again/.test(d.verify_note ?? ""));
    expect(trying.d.verify_note).toMatch(/^restoring the previous config failed \(the panel answered 500 \(server error\) at .+\); trying again$/);
    expect(panel.files.get("/server.json")).toBe(written);
    clock.advance(10_000);
    const { d } = await runUntil(server.id, id, finished);
    panel.fault(null);
    expect(d.status).toBe("failed");
    expect(d.rolled_back).toBe(false);
    expect(d.error_message).toMatch(
      /^the panel did not report the server running \(the panel answered 500 .+\) within 10 s after the restart; restoring the previous config failed too: the panel answered 500 \(server error\) at .+; the previous and the new config are kept on this deployment$/,
    );
    expect(d.previous_config).toBe(SAMPLE_SERVER_JSON);
    expect(d.new_config).toBe(written);
    expect(panel.signals).toEqual(["restart"]); // never restarted on a config it could not restore

    // A hiccup that passes: the next attempt restores it.
    const { panel: panel2, server: server2, id: id2 } = await restartedAndSilent((panel, a2s) => {
      if (panel.signals.length === 2) a2s.mode = "direct";
    });
    panel2.fault({ kind: "status", status: 500, times: 2 });
    clock.advance(10_000);
    const ok = await runUntil(server2.id, id2, finished);
    expect(ok.d).toMatchObject({ status: "failed", rolled_back: true });
    expect(ok.d.error_message).toMatch(/the previous config was restored and the server answered again at/);
    expect(panel2.files.get("/server.json")).toBe(SAMPLE_SERVER_JSON);
    expect(panel2.signals).toEqual(["restart", "restart"]);
  });

  test("429 on the power endpoint: the signal is sent later (after Retry-After), once", async () => {
    const panel = await newPanel();
    const a2s = await newA2s("direct");
    panel.powerFault({ kind: "status", status: 429, retryAfter: "30", times: 1 });
    const server = await panelServer(panel, a2s, { restart: "now", verify_timeout_s: 60 });
    const id = await deploy(server.id);
    const waiting = await runUntil(server.id, id, () => panel.requests.filter((r) => r.path.endsWith("/power")).length === 1);
    expect(waiting.d).toMatchObject({ status: "running", phase: "restarting", restarted_at: null });
    expect(t.deps.jobs.get((t.deps.sqlite.query("SELECT job_id FROM deployments WHERE id = ?").get(id) as any).job_id)!.run_at).toBeGreaterThanOrEqual(
      clock.now() + 25_000,
    );
    expect(panel.signals).toEqual([]);
    clock.advance(30_000);
    const { d } = await runUntil(server.id, id, finished);
    expect(d.status).toBe("success");
    expect(panel.signals).toEqual(["restart"]);
    expect(events("deploy.restarting", id)).toHaveLength(1);
  });

  test("a second deploy of the same server waits for the first to finish", async () => {
    const panel = await newPanel();
    const a2s = await newA2s("direct", 4);
    const server = await panelServer(panel, a2s, { restart: "when_empty", verify_timeout_s: 60 });
    const first = await deploy(server.id);
    await runUntil(server.id, first, (d) => d.phase === "waiting_for_empty");
    const second = await deploy(server.id, { restart: "none" });
    await Bun.sleep(2 * POLL_MS);
    await t.deps.jobs.drain({ types: DEPLOY_TYPES });
    expect((await deployment(server.id, second)).status).toBe("pending");
    a2s.info.players = 0;
    await runUntil(server.id, first, finished);
    const { d } = await runUntil(server.id, second, finished);
    expect(d.status).toBe("success");
  });
});

describe("people are told", () => {
  test("notifications for deploy.restarting and deploy.verified, with a preference like the other kinds", async () => {
    const panel = await newPanel();
    const a2s = await newA2s("direct");
    const listener = await t.createUser({ display_name: "Listener" });
    owner = listener; // the list and server belong to this user
    try {
      const prefs = await t.req("PUT", "/api/v1/settings/notifications", { user: listener, body: { events: { "deploy.restarting": false } } });
      expect(prefs.status).toBeLessThan(300);
      expect((await t.req("GET", "/api/v1/settings/notifications", { user: listener })).body.events).toMatchObject({
        "deploy.restarting": false,
        "deploy.verified": true,
        "deploy.rolled_back": true,
      });
      const server = await panelServer(panel, a2s, { restart: "now", verify_timeout_s: 60 });
      const id = await deploy(server.id);
      await runUntil(server.id, id, finished);
      triggerDispatch(t.deps);
      await t.deps.jobs.drain({ types: [DISPATCH_JOB] });
      const inbox = (await t.req("GET", "/api/v1/notifications", { user: listener })).body as any[];
      const kinds = inbox.map((n) => n.event);
      expect(kinds).toContain("deploy.verified");
      expect(kinds).toContain("deployment_succeeded");
      expect(kinds).not.toContain("deploy.restarting"); // silenced
      expect(inbox.find((n) => n.event === "deploy.verified")).toMatchObject({ title: "Everon PvE is back", body: "Everon PvE is back up with the new mods (2 mods)." });
    } finally {
      owner = ownerOfSuite;
    }
  });
});

describe("approval gate and auto-deploy keep working, with the server's restart mode", () => {
  test("an approved request and an auto-deploy restart and verify; a gated collaborator's restart override stays a request", async () => {
    const panel = await newPanel();
    const a2s = await newA2s("direct");
    const collab = await t.createUser({ display_name: "Collab" });
    const listId = await createList([MOD_A]);
    t.deps.sqlite
      .query("INSERT INTO list_collaborators (list_id, user_id, can_add, can_remove, can_deploy, added_at) VALUES (?, ?, 1, 0, 1, ?)")
      .run(listId, collab.id, Date.now());
    expect((await t.req("PUT", `/api/v1/lists/${listId}/require-deploy-approval`, { user: owner, body: { require_deploy_approval: true } })).status).toBe(200);
    const server = await t.req("POST", "/api/v1/servers", {
      user: collab,
      body: { name: "Collab box", connection_type: "panel", file_path: "/server.json", linked_list_id: listId, query_address: `127.0.0.1:${a2s.port}`, restart: "now", verify_timeout_s: 60 },
    });
    expect(server.status).toBe(200);
    await t.req("POST", `/api/v1/servers/${server.body.id}/credentials`, {
      user: collab,
      body: { panel_url: panel.url, api_key: panel.apiKey, server_uuid: panel.serverUuid },
    });
    const asked = await t.req("POST", `/api/v1/servers/${server.body.id}/deploy`, { user: collab, body: { restart: "none" } });
    expect(asked.body.status).toBe("pending");
    expect(typeof asked.body.request_id).toBe("string");
    const approved = await t.req("PATCH", `/api/v1/deploy-requests/${asked.body.request_id}`, { user: owner, body: { status: "approved" } });
    expect(approved.body).toMatchObject({ status: "approved" });
    const done = await runUntil(server.body.id, approved.body.deployment_id, (d) => d.status === "success", { user: collab });
    expect(done.d).toMatchObject({ trigger: "approval", restart: "now", phase: "done" });
    expect(panel.signals).toEqual(["restart"]);

    // The owner's own auto-deploy server on the same list: a mod change deploys and restarts it.
    await t.req("PUT", `/api/v1/lists/${listId}/require-deploy-approval`, { user: owner, body: { require_deploy_approval: false } });
    const ownerPanel = await newPanel();
    const own = await panelServer(ownerPanel, a2s, { linked_list_id: listId, auto_deploy: true, restart: "now", verify_timeout_s: 60 });
    await t.req("POST", `/api/v1/lists/${listId}/mods`, { user: owner, body: { workshop_id: MOD_B } });
    await t.deps.jobs.drain({ types: [AUTO_DEPLOY_CHANGE_JOB] });
    clock.advance(31_000); // the 30 s debounce
    const until = Date.now() + 8000;
    let auto: any;
    while (!(auto = (await t.req("GET", `/api/v1/servers/${own.id}/deployments`, { user: owner })).body.find((d: any) => d.trigger === "auto")) || auto.status !== "success") {
      if (Date.now() > until) throw new Error(JSON.stringify(auto));
      await t.deps.jobs.drain({ types: DEPLOY_TYPES });
      await Bun.sleep(10);
    }
    expect(auto).toMatchObject({ restart: "now", phase: "done" });
    expect(auto.verified_at).not.toBeNull();
    expect(ownerPanel.signals).toEqual(["restart"]);
  }, 20_000);
});

describe("SFTP: restart_command over SSH (real sshd)", () => {
  /** A script the sshd user runs: records that it ran and flips the A2S responder (from the Nth run on). */
  function restartScript(a2s: A2sResponder, answerFromRun: number, exitStatus = 0): { command: string; log: string } {
    const log = join(sshd.workDir, `restart-${Math.random().toString(36).slice(2)}.log`);
    const script = sshd.writeFile(
      `restart-${Math.random().toString(36).slice(2)}.sh`,
      [
        "#!/bin/bash",
        `echo ran >> ${log}`,
        `n=$(wc -l < ${log})`,
        'echo "stopping reforger (run $n)"',
        'echo "starting reforger"',
        `if [ "$n" -ge ${answerFromRun} ]; then printf '${CONTROL}direct' > /dev/udp/127.0.0.1/${a2s.port}; fi`,
        `exit ${exitStatus}`,
        "",
      ].join("\n"),
      0o755,
    );
    return { command: `bash ${script}`, log };
  }
  const runs = (log: string) => {
    try {
      return readFileSync(log, "utf8").split("\n").filter(Boolean).length;
    } catch {
      return 0;
    }
  };

  async function sftpServer(a2s: A2sResponder, command: string, extra: Record<string, unknown> = {}) {
    const listId = await createList();
    const file = sshd.writeFile(`server-${Math.random().toString(36).slice(2)}.json`, SAMPLE_SERVER_JSON);
    const res = await t.req("POST", "/api/v1/servers", {
      user: owner,
      body: {
        name: "Box",
        connection_type: "sftp",
        file_path: file,
        linked_list_id: listId,
        query_address: `127.0.0.1:${a2s.port}`,
        restart: "now",
        restart_command: command,
        ...extra,
      },
    });
    expect(res.status).toBe(200);
    const creds = await t.req("POST", `/api/v1/servers/${res.body.id}/credentials`, {
      user: owner,
      body: { host: sshd.host, port: sshd.port, username: sshd.username, password: sshd.password },
    });
    expect(creds.status).toBe(200);
    return { id: res.body.id as string, file };
  }

  test("restart now: the script runs once, its exit status and output are kept, verified by A2S", async () => {
    const a2s = await newA2s("silent");
    const { command, log } = restartScript(a2s, 1);
    const server = await sftpServer(a2s, command, { verify_timeout_s: 60 });
    const id = await deploy(server.id);
    const { d } = await runUntil(server.id, id, finished);
    expect(d).toMatchObject({ status: "success", phase: "done", restart_exit_status: 0 });
    expect(d.restart_output).toBe("stopping reforger (run 1)\nstarting reforger");
    expect(runs(log)).toBe(1);
    expect(JSON.parse(readFileSync(server.file, "utf8")).game.mods.map((m: any) => m.modId)).toEqual([MOD_A, MOD_B]);
  });

  test("never back: the file is restored byte for byte, the script runs a second time, failed with rolled_back", async () => {
    const a2s = await newA2s("silent");
    const { command, log } = restartScript(a2s, 2); // only the old config "loads"
    const server = await sftpServer(a2s, command, { verify_timeout_s: 10 });
    const mode = statSync(server.file).mode & 0o7777;
    const id = await deploy(server.id);
    await runUntil(server.id, id, checked);
    expect(readFileSync(server.file, "utf8")).not.toBe(SAMPLE_SERVER_JSON);
    clock.advance(10_000);
    const { d } = await runUntil(server.id, id, finished);
    expect(d.status).toBe("failed");
    expect(d.rolled_back).toBe(true);
    expect(d.error_message).toMatch(/^server did not answer on 127\.0\.0\.1:\d+ within 10 s after the restart; the previous config was restored and the server answered again at \d\d:\d\d UTC$/);
    expect(readFileSync(server.file, "utf8")).toBe(SAMPLE_SERVER_JSON);
    expect(statSync(server.file).mode & 0o7777).toBe(mode);
    expect(runs(log)).toBe(2);
  });

  test("a restart command that fails: failed with its exit status and output, not run again", async () => {
    const a2s = await newA2s("silent");
    const { command, log } = restartScript(a2s, 99, 3);
    const server = await sftpServer(a2s, command, { verify_timeout_s: 60 });
    const id = await deploy(server.id);
    const { d } = await runUntil(server.id, id, finished);
    expect(d.status).toBe("failed");
    expect(d.restart_exit_status).toBe(3);
    expect(d.error_message).toBe(
      "the new config was written, but the restart failed: the restart command exited with status 3: starting reforger; the server was not verified (the previous and the new config are kept on this deployment)",
    );
    expect(d.previous_config).toBe(SAMPLE_SERVER_JSON);
    expect(runs(log)).toBe(1);
  });
});

describe("crash in the middle", () => {
  test("a process killed (SIGKILL) while verifying: started again, the same deployment finishes with one restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loadout-crash-deploy-"));
    const crashClock = new SkipClock();
    const env = { LOADOUT_DATA_DIR: dir, LOADOUT_ALLOW_PRIVATE_URLS: "true", LOADOUT_DEPLOY_POLL_MS: String(POLL_MS) };
    const app = await createTestApp({ clock: crashClock, env });
    cleanup.push(() => app.close());
    const panel = await newPanel();
    const a2s = await newA2s("silent");
    const user = await app.createUser({ display_name: "Crash owner" });
    const list = await app.req("POST", "/api/v1/lists", { user, body: { name: "Crash list", description: "", is_public: false } });
    await app.req("POST", `/api/v1/lists/${list.body.id}/mods`, { user, body: { workshop_id: MOD_A } });
    const server = await app.req("POST", "/api/v1/servers", {
      user,
      body: { name: "Crashy", connection_type: "panel", file_path: "/server.json", linked_list_id: list.body.id, query_address: `127.0.0.1:${a2s.port}`, restart: "now", verify_timeout_s: 600 },
    });
    await app.req("POST", `/api/v1/servers/${server.body.id}/credentials`, {
      user,
      body: { panel_url: panel.url, api_key: panel.apiKey, server_uuid: panel.serverUuid },
    });
    const id = (await app.req("POST", `/api/v1/servers/${server.body.id}/deploy`, { user })).body.deployment_id as string;

    // Another process runs the worker on the same data directory; it is killed while verifying.
    const child = Bun.spawn([process.execPath, "test/scripts/run-worker.ts", dir, String(POLL_MS)], {
      stdout: "ignore",
      stderr: "pipe",
      cwd: join(import.meta.dir, "../../../.."),
      env: { ...process.env, LOADOUT_ALLOW_PRIVATE_URLS: "true", LOADOUT_DEPLOY_POLL_MS: String(POLL_MS) },
    });
    const row = () => app.deps.sqlite.query("SELECT status, phase, verify_note FROM deployments WHERE id = ?").get(id) as any;
    const end = Date.now() + 15_000;
    while (!(row().phase === "verifying" && row().verify_note !== null)) {
      if (Date.now() > end || child.exitCode !== null) throw new Error(`child never reached verifying: ${JSON.stringify(row())} ${await new Response(child.stderr).text()}`);
      await Bun.sleep(10);
    }
    child.kill("SIGKILL");
    expect(await child.exited).not.toBe(0);
    expect(row().status).toBe("running");
    expect(panel.signals).toEqual(["restart"]);

    // The server comes up; this process starts later (after any lease of the dead one ran out).
    a2s.mode = "direct";
    crashClock.advance(LEASE_MS + 1000);
    app.deps.jobs.recoverInterrupted();
    const { d } = await runUntil(server.body.id, id, finished, { app, user });
    expect(d).toMatchObject({ status: "success", phase: "done", rolled_back: false });
    expect(panel.signals).toEqual(["restart"]); // one restart only
    const restarting = app.deps.sqlite.query("SELECT COUNT(*) AS n FROM event_outbox WHERE kind = 'deploy.restarting'").get() as { n: number };
    expect(restarting.n).toBe(1);
  }, 30_000);
});
