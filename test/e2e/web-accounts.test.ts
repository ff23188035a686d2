// Accounts, the catalog's first minutes and small screens, the way a person uses them: Playwright
// (playwright-core) driving Debian's Chromium against the compiled binary, the fake workshop and
// the fake BattleMetrics behind it. A password change signs the other sessions out; an admin runs
// every account from the Accounts tab and the API's refusals (the last admin, yourself) are shown
// in its words; the jobs page reads as names and sentences; the empty catalog shows the crawl's
// error while the crawl retries; the catalog's cards carry their facts; the import preview names
// every change by mod. Every page is photographed light and dark at 1440 and 360 px into
// test/e2e/artifacts-accounts/ (gitignored) for people to look at, with axe-core in both schemes;
// at 360 px nothing is wider than the screen (tab bars and tables scroll inside their own box),
// no control is cut off and tab bars are one row.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { binaryInFreshFolder, freePort, startBinary, until } from "./build";
import { startFakeWorkshop, type FakeWorkshop } from "../fakes/workshop";
import { loadBmFixture, startFakeBattleMetrics, type FakeBattleMetrics } from "../fakes/battlemetrics";
import { smallCatalog, SMALL } from "../fixtures/workshop/dataset";

// The browser's globals, as the page.evaluate callbacks below use them (this project's typings
// have no DOM; the callbacks run in the page).
declare const document: any, getComputedStyle: (e: any) => any, requestAnimationFrame: (f: () => void) => number;
type Element = any;

const ARTIFACTS = join(import.meta.dir, "artifacts-accounts");
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const CHROMIUM = "/usr/bin/chromium";
const ADMIN = { email: "admin@example.com", password: "admin password" };

let dir: string;
let proc: ReturnType<typeof Bun.spawn>;
let base: string;
let fake: FakeWorkshop;
let bm: FakeBattleMetrics;
let browser: Browser;
let adminToken: string;
const axeFindings: string[] = [];

async function api(method: string, path: string, token?: string, body?: unknown, at = base) {
  const r = await fetch(at + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as any };
}

/** An approved account; returns its id and a token. */
async function account(email: string, name: string, password = "a good password", approve = true) {
  const r = await api("POST", "/api/v1/auth/register", undefined, { email, password, display_name: name });
  expect(r.status).toBe(201);
  if (approve) expect((await api("POST", `/api/v1/admin/users/${r.body.user_id}/approve`, adminToken)).status).toBe(200);
  return { id: r.body.user_id as string, token: approve ? ((await api("POST", "/api/v1/auth/login", undefined, { email, password })).body.token as string) : "" };
}

/** axe-core on the page as it is now; serious and critical findings fail the test. */
async function axe(page: Page, name: string) {
  // Evaluated through DevTools, so the page's CSP (no inline script) stays as it is.
  await page.evaluate(AXE + ";0");
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ["violations"] })`)) as {
    violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
  };
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  for (const v of result.violations) axeFindings.push(`${name}: ${v.impact} ${v.id} (${v.nodes.length})`);
  expect({ page: name, violations: bad.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`) }).toEqual({ page: name, violations: [] });
}

/** The page laid out for its new size: two animation frames after the change (a condition, not a fixed wait). */
const settled = (page: Page) => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

/**
 * At the current width: no element is wider than the viewport (one inside a box that scrolls
 * sideways, a tab bar or a table, is that box's business: it must fit), no control is cut off
 * (each is within the screen or within such a box), and every tab bar is one row.
 */
