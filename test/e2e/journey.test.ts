// Black-box journey through every feature against the compiled executable: the catalog scraped
// from the fake workshop, a list built and exported, deployed over SFTP to a real sshd, live
// servers scanned from the fake BattleMetrics, metrics through promtool, a signed webhook.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { binaryInFreshFolder, startBinary, until } from "./build";
import { startFakeWorkshop, type FakeWorkshop } from "../fakes/workshop";
import { smallCatalog, SMALL } from "../fixtures/workshop/dataset";
import { loadBmFixture, startFakeBattleMetrics, type FakeBattleMetrics } from "../fakes/battlemetrics";
import { startSshd, type SshdPeer } from "../peers/sshd";
import { startReceiver, type Receiver } from "../fakes/receiver";
import { verifyStandardWebhook } from "../fakes/receiver-verify";
import { promtoolAccepts, promtoolCheck } from "../peers/promtool";

const SERVER_JSON = JSON.stringify({ bindAddress: "0.0.0.0", bindPort: 2001, game: { name: "E2E", scenarioId: "{ECC61978EDCC2B5A}Missions/23_Campaign.conf", mods: [] } }, null, 2);

let dir: string;
let workshop: FakeWorkshop;
let bm: FakeBattleMetrics;
let sshd: SshdPeer;
let rx: Receiver;
let proc: ReturnType<typeof Bun.spawn>;
let base: string;

beforeAll(async () => {
  const b = await binaryInFreshFolder();
  dir = b.dir;
  workshop = startFakeWorkshop({ mods: smallCatalog() });
  bm = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
  sshd = await startSshd();
  rx = await startReceiver();
  ({ proc, base } = await startBinary(b.bin, dir, {
    LOADOUT_DATA_DIR: join(dir, "data"),
    LOADOUT_REGISTRATION: "open",
    LOADOUT_ADMIN_EMAIL: "admin@example.com",
    LOADOUT_ADMIN_PASSWORD: "admin-password",
    LOADOUT_WORKSHOP_URL: workshop.url,
    LOADOUT_WORKSHOP_RPS: "500",
    LOADOUT_BATTLEMETRICS_URL: bm.url,
    LOADOUT_ALLOW_PRIVATE_URLS: "true",
  }));
}, 180_000);

afterAll(async () => {
  proc?.kill("SIGTERM");
  await proc?.exited;
  workshop?.stop();
  bm?.stop();
  rx?.stop();
  await sshd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, json, text, headers: res.headers };
}


const login = async (email: string, password: string) => (await call("POST", "/api/v1/auth/login", { email, password })).json.token as string;

