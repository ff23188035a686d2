// A server's page the way its owner reads it (issue 49): Playwright (playwright-core) driving
// Debian's Chromium against the compiled binary, with the fake workshop behind it, the fake panel
// (test/fakes/panel.ts: the config file, power signals and power states) and a local A2S
// responder (test/fakes/a2s.ts) as the game server.
// - Pre-flight in one severity model (the list's tab alone and against the server, the deploy
//   box): the summary says what stops the deploy and agrees with the boxes under it; missing
//   dependencies are warnings; mods by name, ids as a detail; fixes that say what they do and one
//   "Add all 3 missing mods" for three of one kind; keys the game refuses renamed by the deploy.
// - The status header (reachable, players, the running list and when, the address to copy, the
//   live page) and the links both ways; the deployed mods in Live.
// - A deploy that changes nothing restarts nothing, and says so ("Restart anyway" restarts);
//   Deploy is off, with the reason, while the last connection test failed.
// - The phases after a rollback: Verifying failed, Rolling back done, "Rolled back" red, the
//   limits of the waits shown.
// axe-core on every page (no serious or critical finding, light and dark); every page
// photographed light and dark at 1440 and 360 px into test/e2e/artifacts-deploy/ (gitignored).
// Every wait is a condition on the page, the panel or the responder, never a fixed sleep.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { apiCall, look as photograph } from "./browser";
import { binaryInFreshFolder, startBinary, until } from "./build";
import { startFakeWorkshop, type FakeWorkshop } from "../fakes/workshop";
import { startFakePanel, type FakePanel } from "../fakes/panel";
import { startA2sResponder, type A2sResponder } from "../fakes/a2s";
import { SAMPLE_SERVER_JSON } from "../fakes/panel-server-json";
import { smallCatalog, SMALL } from "../fixtures/workshop/dataset";

// Its own folder: web.test.ts empties test/e2e/artifacts/ when it starts.
const ARTIFACTS = join(import.meta.dir, "artifacts-deploy");
const CHROMIUM = "/usr/bin/chromium";
const ADMIN = { email: "admin@example.com", password: "admin password" };
const FRONTLINE = "{AAAA0000BBBB1111}Missions/Frontline.conf";
const HEX_ID = /\b[0-9A-F]{16}\b/;

let dir: string;
let proc: ReturnType<typeof Bun.spawn>;
let base: string;
let fake: FakeWorkshop;
let panel: FakePanel;
let a2s: A2sResponder;
let browser: Browser;
let adminToken: string;
let ownerToken: string;
const axeFindings: string[] = [];

const api = (method: string, path: string, token?: string, body?: unknown) => apiCall(base, method, path, token, body);
/** Screenshots light and dark at 1440 and 360 px into ARTIFACTS, then axe in both schemes (browser.ts). */
const look = (page: Page, name: string) => photograph(page, name, ARTIFACTS, axeFindings);

/** A browser context signed in with `token` (where the app keeps it), collecting page errors. */
async function signedIn(token: string): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: "light" });
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await ctx.addInitScript((t) => localStorage.setItem("loadout.token", t), token);
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    // Workshop images of the fake catalog point at hosts no test reaches (and the CSP refuses them).
    const fakeImage = /Failed to load resource|Loading the image 'https:\/\/cdn\.example\.test\/[^']*' violates .*"img-src/.test(m.text());
    if (m.type() === "error" && !fakeImage) errors.push(m.text());
  });
  page.on("dialog", (d) => void d.accept());
  return { ctx, page, errors };
}

async function register(email: string, name: string) {
  const r = await api("POST", "/api/v1/auth/register", undefined, { email, password: "a good password", display_name: name });
  await api("POST", `/api/v1/admin/users/${r.body.user_id}/approve`, adminToken);
  return (await api("POST", "/api/v1/auth/login", undefined, { email, password: "a good password" })).body.token as string;
}

/** A config on the panel with a scenario and no mods (everything else as SAMPLE_SERVER_JSON). */
function config(scenarioId: string): string {
  const c = JSON.parse(SAMPLE_SERVER_JSON);
  c.game.scenarioId = scenarioId;
  c.game.mods = [];
  return `${JSON.stringify(c, null, 2)}\n`;
}