async function fitsScreen(page: Page) {
  return (await page.evaluate(() => {
    const W = document.documentElement.clientWidth;
    const scrollBox = (e: Element) => {
      for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
        const cs = getComputedStyle(p);
        if (/(auto|scroll)/.test(cs.overflowX)) return p;
      }
      return null;
    };
    // Visually hidden (screen-reader text, a card table's header row): clipped to nothing.
    const hidden = (e: Element) => {
      for (let p: Element | null = e; p && p !== document.body; p = p.parentElement) {
        const cs = getComputedStyle(p);
        if (p.matches(".skip-link, .sr-only") || (cs.clipPath !== "none" && cs.clipPath !== "") || (cs.clip !== "auto" && cs.clip !== "")) return true;
      }
      return false;
    };
    const name = (e: Element) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (typeof e.className === "string" && e.className ? "." + e.className.split(" ").join(".") : "");
    const wide: string[] = [];
    for (const e of document.querySelectorAll("body *")) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || hidden(e)) continue;
      const box = scrollBox(e);
      const bound = box ? box.getBoundingClientRect() : { left: 0, right: W };
      if (box && (bound.left < -0.5 || bound.right > W + 0.5)) wide.push(`${name(box)} (a scrolling box) ${Math.round(bound.left)}..${Math.round(bound.right)}`);
      if (!box && (r.right > W + 0.5 || r.left < -0.5)) wide.push(`${name(e)} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    // A control cut off: partly outside the screen or its scrolling box without being reachable by scrolling it.
    const cut: string[] = [];
    for (const c of document.querySelectorAll("input, select, textarea, button, a[href]")) {
      const r = c.getBoundingClientRect();
      if (r.width === 0 || hidden(c)) continue;
      if (!scrollBox(c) && (r.left < -0.5 || r.right > W + 0.5)) cut.push(`${name(c)} "${(c.textContent ?? "").trim().slice(0, 30)}"`);
    }
    const tabRows = [...document.querySelectorAll(".tabs")].map((t) => new Set([...t.querySelectorAll("a")].map((a) => Math.round(a.getBoundingClientRect().top))).size).filter((rows) => rows > 1);
    return { wide: [...new Set(wide)].slice(0, 6), cut: cut.slice(0, 6), tabRows };
  })) as { wide: string[]; cut: string[]; tabRows: number[] };
}

/** Screenshots light and dark at 1440 and 360 px; at 360 px the page fits the screen; axe in both schemes. */
async function look(page: Page, name: string) {
  await page.waitForLoadState("networkidle");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 360]) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      await settled(page);
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${scheme}-${width}.png`), fullPage: true });
      if (width === 360) expect({ page: name, width, ...(await fitsScreen(page)) }).toEqual({ page: name, width, wide: [], cut: [], tabRows: [] });
      else {
        // At desktop width no table is cut off and scrolled sideways inside its card.
        const clipped = await page.evaluate(`[...document.querySelectorAll(".table-wrap")]
          .filter((e) => e.scrollWidth > e.clientWidth + 1)
          .map((e) => (e.querySelector("caption")?.textContent ?? "table") + " " + e.scrollWidth + ">" + e.clientWidth)`);
        expect({ page: name, width, clipped }).toEqual({ page: name, width, clipped: [] });
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await axe(page, `${name} (${scheme})`);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

async function context(): Promise<{ ctx: BrowserContext; page: Page; errors: string[] }> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: "light" });
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    // Workshop images of the fake catalog point at hosts no test reaches (and that the CSP
    // refuses); an answer the page expects to fail (401 of a signed-out session, 409 of a refused
    // admin action, 403 of a disabled account) is logged by the browser as a failed resource.
    const expected = /Failed to load resource|Loading the image 'https:\/\/cdn\.example\.test\/[^']*' violates .*"img-src/.test(m.text());
    if (m.type() === "error" && !expected) errors.push(m.text());
  });
  return { ctx, page, errors };
}

async function signIn(page: Page, email: string, password: string, at = base) {
  await page.goto(at + "/sign-in");
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("heading", { name: "Mod catalog" }).waitFor();
}