describe("journey through the compiled binary", () => {
  test("catalog → list → export → SFTP deploy → live scan → metrics → webhook", async () => {
    const admin = await login("admin@example.com", "admin-password");
    expect(admin).toBeTruthy();

    // Catalog: a full discovery against the fake workshop, run by the binary's own worker.
    const job = await call("POST", "/api/v1/jobs/scraper", { mode: "full" }, admin);
    expect(job.status).toBe(202);
    await until("the catalog", async () => (await call("GET", `/api/v1/mods/${SMALL.chainA}`)).status === 200, 60_000);
    const search = await call("GET", "/api/v1/mods?search=" + encodeURIComponent((await call("GET", `/api/v1/mods/${SMALL.core}`)).json.name.split(" ")[0]));
    expect(search.json.total).toBeGreaterThan(0);

    // A list with a mod and its missing dependencies, exported as server.json.
    const reg = await call("POST", "/api/v1/auth/register", { email: "player@example.com", password: "player-password", display_name: "Player" });
    expect(reg.status).toBe(201);
    const user = await login("player@example.com", "player-password");
    // A signed webhook for the list's events, delivered by the background worker. Made before the
    // list: the dispatcher matches an event to the webhooks there are when it runs (a worker
    // tick), so a webhook made after the change would get its events only if the tick came later.
    const hook = await call("POST", "/api/v1/settings/webhooks", { url: rx.url, type: "custom", events: ["mod_added", "deployment_succeeded"], scope: "global" }, user);
    expect(hook.status).toBe(200);
    const list = await call("POST", "/api/v1/lists", { name: "E2E", description: "", is_public: true }, user);
    expect(list.status).toBe(200);
    const add = await call("POST", `/api/v1/lists/${list.json.id}/mods`, { workshop_id: SMALL.chainA, with_dependencies: true }, user);
    expect(add.status).toBe(200);
    const detail = await call("GET", `/api/v1/lists/${list.json.id}`);
    expect(detail.json.items.map((i: any) => i.workshop_id).sort()).toEqual([SMALL.chainA, SMALL.chainB, SMALL.chainC, SMALL.core].sort());
    expect(detail.json.missing_dependencies).toEqual([]);
    const exported = await call("GET", `/api/v1/lists/${list.json.id}/export?type=latest`);
    expect(exported.json.game.mods).toHaveLength(4);

    // Import, in the text-fragment shape (not JSON on its own): preview, then apply atomically.
    const fragment = `"mods": ${JSON.stringify([...exported.json.game.mods, { modId: SMALL.weapons, name: "Weapons" }])}`;
    const importReq = (path: string) =>
      fetch(`${base}/api/v1/lists/${list.json.id}/${path}`, { method: "POST", headers: { authorization: `Bearer ${user}`, "content-type": "text/plain" }, body: fragment });
    const preview = (await (await importReq("import-preview")).json()) as any;
    expect(preview.added.map((a: any) => a.workshop_id)).toEqual([SMALL.weapons]);
    expect(preview.removed).toEqual([]);
    const applied = (await (await importReq("import-apply")).json()) as any;
    expect(applied).toEqual({ ok: true, added: 1, removed: 0, version_changed: 0 });
    const audit = await call("GET", `/api/v1/lists/${list.json.id}/audit`, undefined, user);
    expect(audit.json[0].action).toBe("import");

    // Deploy over SFTP to the real sshd.
    const path = sshd.writeFile("server.json", SERVER_JSON);
    const server = await call("POST", "/api/v1/servers", { name: "E2E server", connection_type: "sftp", file_path: path, linked_list_id: list.json.id, auto_deploy: false }, user);
    expect(server.status).toBe(200);
    const creds = await call("POST", `/api/v1/servers/${server.json.id}/credentials`, { host: sshd.host, port: sshd.port, username: sshd.username, password: sshd.password }, user);
    expect(creds.json).toEqual({ ok: true, has_credentials: true });
    expect((await call("POST", `/api/v1/servers/${server.json.id}/deploy`, {}, user)).status).toBeLessThan(300);
    const done = await until("the deployment", async () => {
      const d = (await call("GET", `/api/v1/servers/${server.json.id}/deployments`, undefined, user)).json;
      const first = Array.isArray(d) ? d[0] : d?.deployments?.[0];
      return first && (first.status === "success" || first.status === "failed") ? first : null;
    });
    expect(done.error_message).toBeNull();
    expect(done.status).toBe("success");
    const written = JSON.parse(sshd.readFile("server.json"));
    expect(written.game.mods.map((m: any) => m.modId).sort()).toEqual([SMALL.chainA, SMALL.chainB, SMALL.chainC, SMALL.core, SMALL.weapons].sort());
    expect(written.bindPort).toBe(2001);

    // Live servers: a scan of the fake BattleMetrics.
    expect((await call("POST", "/api/v1/jobs/game-servers", {}, admin)).status).toBe(202);
    const servers = await until("the live servers", async () => {
      const r = (await call("GET", "/api/v1/game-servers")).json;
      return Array.isArray(r) && r.length > 0 ? r : null;
    });
    expect(servers.length).toBeGreaterThanOrEqual(3);

    // Every metrics path through promtool.
    for (const p of ["/metrics", `/mod/${SMALL.core}/metrics`, `/servers/${servers[0].id}/metrics`]) {
      const m = await call("GET", p);
      expect({ p, status: m.status }).toEqual({ p, status: 200 });
      const verdict = await promtoolCheck(m.text);
      expect({ p, problems: verdict.problems }).toEqual({ p, problems: [] });
      expect(promtoolAccepts(verdict)).toBe(true);
    }
    expect((await call("GET", "/mod/FFFFFFFFFFFFFFFF/metrics")).status).toBe(404);

    // The webhook got the events, signed.
    // (one mod_added per mod: the chain came with its dependencies)
    // Each delivery is a job of its own: they arrive in any order, so wait for all of them.
    const kindsOf = (rs: typeof rx.requests) => rs.map((r) => (r.json as any)?.type as string);
    const received = await until("the four mod_added webhooks and the deployment_succeeded one", async () => {
      const kinds = kindsOf(rx.requests);
      return kinds.filter((k) => k === "mod_added").length >= 4 && kinds.includes("deployment_succeeded") ? [...rx.requests] : null;
    });
    const kinds = kindsOf(received);
    expect(kinds.filter((k) => k === "mod_added")).toHaveLength(4);
    expect(kinds).toContain("deployment_succeeded");
    for (const r of received) {
      expect(await verifyStandardWebhook(r.headers, r.body, hook.json.secret)).toEqual({ ok: true });
    }
  }, 150_000);
});