async function newList(name: string, mods: string[], withDependencies = false): Promise<string> {
  const list = (await api("POST", "/api/v1/lists", ownerToken, { name, is_public: false })).body;
  for (const workshop_id of mods) expect((await api("POST", `/api/v1/lists/${list.id}/mods`, ownerToken, { workshop_id, with_dependencies: withDependencies })).status).toBeLessThan(300);
  return list.id as string;
}

async function panelServer(name: string, listId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const srv = (
    await api("POST", "/api/v1/servers", ownerToken, { name, connection_type: "panel", file_path: "/config.json", linked_list_id: listId, query_address: `127.0.0.1:${a2s.port}`, ...extra })
  ).body;
  expect((await api("POST", `/api/v1/servers/${srv.id}/credentials`, ownerToken, { panel_url: panel.url, api_key: panel.apiKey, server_uuid: panel.serverUuid })).status).toBe(200);
  return srv.id as string;
}

async function finished(serverId: string, n: number) {
  return until(`deployment ${n} finished`, async () => {
    const ds = (await api("GET", `/api/v1/servers/${serverId}/deployments`, ownerToken)).body as any[];
    return ds.length >= n && ds.every((d) => d.status === "success" || d.status === "failed") ? ds : null;
  });
}

beforeAll(async () => {
  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  fake = startFakeWorkshop({ mods: smallCatalog() });
  panel = startFakePanel({ files: { "/config.json": config("{ECC61978EDCC2B5A}Missions/23_Campaign.conf") } });
  a2s = await startA2sResponder({ name: "Everon PvE", map: "Everon", players: 3, maxPlayers: 64, version: "1.2.1", gamePort: 2001 }, "direct");
  const b = await binaryInFreshFolder();
  dir = b.dir;
  ({ proc, base } = await startBinary(b.bin, dir, {
    LOADOUT_DATA_DIR: join(dir, "data"),
    LOADOUT_WORKSHOP_URL: fake.url,
    LOADOUT_WORKSHOP_RPS: "1000",
    // The panel and the A2S responder listen on 127.0.0.1.
    LOADOUT_ALLOW_PRIVATE_URLS: "true",
    LOADOUT_REGISTRATION: "approval",
    LOADOUT_ADMIN_EMAIL: ADMIN.email,
    LOADOUT_ADMIN_PASSWORD: ADMIN.password,
    LOADOUT_RATE_LIMIT_ANON: "0",
    LOADOUT_RATE_LIMIT_USER: "0",
    // Deploys that restart their server look again every 200 ms (not every 5 s).
    LOADOUT_DEPLOY_POLL_MS: "200",
  }));
  adminToken = (await api("POST", "/api/v1/auth/login", undefined, ADMIN)).body.token;
  expect((await api("POST", "/api/v1/jobs/scraper", adminToken, { mode: "full" })).status).toBe(202);
  await until("the crawl", async () => {
    const jobs = (await api("GET", "/api/v1/jobs?limit=200", adminToken)).body.jobs as any[];
    return jobs.length > 0 && jobs.every((j) => j.status === "succeeded" || j.status === "failed") && (await api("GET", `/api/v1/mods/${SMALL.chainA}`)).status === 200;
  });
  // The missions mod ships a scenario of its own in a new version.
  fake.publishVersion(SMALL.missions, {
    version: "1.2.0",
    createdAt: new Date().toISOString(),
    scenarios: [{ name: "Frontline Everon", gameId: FRONTLINE, gameMode: "Conflict", playerCount: 64, description: "Front" }],
  });
  expect((await api("POST", "/api/v1/jobs/scraper/detail", adminToken, { workshop_id: SMALL.missions })).status).toBe(202);
  await until("the missions mod at 1.2.0", async () => (await api("GET", `/api/v1/mods/${SMALL.missions}`)).body?.version === "1.2.0");
  ownerToken = await register("owner@example.com", "Olivia");
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  proc?.kill();
  fake?.stop();
  await panel?.stop();
  a2s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (axeFindings.length) console.log(`axe (moderate and minor, not failing): ${axeFindings.join("; ")}`);
});