beforeAll(async () => {
  rmSync(ARTIFACTS, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  fake = startFakeWorkshop({ mods: smallCatalog() });
  bm = startFakeBattleMetrics({ servers: loadBmFixture("scan-1") });
  const b = await binaryInFreshFolder();
  dir = b.dir;
  ({ proc, base } = await startBinary(b.bin, dir, {
    LOADOUT_DATA_DIR: join(dir, "data"),
    LOADOUT_WORKSHOP_URL: fake.url,
    LOADOUT_WORKSHOP_RPS: "1000",
    LOADOUT_BATTLEMETRICS_URL: bm.url,
    LOADOUT_REGISTRATION: "approval",
    LOADOUT_ADMIN_EMAIL: ADMIN.email,
    LOADOUT_ADMIN_PASSWORD: ADMIN.password,
    LOADOUT_RATE_LIMIT_ANON: "0",
    LOADOUT_RATE_LIMIT_USER: "0",
  }));
  adminToken = (await api("POST", "/api/v1/auth/login", undefined, ADMIN)).body.token;
  expect((await api("POST", "/api/v1/jobs/scraper", adminToken, { mode: "full" })).status).toBe(202);
  await until("the crawl", async () => {
    const jobs = (await api("GET", "/api/v1/jobs?limit=200", adminToken)).body.jobs as any[];
    return jobs.some((j) => j.type === "scrape.full" && j.status === "succeeded") && jobs.every((j) => j.status === "succeeded" || j.status === "failed") && (await api("GET", `/api/v1/mods/${SMALL.chainA}`)).status === 200;
  });
  // Two live scans and the roll-ups: the live pages and a mod's usage chart have data.
  for (let i = 0; i < 2; i++) {
    const job = (await api("POST", "/api/v1/jobs/game-servers", adminToken, {})).body.job_id;
    await until("a live scan", async () => ["succeeded", "failed"].includes((await api("GET", `/api/v1/jobs/${job}`, adminToken)).body.status));
  }
  const rollups = (await api("POST", "/api/v1/jobs/rollups", adminToken, {})).body.job_id;
  await until("the roll-ups", async () => ["succeeded", "failed"].includes((await api("GET", `/api/v1/jobs/${rollups}`, adminToken)).body.status));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  proc?.kill();
  fake?.stop();
  bm?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (axeFindings.length) console.log(`axe (moderate and minor, not failing): ${axeFindings.join("; ")}`);
});

describe("accounts run from the pages", () => {
  test("a password change: with the current one; this session goes on, the other one is signed out; the old password no longer signs in", async () => {
    await account("pat@example.com", "Pat", "first password");
    const here = await context();
    const there = await context();
    await signIn(there.page, "pat@example.com", "first password");
    await signIn(here.page, "pat@example.com", "first password");
    // A token counts from the second it was issued: let that second pass, so the change is after both.
    const issued = Math.floor(Date.now() / 1000);
    await until("the next second", async () => Math.floor(Date.now() / 1000) > issued);
    const page = here.page;
    await page.goto(base + "/settings");
    await page.getByRole("heading", { name: "Password" }).waitFor();
    // The wrong current password: the API's words, and nothing changes.
    await page.getByLabel("Current password").fill("not my password");
    await page.getByLabel("New password", { exact: true }).fill("second password");
    await page.getByLabel("New password again").fill("second password");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("alert").filter({ hasText: "current_password: not your current password" }).waitFor();
    // Two new passwords that differ: said at the field, the button waits.
    await page.getByLabel("Current password").fill("first password");
    await page.getByLabel("New password again").fill("second passwort");
    await page.getByText("The two new passwords differ.").first().waitFor();
    expect(await page.getByRole("button", { name: "Change password" }).isDisabled()).toBe(true);
    await page.getByLabel("New password again").fill("second password");
    const before = await page.evaluate(() => localStorage.getItem("loadout.token"));
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("Password changed. Every other session is signed out.").waitFor();
    await look(page, "settings-password-changed");
    // This session has the new token and stays signed in, across a reload too.
    const after = await page.evaluate(() => localStorage.getItem("loadout.token"));
    expect(after).not.toBe(before);
    expect((await api("GET", "/api/v1/auth/me", after!)).status).toBe(200);
    expect((await api("GET", "/api/v1/auth/me", before!)).status).toBe(401);
    await page.reload();
    await page.getByRole("heading", { name: "Settings" }).waitFor();
    // The other browser: its next request is refused and it lands on sign-in, coming back here after.
    await there.page.goto(base + "/settings");
    await there.page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(there.page.url()).toContain("next=%2Fsettings");
    expect((await api("POST", "/api/v1/auth/login", undefined, { email: "pat@example.com", password: "first password" })).status).toBe(401);
    await signIn(there.page, "pat@example.com", "second password");
    expect(here.errors).toEqual([]);
    for (const c of [here, there]) await c.ctx.close();
  }, 90_000);

  test("the admin's Accounts: every account with role, state and last sign-in; approve, make admin, disable (sign-in refused), re-enable, take admin away, delete; never the last admin, each audited", async () => {
    const olga = await account("olga@example.com", "Olga Ops");
    const rex = await account("rex@example.com", "Rifleman Rex", "a good password", false);
    const { page, errors, ctx } = await context();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole("link", { name: "Admin", exact: true }).click();
    await page.getByRole("heading", { name: "Waiting for approval" }).waitFor();
    const everyone = page.getByRole("table", { name: "Every account, newest first" });
    const row = (name: string) => everyone.getByRole("row").filter({ hasText: name });
    // Role, state and last sign-in, in words.
    await expect(row("Olga Ops").getByRole("cell").allTextContents()).resolves.toEqual([
      "Olga Opsolga@example.com",
      "user",
      "active",
      expect.not.stringMatching(/^never$/),
      expect.any(String),
      "Make adminDisableDelete",
    ]);
    expect(await row("Rifleman Rex").getByText("pending").count()).toBe(1);
    expect(await row("Rifleman Rex").getByRole("cell").nth(3).textContent()).toBe("never");
    // Your own account offers no disable or delete (the API refuses both; delete yours in Settings).
    const mine = row("(you)");
    expect(await mine.getByRole("button").allTextContents()).toEqual(["Take admin away"]);
    await look(page, "admin-accounts");

    // The last admin cannot step down: the API's words, shown where it was asked.
    await mine.getByRole("button", { name: "Take admin away" }).click();
    await page.getByRole("alert").filter({ hasText: "Could not take admin away from admin: the last admin cannot stop being admin: make another account admin first" }).waitFor();
    expect((await api("GET", "/api/v1/auth/me", adminToken)).body.role).toBe("admin");
    await look(page, "admin-accounts-last-admin");

    await page.getByRole("button", { name: "Approve Rifleman Rex" }).click();
    await page.getByText("Nobody is waiting").waitFor();
    await row("Rifleman Rex").getByText("active").waitFor();

    await page.getByRole("button", { name: "Make admin Olga Ops" }).click();
    await row("Olga Ops").getByRole("cell", { name: "admin", exact: true }).waitFor();
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Disable Olga Ops" }).click();
    await row("Olga Ops").getByText("disabled").waitFor();
    // Disabled: her token is refused, and signing in says why.
    expect((await api("GET", "/api/v1/auth/me", olga.token)).status).toBe(401);
    const olgaPage = await context();
    await olgaPage.page.goto(base + "/sign-in");
    await olgaPage.page.getByLabel("E-mail", { exact: true }).fill("olga@example.com");
    await olgaPage.page.getByLabel("Password", { exact: true }).fill("a good password");
    await olgaPage.page.getByRole("button", { name: "Sign in", exact: true }).click();
    await olgaPage.page.getByText("account disabled: ask an admin to enable it again").waitFor();
    await olgaPage.ctx.close();
    await page.getByRole("button", { name: "Re-enable Olga Ops" }).click();
    await row("Olga Ops").getByText("active").waitFor();
    // Two admins now: either may step down; Olga goes back to being a user.
    await page.getByRole("button", { name: "Take admin away Olga Ops" }).click();
    await row("Olga Ops").getByRole("cell", { name: "user", exact: true }).waitFor();
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Delete Rifleman Rex" }).click();
    await until("Rex gone", async () => (await row("Rifleman Rex").count()) === 0);
    expect((await api("GET", "/api/v1/admin/users", adminToken)).body.users.map((u: any) => u.id)).not.toContain(rex.id);
    // Every act in the audit, newest first, in words.
    const audit = page.getByRole("list", { name: "Recent admin actions" });
    await audit.getByText(/admin deleted Rifleman Rex/).waitFor();
    const lines = (await audit.getByRole("listitem").allTextContents()).slice(0, 6).map((t) => t.replace(/^.*?(admin )/, "$1"));
    expect(lines).toEqual([
      "admin deleted Rifleman Rex <rex@example.com>",
      "admin took admin away from Olga Ops <olga@example.com>",
      "admin re-enabled Olga Ops <olga@example.com>",
      "admin disabled Olga Ops <olga@example.com>",
      "admin made Olga Ops <olga@example.com> an admin",
      "admin approved Rifleman Rex <rex@example.com>",
    ]);
    await look(page, "admin-accounts-after");
    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);

  test("jobs read as names and sentences: what each is, how long it took, its progress in words; filtered by kind", async () => {
    const { page, errors, ctx } = await context();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(base + "/admin?tab=jobs");
    const table = page.getByRole("table", { name: "Background jobs, newest first" });
    await table.waitFor();
    expect(await table.getByText("{").count()).toBe(0); // no JSON
    await page.getByLabel("Kind").selectOption({ label: "Full workshop crawl" });
    await page.waitForURL(/type=scrape\.full/);
    const crawl = table.getByRole("row").filter({ hasText: "Full workshop crawl" });
    await until("only the crawl", async () => (await table.getByRole("row").count()) === 2);
    expect(await crawl.getByText("scrape.full", { exact: true }).count()).toBe(1);
    expect(await crawl.getByRole("cell").nth(1).textContent()).toBe("done");
    expect(await crawl.getByRole("cell").nth(2).textContent()).toMatch(/^took \d+ (ms|s)$/);
    expect(await crawl.getByRole("cell").nth(4).textContent()).toMatch(/^Page 1 of about 1 of the workshop's list; 9 mods to read$/);
    await look(page, "admin-jobs");
    await page.getByLabel("Kind").selectOption({ label: "Live servers scan" });
    await table.getByRole("row").filter({ hasText: "Live servers scan" }).first().waitFor();
    expect(await table.getByRole("row").nth(1).getByRole("cell").nth(4).textContent()).toMatch(/^\d+ pages? of servers read, \d+ servers?$/);
    expect(errors).toEqual([]);
    await ctx.close();
  }, 60_000);
});

describe("the catalog, lists and live pages", () => {
  test("catalog cards carry author, rating, subscribers and last update; tags read as the filter; one wording of what a mod needs; whole players on the chart's axis", async () => {
    const { page, errors, ctx } = await context();
    await page.goto(base + "/mods");
    const cards = page.getByRole("list", { name: "Mods" });
    const weapons = cards.getByRole("listitem").filter({ has: page.getByRole("link", { name: "Modern Weapons" }) });
    await weapons.waitFor();
    const text = (await weapons.textContent())!;
    expect(text).toContain("by GunSmith");
    expect(text).toMatch(/\d+ % positive\s·\s30K subscribers/);
    expect(text).toMatch(/2\.3\.1\s·\supdated [A-Z][a-z]{2} \d+, \d{4}\s·\s8\.0\sMB/);
    // The chip says what the filter's option says.
    const missions = cards.getByRole("listitem").filter({ has: page.getByRole("link", { name: "Conflict Missions" }) });
    expect(await missions.getByText("scenarios mp", { exact: true }).count()).toBe(1);
    expect(await page.getByLabel("Tag").locator("option", { hasText: "scenarios mp" }).count()).toBe(1);
    expect(await page.getByText("scenarios_mp").count()).toBe(0);
    await look(page, "catalog");
    await page.getByLabel("Tag").selectOption({ label: "scenarios mp" });
    await page.getByText("1 mod tagged scenarios mp").waitFor();

    // A page names what it loads next (its chunks, its first API answers) in its response, and
    // the page's own fetches use those answers: each is asked for once.
    const fresh = await context();
    const asked: string[] = [];
    fresh.page.on("request", (r) => void (r.url().includes("/api/") && asked.push(r.url().slice(base.length))));
    const response = await fresh.page.goto(`${base}/mods/${SMALL.chainA}?tab=dependencies`);
    expect(response!.headers()["link"]).toContain(`</api/v1/mods/${SMALL.chainA}/deps>; rel=preload; as=fetch; crossorigin=anonymous`);
    expect(response!.headers()["link"]).toMatch(/<\/assets\/dependencies-[a-z0-9]+\.js>; rel=modulepreload/);
    await fresh.page.getByText("Needs 3 mods (2 directly, the others through them)").waitFor();
    await fresh.page.waitForLoadState("networkidle");
    expect(asked.sort()).toEqual([`/api/v1/mods/${SMALL.chainA}`, `/api/v1/mods/${SMALL.chainA}/deps`]);
    expect(fresh.errors).toEqual([]);
    await fresh.ctx.close();

    // What a mod needs: one wording on the overview and the tab.
    await page.goto(`${base}/mods/${SMALL.chainA}`);
    await page.getByText("needs 2 mods directly").waitFor();
    await look(page, "mod");
    await page.getByRole("link", { name: "Dependencies" }).click();
    await page.getByText("Needs 3 mods (2 directly, the others through them)").waitFor();
    await look(page, "mod-dependencies");

    // The usage chart counts whole servers and players.
    await page.goto(`${base}/mods/${SMALL.core}?tab=usage`);
    const figure = page.locator("figure[data-ticks-players]");
    await figure.waitFor();
    for (const unit of ["players", "servers"]) {
      const ticks = (await figure.getAttribute(`data-ticks-${unit}`))!.split(",").map(Number);
      expect({ unit, whole: ticks.every(Number.isInteger), some: ticks.length > 1 }).toEqual({ unit, whole: true, some: true });
    }
    await look(page, "mod-usage");
    expect(errors).toEqual([]);
    await ctx.close();
  }, 90_000);

  test("lists: forms only when asked for; the import preview names every change by mod, removals stand out, a pin on the newest version is said; a duplicate entry named in words", async () => {
    const me = await account("lena@example.com", "Lena");
    const { page, errors, ctx } = await context();
    await signIn(page, "lena@example.com", "a good password");
    await page.goto(base + "/lists");
    // No list yet: the form to start one is there, nothing to organise yet.
    await page.getByRole("heading", { name: "No lists yet" }).waitFor();
    expect(await page.getByLabel("List name").isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: "Organise" }).count()).toBe(0);
    await look(page, "lists-empty");
    await page.getByLabel("List name").fill("Sunday ops");
    await page.getByRole("button", { name: "Create list" }).click();
    await page.getByRole("heading", { name: "Sunday ops", level: 1 }).waitFor();
    const listId = new URL(page.url()).pathname.split("/")[2]!;
    for (const id of [SMALL.chainA, SMALL.weapons]) expect((await api("POST", `/api/v1/lists/${listId}/mods`, me.token, { workshop_id: id, with_dependencies: true })).status).toBe(200);

    // With a list: its forms wait behind their buttons.
    await page.goto(base + "/lists");
    await page.getByRole("table", { name: "Your lists and the lists you help with" }).waitFor();
    expect(await page.getByLabel("List name").count()).toBe(0);
    const newList = page.getByRole("button", { name: "New list" });
    expect(await newList.getAttribute("aria-expanded")).toBe("false");
    await page.getByLabel("New folder").fill("Weekend"); // nothing in Organise yet: its forms are there
    await page.getByRole("button", { name: "Add folder" }).click();
    await page.getByRole("button", { name: "New folder…" }).waitFor();
    expect(await page.getByLabel("New folder").count()).toBe(0);
    await look(page, "lists");
    await newList.click();
    expect(await newList.getAttribute("aria-expanded")).toBe("true");
    expect(await page.getByLabel("List name").isVisible()).toBe(true);
    await page.getByRole("button", { name: "Cancel" }).click();
    expect(await page.getByLabel("List name").count()).toBe(0);

    // The list's tabs: one row at 360 px, scrolling sideways, the current one in view.
    await page.goto(`${base}/lists/${listId}?tab=history`);
    await page.getByRole("table", { name: "Changes to Sunday ops, newest first" }).waitFor();
    await page.setViewportSize({ width: 360, height: 780 });
    await settled(page);
    const tabs = page.getByRole("navigation", { name: "Sections of this list" });
    const bar = (await tabs.evaluate((n) => ({ scrolls: n.scrollWidth > n.clientWidth, height: n.getBoundingClientRect().height, nav: n.getBoundingClientRect().toJSON(), current: n.querySelector('[aria-current="page"]')!.getBoundingClientRect().toJSON() }))) as any;
    expect(bar.scrolls).toBe(true);
    expect(bar.height).toBeLessThan(60);
    expect(bar.current.left >= bar.nav.left - 1 && bar.current.right <= bar.nav.right + 1).toBe(true);
    await page.setViewportSize({ width: 1440, height: 900 });
    await look(page, "list-history");
    // The other tabs with tables: cards at 360 px.
    await page.getByRole("link", { name: "Sharing" }).click();
    await page.getByRole("heading", { name: "Collaborators" }).waitFor();
    await look(page, "list-sharing");
    await page.getByRole("link", { name: "Templates" }).click();
    await page.getByLabel("Template name").waitFor();
    await look(page, "list-templates");

    // An import that removes a mod, adds one pinned, pins the newest version of an unpinned one,
    // changes a pin and a required flag, and pins a version the catalog never had.
    await page.getByRole("link", { name: "Import" }).click();
    const file = JSON.stringify({
      game: {
        mods: [
          { modId: SMALL.chainA, name: "Chain A", version: "3.0.0" },
          { modId: SMALL.chainB, name: "Chain B" },
          { modId: SMALL.chainC, name: "Chain C", version: "0.0.1-gone" },
          { modId: SMALL.core, name: "Core Framework", version: "1.1.0", required: false },
          { modId: SMALL.vehicles, name: "Everon Vehicles Pack", version: "1.0.0" },
        ],
      },
    });
    await page.getByLabel("Configuration text").fill(file);
    await page.getByRole("button", { name: "Preview changes" }).click();
    const stale = page.getByRole("group", { name: "1 pinned version the catalog does not have" });
    await stale.waitFor();
    await page.getByText("Applying adds 1 mod, removes 1 mod, changes 2 version pins and changes whether 1 mod is required.").waitFor();
    const removed = page.getByRole("region", { name: "Removed (1)" });
    expect(await removed.getByRole("listitem").allTextContents()).toEqual(["−Modern Weapons"]);
    // It stands out: the danger colour and its own words on the button.
    const colours = await removed.evaluate((s) => [getComputedStyle(s).borderLeftColor, getComputedStyle(document.documentElement).getPropertyValue("--danger").trim()]);
    expect(colours[0]).toBe(await page.evaluate((c) => { const d = document.createElement("div"); d.style.color = c; document.body.append(d); const v = getComputedStyle(d).color; d.remove(); return v; }, colours[1]!));
    expect(await page.getByRole("button", { name: "Apply and remove 1 mod" }).isDisabled()).toBe(true);
    expect(await page.getByRole("region", { name: "Added (1)" }).getByRole("listitem").allTextContents()).toEqual(["+Everon Vehicles Packpinned to 1.0.0 · 5.5 MB"]);
    expect(await page.getByRole("region", { name: "Version pins changed (2)" }).getByRole("listitem").allTextContents()).toEqual([
      "→Chain Cpinned to 0.0.1-gone (was its newest version)",
      "→Core Frameworkpinned to 1.1.0 (was its newest version)",
    ]);
    // A pin on the newest version of a mod the list follows at its newest: said, and kept unpinned.
    expect(await page.getByRole("region", { name: "Pins on the newest version (1)" }).getByRole("listitem").allTextContents()).toEqual(["=Chain A3.0.0, stays unpinned"]);
    expect(await page.getByRole("heading", { name: /^(Order changed|Not in the catalog)/ }).count()).toBe(0); // empty sections are not shown
    expect(await page.content()).not.toContain("game.mods[");
    // At 360 px each radio stays with its words.
    await page.setViewportSize({ width: 360, height: 780 });
    await settled(page);
    for (const label of ["Import unpinned", "Skip (keep the list's entry as it is)"]) {
      const l = stale.getByText(label, { exact: true });
      const [radio, words] = await Promise.all([stale.getByLabel(label).boundingBox(), l.boundingBox()]);
      expect({ label, beside: radio!.x + radio!.width <= words!.x, sameLine: radio!.y < words!.y + words!.height && radio!.y + radio!.height > words!.y }).toEqual({ label, beside: true, sameLine: true });
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await stale.getByRole("radiogroup", { name: "Chain C 0.0.1-gone" }).getByLabel("Skip (keep the list's entry as it is)").check();
    await page.getByText("Every one has a choice; apply imports them all in one go.").waitFor();
    await look(page, "list-import-preview");
    await page.getByRole("button", { name: "Apply and remove 1 mod" }).click();
    await page.getByText("Applied: 1 added, 1 removed").waitFor();
    const items = (await api("GET", `/api/v1/lists/${listId}`, me.token)).body.items as any[];
    expect(items.map((i) => [i.workshop_id, i.pinned_version]).sort()).toEqual(
      [
        [SMALL.chainA, null],
        [SMALL.chainB, null],
        [SMALL.chainC, null],
        [SMALL.core, "1.1.0"],
        [SMALL.vehicles, "1.0.0"],
      ].sort(),
    );

    // A mod twice in a file: refused, named by its name and both entries by number.
    await page.getByLabel("Configuration text").fill(JSON.stringify({ game: { mods: [{ modId: SMALL.chainA, name: "Chain A" }, { modId: SMALL.core, name: "" }, { modId: SMALL.chainA, name: "" }] } }));
    await page.getByRole("button", { name: "Preview changes" }).click();
    await page.getByRole("alert").filter({ hasText: `Chain A (${SMALL.chainA}) is in the mods twice, as entries 1 and 3; keep one of them` }).waitFor();
    expect(errors).toEqual([]);
    await ctx.close();
  }, 150_000);

  test("live servers at 360 px: the filters fold behind a Filters button, the servers come first; at desktop width they stand in the page", async () => {
    const { page, errors, ctx } = await context();
    await page.goto(base + "/live");
    const table = page.getByRole("table", { name: "Live servers" });
    await table.getByRole("row").nth(1).waitFor();
    const filters = page.getByRole("button", { name: /^Filters/ });
    expect(await filters.isVisible()).toBe(false);
    expect(await page.getByLabel("At least players").isVisible()).toBe(true);
    await look(page, "live");
    await page.setViewportSize({ width: 360, height: 780 });
    await settled(page);
    expect(await page.getByLabel("At least players").isVisible()).toBe(false);
    // The first server shows on the first screen.
    const first = await table.getByRole("row").nth(1).boundingBox();
    expect(first!.y).toBeLessThan(780);
    expect(await filters.getAttribute("aria-expanded")).toBe("false");
    await filters.click();
    expect(await filters.getAttribute("aria-expanded")).toBe("true");
    await page.getByLabel("At least players").fill("20");
    await page.getByLabel("At least players").press("Enter");
    await page.waitForURL(/min_players=20/);
    await page.getByRole("button", { name: "Filters (1 on)" }).waitFor();
    expect(await fitsScreen(page)).toEqual({ wide: [], cut: [], tabRows: [] });
    await page.setViewportSize({ width: 1440, height: 900 });
    const server = ((await api("GET", "/api/v1/game-servers")).body as any[])[0];
    await page.goto(`${base}/live/${server.id}`);
    await page.getByRole("heading", { name: server.name, level: 1 }).waitFor();
    await look(page, "live-server");
    await page.goto(`${base}/stats`);
    await page.getByRole("heading", { name: "Statistics" }).first().waitFor();
    await look(page, "stats");
    // A community with a server: its servers' table as cards at 360 px.
    const member = await account("cora@example.com", "Cora");
    const community = (await api("POST", "/api/v1/communities", member.token, { name: "Cora's Group", description: "Sundays" })).body;
    expect((await api("POST", `/api/v1/game-servers/${server.id}/community`, member.token, { community_id: community.id })).status).toBe(204);
    const scan = (await api("POST", "/api/v1/jobs/game-servers", adminToken, {})).body.job_id;
    await until("the scan", async () => ["succeeded", "failed"].includes((await api("GET", `/api/v1/jobs/${scan}`, adminToken)).body.status));
    await page.goto(`${base}/communities/${community.slug}`);
    await page.getByRole("table", { name: "Cora's Group's servers online now" }).getByRole("link", { name: server.name }).waitFor();
    await look(page, "community");
    expect(errors).toEqual([]);
    await ctx.close();
  }, 90_000);
});

describe("a new install whose workshop is out of reach", () => {
  test("the empty catalog shows the crawl's error while it retries, with what to do; the admin retries now and the catalog fills", async () => {
    // The workshop's address answers nothing at first (connection refused): the crawl fails and
    // waits to try again. Its own binary, schedules on (a new install queues its first crawl).
    const port = await freePort();
    const workshop = startFakeWorkshop({ mods: smallCatalog() });
    let front: ReturnType<typeof Bun.serve> | null = null;
    const fresh = await binaryInFreshFolder();
    const started = await startBinary(fresh.bin, fresh.dir, {
      LOADOUT_DATA_DIR: join(fresh.dir, "data"),
      LOADOUT_WORKSHOP_URL: `http://127.0.0.1:${port}`,
      LOADOUT_WORKSHOP_RPS: "1000",
      LOADOUT_SCHEDULES: "on",
      LOADOUT_ADMIN_EMAIL: ADMIN.email,
      LOADOUT_ADMIN_PASSWORD: ADMIN.password,
      LOADOUT_RATE_LIMIT_ANON: "0",
      LOADOUT_RATE_LIMIT_USER: "0",
    });
    const visitor = await context();
    const admin = await context();
    try {
      const health = async () => (await (await fetch(started.base + "/api/v1/health")).json()) as any;
      // The first attempt failed; the crawl is queued again, waiting out its back-off.
      const w = await until("the first attempt's failure", async () => {
        const s = (await health()).sources.workshop;
        return s.last_error && s.crawl?.status === "queued" && s;
      }, 90_000);
      expect(w.last_error).toContain("cannot reach the workshop");
      // The admin sees when the next attempt comes (the back-off is 30 s: checked first).
      await signIn(admin.page, ADMIN.email, ADMIN.password, started.base);
      await admin.page.getByText(/Loadout tries again by itself at .* \(attempt [23] of 3\)\./).waitFor();
      // Anyone sees the error at once, not "queued and starts in a moment", and what to do.
      await visitor.page.goto(started.base + "/mods");
      await visitor.page.getByRole("heading", { name: "The catalog is empty" }).waitFor();
      await visitor.page.getByText(/The last crawl failed .*: cannot reach the workshop/).waitFor();
      await visitor.page.getByText("Loadout tries again by itself in a few minutes.").waitFor();
      await visitor.page.getByText(/The crawl needs outbound HTTPS from the machine Loadout runs on to the Arma Reforger workshop/).waitFor();
      await visitor.page.getByText("Then an admin of this Loadout can retry it.").waitFor();
      expect(await visitor.page.getByText("queued and starts in a moment").count()).toBe(0);
      await look(visitor.page, "catalog-empty-retrying");
      // The workshop answers again; the admin retries now instead of waiting out the back-off
      // (should the back-off have run out meanwhile, the next attempt is under way: the button
      // shows again once it has failed).
      front = Bun.serve({ port, hostname: "127.0.0.1", fetch: (req) => fetch(workshop.url + new URL(req.url).pathname + new URL(req.url).search, { headers: req.headers }) });
      const filled = admin.page.getByRole("list", { name: "Mods" });
      await Promise.race([admin.page.getByRole("button", { name: "Retry now" }).click({ timeout: 90_000 }), filled.waitFor({ timeout: 90_000 })]);
      // The crawl runs at once and the catalog fills without a reload.
      await filled.waitFor({ timeout: 60_000 });
      expect((await health()).sources.workshop.last_error).toBeNull();
      expect(visitor.errors).toEqual([]);
      expect(admin.errors).toEqual([]);
    } finally {
      await visitor.ctx.close();
      await admin.ctx.close();
      started.proc.kill();
      front?.stop(true);
      workshop.stop();
      rmSync(fresh.dir, { recursive: true, force: true });
    }
  }, 240_000);
});
