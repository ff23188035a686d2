// A server's players and moderation the way its owner uses them: Playwright (playwright-core)
// driving Debian's Chromium against the compiled binary, with the UDP RCON peer of
// test/fakes/rcon-peer.ts (answering as Reforger does) as the game server. RCON set from the
// server's settings and tested; the Players tab with its live roster (a player joins while the page
// is open and appears); a player's page; a ban from the Players tab with a reason and a length,
// seen in Bans and in the moderation log, lifted; a moderator added, who finds the server under My
// servers. axe-core on every page (no serious or critical violations, light and dark); every page
// photographed light and dark at 1440 and 360 px into test/e2e/artifacts-players/ (gitignored).
// Every wait is a condition on the page or the peer, never a fixed sleep.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { apiCall, look as photograph } from "./browser";
import { binaryInFreshFolder, startBinary, until } from "./build";
import { startRconPeer, type RconPeer } from "../fakes/rcon-peer";

// Its own folder: web.test.ts empties test/e2e/artifacts/ when it starts.
const ARTIFACTS = join(import.meta.dir, "artifacts-players");
const CHROMIUM = "/usr/bin/chromium";
const ADMIN = { email: "admin@example.com", password: "admin password" };
const ALICE = "a11ce000-0000-4000-8000-000000000001";
const BOB = "b0b00000-0000-4000-8000-000000000002";

let dir: string;
let proc: ReturnType<typeof Bun.spawn>;
let base: string;
let peer: RconPeer;
let browser: Browser;
let ownerToken: string;
let modToken: string;
let serverId: string;
const axeFindings: string[] = [];

const api = (method: string, path: string, token?: string, body?: unknown) => apiCall(base, method, path, token, body);
/** Screenshots light and dark at 1440 and 360 px into ARTIFACTS, then axe in both schemes (browser.ts). */
const look = (page: Page, name: string) => photograph(page, name, ARTIFACTS, axeFindings);

/** A browser context signed in with `token` (the token where the app keeps it), collecting page errors. */
async function signedIn(token: string): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: "light" });
  await ctx.addInitScript((t) => localStorage.setItem("loadout.token", t), token);
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("dialog", (d) => void d.accept()); // the confirm() of Lift
  return { ctx, page, errors };
}

async function register(email: string, name: string, adminToken: string) {
  const r = await api("POST", "/api/v1/auth/register", undefined, { email, password: "a good password", display_name: name });
  await api("POST", `/api/v1/admin/users/${r.body.user_id}/approve`, adminToken);
  return (await api("POST", "/api/v1/auth/login", undefined, { email, password: "a good password" })).body.token as string;
}

beforeAll(async () => {
  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  peer = await startRconPeer({ password: "rcon-pass", backendDelayMs: 5 });
  peer.join({ uid: ALICE, name: "Alice" });
  const b = await binaryInFreshFolder();
  dir = b.dir;
  ({ proc, base } = await startBinary(b.bin, dir, {
    LOADOUT_DATA_DIR: join(dir, "data"),
    // The RCON peer listens on 127.0.0.1.
    LOADOUT_ALLOW_PRIVATE_URLS: "true",
    LOADOUT_REGISTRATION: "approval",
    LOADOUT_ADMIN_EMAIL: ADMIN.email,
    LOADOUT_ADMIN_PASSWORD: ADMIN.password,
    LOADOUT_RATE_LIMIT_ANON: "0",
    LOADOUT_RATE_LIMIT_USER: "0",
    // The roster is read as often as allowed (5 s): a player who joins is seen soon.
    LOADOUT_RCON_POLL_S: "5",
  }));
  const adminToken = (await api("POST", "/api/v1/auth/login", undefined, ADMIN)).body.token as string;
  ownerToken = await register("owner@example.com", "Olivia", adminToken);
  modToken = await register("mod@example.com", "Moritz", adminToken);
  serverId = (await api("POST", "/api/v1/servers", ownerToken, { name: "Everon night", connection_type: "panel", file_path: "/config.json" })).body.id;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  proc?.kill();
  await peer?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (axeFindings.length) console.log(`axe (moderate and minor, not failing): ${axeFindings.join("; ")}`);
});