describe("a server's page in a real browser", () => {
  test("pre-flight in one severity model: the summary agrees with its boxes, missing dependencies are warnings, names not ids, fixes that say what they do (one for three of a kind)", async () => {
    // Chain A without its dependencies (Chain B → Chain C → Core Framework): three missing.
    const listId = await newList("Frontline op", [SMALL.chainA]);
    panel.files.set("/config.json", config(FRONTLINE));
    const serverId = await panelServer("Frontline server", listId);
    expect((await api("POST", `/api/v1/servers/${serverId}/test`, ownerToken)).status).toBe(200);
    await finished(serverId, 1);
    const { page, errors, ctx } = await signedIn(ownerToken);

    // The list alone: nothing stops a deploy; the three missing dependencies are warnings, by name.
    await page.goto(`${base}/lists/${listId}?tab=check`);
    const summary = page.getByText(/^Nothing in the list stops a deploy \(1 mod, .+ to download\)\. 3 warnings below do not stop it\.$/);
    await summary.waitFor();
    const warnings = page.getByRole("list", { name: "Warnings" });
    expect(await warnings.getByRole("listitem").count()).toBe(3);
    expect(await page.getByRole("list", { name: "What stops the deploy" }).count()).toBe(0);
    const texts = await warnings.getByRole("listitem").allTextContents();
    expect(texts.some((t) => t.startsWith("Chain B is required by Chain A but not in the list"))).toBe(true);
    expect(texts.some((t) => /^Core Framework is required by (Chain A and Chain C|Chain C and Chain A) but not in the list/.test(t))).toBe(true);
    // Names in the words; each id only in the detail line under them.
    for (const item of await warnings.getByRole("listitem").all()) {
      const words = await item.locator(".finding-text").textContent();
      expect(words).not.toMatch(HEX_ID);
      expect(await item.textContent()).toMatch(HEX_ID);
    }
    // One button for the three fixes of one kind, none of its own per warning.
    const addAll = page.getByRole("button", { name: "Add all 3 missing mods" });
    await addAll.waitFor();
    expect(await warnings.getByRole("button").count()).toBe(0);
    await look(page, "list-check-alone");

    // Against the server: the scenario's mod is missing, which stops the deploy; said once, at the top.
    await page.getByLabel("Check against server…").selectOption({ label: "Frontline server" });
    const stops = page.getByRole("list", { name: "What stops the deploy" });
    await page.getByText(/^1 problem stops the deploy to Frontline server: fix it first\.$/).waitFor();
    expect(await stops.getByRole("listitem").count()).toBe(1);
    expect(await stops.getByRole("listitem").first().textContent()).toStartWith(
      `The server's scenario "Frontline Everon" comes from Conflict Missions, which is neither in the list nor among its dependencies`,
    );
    await stops.getByRole("button", { name: "Add Conflict Missions" }).waitFor();
    // The missing dependencies stay warnings in the server's context too (they do not stop it).
    expect(await page.getByRole("list", { name: "Warnings" }).getByRole("listitem").count()).toBe(3);
    await look(page, "list-check-server");

    // The deploy box says the same, and Deploy now is off with the reason beside it.
    await page.goto(`${base}/my-servers/${serverId}`);
    await page.getByRole("heading", { name: "Frontline server", level: 1 }).waitFor();
    await page.getByText(/^1 problem stops the deploy to Frontline server: fix it first, or deploy anyway\.$/).waitFor();
    const deployNow = page.getByRole("button", { name: "Deploy now" });
    expect(await deployNow.isDisabled()).toBe(true);
    await page.getByText("The pre-flight found a problem that stops the deploy (above).").waitFor();
    await page.getByRole("button", { name: "Deploy anyway" }).waitFor();
    await look(page, "deploy-box-stopped");

    // The group fix adds all three; then the scenario's fix; then nothing stops it.
    await page.getByRole("button", { name: "Add all 3 missing mods" }).click();
    await until("the three dependencies in the list", async () => ((await api("GET", `/api/v1/lists/${listId}`, ownerToken)).body.items as any[]).length === 4);
    await page.getByRole("list", { name: "Warnings" }).waitFor({ state: "detached" });
    await page.getByText(/^1 problem stops the deploy to Frontline server/).waitFor(); // the scenario still does
    await page.getByRole("button", { name: "Add Conflict Missions" }).click();
    await page.getByText(/^Pre-flight for Frontline server: nothing stops this deploy \(game version 1\.2\.1\)\.$/).waitFor();
    expect(await page.getByRole("list", { name: "What stops the deploy" }).count()).toBe(0);
    await until("Deploy now enabled", async () => !(await deployNow.isDisabled()));
    await look(page, "deploy-box-clear");

    // Keys the game refuses (a misspelt one, a legacy one) stop the deploy too; their fix renames them in the deploy's own write.
    panel.files.set("/config.json", config(FRONTLINE).replace('"maxPlayers": 64', '"maxplayers": 64').replace('"bindPort": 2001', '"gameHostBindPort": 2001'));
    await page.getByRole("button", { name: "Test the connection" }).click();
    await page.getByText(/^2 problems stop the deploy to Frontline server: fix them first, or deploy anyway\.$/).waitFor({ timeout: 30_000 });
    expect(await stops.getByRole("listitem").count()).toBe(2);
    expect(await stops.getByRole("button").count()).toBe(0); // one button for both, above them
    await stops.getByText("key game.maxplayers, line", { exact: false }).waitFor();
    await look(page, "deploy-box-config-stops");
    await page.getByRole("button", { name: "Rename all 2 keys at this deploy" }).click();
    const fixed = page.getByRole("list", { name: "Fixed at this deploy" });
    await fixed.waitFor();
    expect(await fixed.getByRole("listitem").count()).toBe(2);
    await page.getByText(/^Pre-flight for Frontline server: nothing stops this deploy/).waitFor();
    await look(page, "deploy-box-renames");
    await deployNow.click();
    await page.getByText(/^Deployed 5 mods\. The server takes them at its next restart\.$/).waitFor({ timeout: 30_000 });
    const written = JSON.parse(panel.files.get("/config.json")!);
    expect([written.game.maxPlayers, written.bindPort, "maxplayers" in written.game, "gameHostBindPort" in written]).toEqual([64, 2001, false, false]);
    expect(errors).toEqual([]);
    await ctx.close();
    // Gone again, so the next server is the only one answering on this responder's address.
    expect((await api("DELETE", `/api/v1/servers/${serverId}`, ownerToken)).status).toBe(204);
    panel.files.set("/config.json", config("{ECC61978EDCC2B5A}Missions/23_Campaign.conf"));
  }, 120_000);

  test("the status header and the links both ways; a deploy that changes nothing restarts nothing (Restart anyway restarts); the deployed mods in Live; Deploy off while the last connection test failed", async () => {
    const listId = await newList("Sunday op", [SMALL.chainA], true);
    const serverId = await panelServer("Everon PvE", listId, { restart: "now", verify_timeout_s: 60 });
    panel.signals.length = 0;
    panel.power.bootMs = 0;
    a2s.mode = "direct";
    a2s.info.players = 3;
    const { page, errors, ctx } = await signedIn(ownerToken);
    await page.goto(`${base}/my-servers/${serverId}`);
    await page.getByRole("heading", { name: "Everon PvE", level: 1 }).waitFor();

    // The header: reachable, players (A2S), nothing deployed yet, the address to copy, not in Live yet.
    const header = page.getByRole("region", { name: "Status of this server" });
    await header.getByText("● Reachable", { exact: true }).waitFor();
    await header.getByText("3 of 64 players on").waitFor();
    await header.getByText("nothing deployed by Loadout yet").waitFor();
    await header.getByText("127.0.0.1:2001").waitFor();
    await header.getByRole("button", { name: "Copy the address" }).click();
    await header.getByText("Copied.").waitFor();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe("127.0.0.1:2001");
    await header.getByText(/not seen by a live scan yet/).waitFor();

    // First deploy: written, restarted, verified.
    await page.getByRole("button", { name: "Deploy now" }).click();
    await page.getByText(/^Deployed 4 mods; the server restarted at .+ and answered again at .+ \(verified\)\.$/).waitFor({ timeout: 30_000 });
    expect(panel.signals).toEqual(["restart"]);
    // The header follows: the running list and when.
    await header.getByRole("link", { name: "Sunday op" }).waitFor();
    await header.getByText(/^Sunday op, 4 mods, deployed .+/).waitFor();

    // The same deploy again: the config already has these mods. Nothing written, nothing restarted, said so.
    const writes = panel.requests.filter((r) => r.path.endsWith("/files/write")).length;
    await page.getByRole("button", { name: "Deploy now" }).click();
    await page.getByText("Nothing changed on the server: not restarted.").waitFor({ timeout: 30_000 });
    const progress = page.getByRole("list", { name: "Deployment progress" });
    expect(await progress.getByRole("listitem").allTextContents()).toEqual([
      "✓Queued: done",
      "✓Writing the config: done · nothing to change",
      "–Restarting: skipped",
      "–Verifying: skipped",
      "✓Not restarted: done · nothing changed",
    ]);
    expect(panel.signals).toEqual(["restart"]);
    expect(panel.requests.filter((r) => r.path.endsWith("/files/write")).length).toBe(writes);
    const history = page.getByRole("table", { name: "Tests and deployments of this server, newest first" });
    await history.getByText("nothing changed on the server: not restarted").waitFor();
    await look(page, "deploy-unchanged");
    // Restart anyway: asked for, it restarts.
    await page.getByRole("button", { name: "Restart anyway" }).click();
    await page.getByText(/^Nothing changed in the config; the server was restarted anyway at .+ and answered again at .+ \(verified\)\.$/).waitFor({ timeout: 30_000 });
    expect(panel.signals).toEqual(["restart", "restart"]);

    // A live scan sees the server: its live page shows the mods deployed and links back.
    expect((await api("POST", "/api/v1/jobs/game-servers", adminToken)).status).toBe(202);
    const liveId = await until("the server's live entry", async () => (await api("GET", `/api/v1/servers/${serverId}`, ownerToken)).body.live_server_id as string | null);
    await page.reload();
    const live = header.getByRole("link", { name: "Its live page: players over time, mods, changes" });
    await live.waitFor();
    await look(page, "server-header");
    await live.click();
    await page.waitForURL(`${base}/live/${liveId}`);
    const mods = page.getByRole("table", { name: "Mods of this server, in load order" });
    await mods.getByRole("link", { name: "Chain A" }).waitFor();
    expect(await page.getByText("This server runs no mods.").count()).toBe(0);
    await page.getByRole("heading", { name: /^Mods \(4, / }).waitFor();
    const back = page.getByRole("link", { name: "open it in My servers" });
    await back.waitFor();
    await look(page, "live-server-mine");
    await back.click();
    await page.getByRole("heading", { name: "Everon PvE", level: 1 }).waitFor();
    // …and My servers links to it too.
    await page.goto(`${base}/my-servers`);
    await page.getByRole("link", { name: "Live page of Everon PvE" }).waitFor();
    await look(page, "my-servers");

    // A failed connection test turns Deploy off, with the reason beside it, until a test passes.
    await page.goto(`${base}/my-servers/${serverId}`);
    panel.fault({ kind: "status", status: 401 });
    await page.getByRole("button", { name: "Test the connection" }).click();
    await page.getByText(/^Deploying is off while the last connection test fails \(.+: the panel rejected the API key/).waitFor({ timeout: 30_000 });
    expect(await page.getByRole("button", { name: "Deploy now" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Deploy now" }).getAttribute("aria-describedby")).toBe("deploy-why");
    await look(page, "deploy-after-failed-test");
    panel.fault(null);
    await page.getByRole("button", { name: "Test the connection" }).click();
    await page.getByText(/^Connected\./).waitFor({ timeout: 30_000 });
    await until("Deploy now enabled again", async () => !(await page.getByRole("button", { name: "Deploy now" }).isDisabled()));
    expect(errors).toEqual([]);
    await ctx.close();
  }, 180_000);

  test("a deploy whose server does not come back: the phases after the rollback (Verifying failed, Rolling back done, Rolled back in red), the waits with their limits", async () => {
    const listId = await newList("Night op", [SMALL.vehicles], true);
    const serverId = await panelServer("Night server", listId, { restart: "now", verify_timeout_s: 10 });
    panel.signals.length = 0;
    // After the first restart the server stays silent until the page has shown the rollback.
    a2s.mode = "direct";
    panel.onPower = () => {
      if (panel.signals.length === 1) a2s.mode = "silent";
    };
    const { page, errors, ctx } = await signedIn(ownerToken);
    try {
      await page.goto(`${base}/my-servers/${serverId}`);
      await page.getByRole("heading", { name: "Night server", level: 1 }).waitFor();
      await page.getByRole("button", { name: "Deploy now" }).click();
      const progress = page.getByRole("list", { name: "Deployment progress" });
      // Verifying, its wait against its limit.
      await progress.getByText(/^●Verifying: now · \d+ s of 10 s$/).waitFor({ timeout: 30_000 });
      await page.getByText(/Waiting for it to answer: \d+ s of 10 s/).waitFor();
      // Not back in 10 s: rolling back (the verifying step failed, not done).
      await progress.getByRole("listitem").filter({ hasText: /^●Rolling back: now/ }).waitFor({ timeout: 30_000 });
      expect(await progress.getByRole("listitem").filter({ hasText: "Verifying" }).textContent()).toBe("✕Verifying: failed · not back in time");
      // One quick picture (the rollback's own check waits only 10 s for the server to answer).
      await page.screenshot({ path: join(ARTIFACTS, "deploy-rolling-back-light-1440.png"), fullPage: true });
      a2s.mode = "direct"; // the previous config comes up
      const alert = page.getByRole("alert").filter({ hasText: "Rolled back: the server runs the previous mods." });
      await alert.waitFor({ timeout: 30_000 });
      expect(await alert.textContent()).toMatch(
        new RegExp(
          `^Rolled back: the server runs the previous mods\\. The deploy failed and nothing of it stayed: server did not answer on 127\\.0\\.0\\.1:${a2s.port} within 10 s after the restart; the previous config was put back and the server answered again at .+\\.$`,
        ),
      );
      // Failed and safe, in words and marks as well as colour: Verifying failed, Rolling back done, Rolled back.
      expect(await progress.getByRole("listitem").allTextContents()).toEqual([
        "✓Queued: done",
        "✓Writing the config: done",
        "✓Restarting: done",
        "✕Verifying: failed · not back in time",
        "✓Rolling back: done",
        "↺Rolled back: previous mods back",
      ]);
      const classes = await progress.getByRole("listitem").evaluateAll((els) => els.map((e) => e.className));
      expect(classes).toEqual(["done", "done", "done", "failed", "done", "safe"]);
      // Red, never an amber warning: the failed and rolled-back steps wear the error alert's colour, and so does the history's badge.
      // (the page's own getComputedStyle, reached through globalThis: this file is type-checked without the DOM's names)
      const borderOf = (l: ReturnType<Page["locator"]>) => l.evaluate((e) => (globalThis as any).getComputedStyle(e).borderTopColor as string);
      const red = await borderOf(alert);
      expect(await borderOf(progress.getByRole("listitem").last())).toBe(red);
      expect(await borderOf(progress.getByRole("listitem").nth(3))).toBe(red);
      const history = page.getByRole("table", { name: "Tests and deployments of this server, newest first" });
      const badge = history.getByRole("row").nth(1).getByText("rolled back", { exact: true });
      await badge.waitFor();
      expect(await badge.getAttribute("class")).toBe("badge error");
      expect(await borderOf(badge)).toBe(red);
      await history.getByText(/^Rolled back: the server runs the previous mods \(server did not answer/).waitFor();
      // Times in the reader's locale, UTC on hover.
      const when = history.getByRole("row").nth(1).locator("time").first();
      expect(await when.getAttribute("title")).toMatch(/ UTC$/);
      expect(panel.signals).toEqual(["restart", "restart"]);
      await look(page, "deploy-rolled-back");
      expect(errors).toEqual([]);
    } finally {
      panel.onPower = undefined;
      a2s.mode = "direct";
      await ctx.close();
    }
  }, 120_000);
});