describe("players and moderation in a real browser", () => {
  test("RCON set from the settings; the Players tab's live roster; a player's page; a ban with a reason and a length, in Bans and the log, lifted; a moderator", async () => {
    const started = performance.now();
    const { page, errors, ctx } = await signedIn(ownerToken);

    // RCON in the server's settings: saved, connected, tested; the password never shown.
    await page.goto(`${base}/my-servers/${serverId}`);
    await page.getByRole("heading", { name: "Everon night", level: 1 }).waitFor();
    await page.getByLabel("RCON host", { exact: true }).fill("127.0.0.1");
    await page.getByLabel("RCON port", { exact: true }).fill(String(peer.port));
    await page.getByLabel("RCON password", { exact: true }).fill("rcon-pass");
    await page.getByRole("button", { name: "Save RCON settings" }).click();
    await page.getByText("RCON stored; Loadout connects now.").waitFor();
    await page.getByText(new RegExp(`RCON answers on 127\\.0\\.0\\.1:${peer.port} since`)).waitFor();
    await page.getByRole("button", { name: "Test RCON" }).click();
    await page.getByText("RCON answered: 1 player on the server now.").waitFor();
    expect(await page.content()).not.toContain("rcon-pass");
    await look(page, "my-server-rcon");

    // The Players tab (its own URL): Alice is on; Bob joins while the page is open and appears.
    const tabs = page.getByRole("navigation", { name: "Sections of this server" });
    await tabs.getByRole("link", { name: "Players" }).click();
    await page.waitForURL(/[?&]tab=players/);
    const roster = page.getByRole("table", { name: "Players on the server now" });
    await roster.getByRole("link", { name: "Alice" }).waitFor();
    await page.getByText(/^1 player on · read over RCON at .* · this list refreshes every 10 seconds\.$/).waitFor();
    peer.join({ uid: BOB, name: "Bob" });
    await look(page, "my-server-players");
    await roster.getByRole("link", { name: "Bob" }).waitFor({ timeout: 20_000 }); // the next RCON read (5 s) and the page's (10 s)
    await page.getByRole("table", { name: "Sessions of the last 24 hours, newest first" }).getByRole("link", { name: "Bob" }).waitFor();
    // The timeline is a picture with its words: the table above is its text.
    await page.getByRole("figure", { name: "Timeline of 2 players over the last 24 hours; the table below lists the same sessions" }).waitFor();

    // A dialog takes focus and gives it back: Kick, then Escape.
    await page.getByRole("button", { name: "Kick Alice" }).click();
    await page.getByRole("dialog", { name: "Kick Alice?" }).waitFor();
    await until("focus in the kick dialog", () => page.evaluate(`document.activeElement?.closest("dialog") !== null`));
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
    await until("focus back on Kick Alice", () => page.evaluate(`document.activeElement?.getAttribute("aria-label") === "Kick Alice"`));

    // Alice's page: her name, her time, her stays.
    await roster.getByRole("link", { name: "Alice" }).click();
    await page.getByRole("heading", { name: "Alice", level: 1 }).waitFor();
    await page.getByText("Time on the server").waitFor();
    await page.getByRole("table", { name: "This player's stays on the server, newest first" }).getByRole("cell", { name: "still on" }).waitFor();
    await look(page, "player");
    await page.goBack();

    // Ban Bob from the Players tab: a reason and a week.
    await page.getByRole("button", { name: "Ban Bob" }).click();
    const dialog = page.getByRole("dialog", { name: "Ban Bob" });
    await dialog.waitFor();
    await dialog.getByLabel("Reason").fill("team killing");
    await dialog.getByLabel("1 week").check();
    await look(page, "ban-dialog");
    await dialog.getByRole("button", { name: "Ban", exact: true }).click();
    await page.getByText("Bob is banned for 1 week on this server.").waitFor();
    await dialog.waitFor({ state: "detached" });
    await until("the ban on the game server", async () => peer.bans.some((b) => b.uid === BOB && b.seconds === 604_800 && b.reason === "team killing"));

    // In Bans, and in the log.
    await tabs.getByRole("link", { name: "Bans" }).click();
    const inForce = page.getByRole("table", { name: "Bans in force on this server, newest first" });
    const row = inForce.getByRole("row").filter({ hasText: "Bob" });
    await row.getByRole("cell", { name: "team killing" }).waitFor();
    await row.getByRole("cell", { name: "1 week" }).waitFor();
    await row.getByRole("cell", { name: "Olivia" }).waitFor();
    await look(page, "my-server-bans");
    await tabs.getByRole("link", { name: "Moderation log" }).click();
    const logRow = page.getByRole("table", { name: "Moderation on this server, newest first" }).getByRole("row").filter({ hasText: "Bob" });
    await logRow.getByRole("cell", { name: "banned", exact: true }).waitFor();
    await logRow.getByRole("cell", { name: "team killing" }).waitFor();
    await logRow.getByRole("cell", { name: "ok", exact: true }).waitFor();
    await look(page, "my-server-log");

    // Lifted: gone from the game server, listed as ended.
    await tabs.getByRole("link", { name: "Bans" }).click();
    await page.getByRole("button", { name: "Lift the ban on Bob" }).click();
    await page.getByText("The ban on Bob is lifted.").waitFor();
    await page.getByRole("table", { name: "Bans that ended, newest first" }).getByRole("cell", { name: /^lifted / }).waitFor();
    await page.getByText("Nobody is banned from this server.").waitFor();
    await until("the ban lifted on the game server", async () => !peer.bans.some((b) => b.uid === BOB));
    await look(page, "my-server-bans-lifted");

    // A moderator, added by e-mail, finds the server under My servers and sees its players.
    await tabs.getByRole("link", { name: "Moderators" }).click();
    await page.getByLabel("Their e-mail").fill("mod@example.com");
    await page.getByRole("button", { name: "Add moderator" }).click();
    await page.getByRole("table", { name: "Moderators of this server" }).getByRole("cell", { name: "Moritz", exact: true }).waitFor();
    await look(page, "my-server-moderators");
    const mod = await signedIn(modToken);
    await mod.page.goto(`${base}/my-servers`);
    await mod.page.getByRole("heading", { name: "Servers you moderate" }).waitFor();
    await look(mod.page, "my-servers-moderated");
    await mod.page.getByRole("link", { name: "Players of Everon night" }).click();
    await mod.page.getByRole("table", { name: "Players on the server now" }).getByRole("link", { name: "Alice" }).waitFor();
    expect(await mod.page.getByRole("navigation", { name: "Sections of this server" }).getByRole("link").allTextContents()).toEqual(["Players", "Bans", "Moderation log"]);
    await look(mod.page, "moderator-players");

    // The owner's page asked for nothing it could not read; the moderator's asked GET /servers/:id once (404: not theirs).
    expect(errors).toEqual([]);
    expect(mod.errors.filter((e) => !/404/.test(e))).toEqual([]);
    await mod.ctx.close();
    await ctx.close();
    console.log(`web-players: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, 90_000);
});
