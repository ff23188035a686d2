// The web app the way a person uses it: Playwright (playwright-core) driving Debian's Chromium
// against the compiled binary, the fake workshop behind it. axe-core runs on every page (no
// serious or critical violations); every page is photographed light and dark at 1440 and 360 px
// into test/e2e/artifacts/ (gitignored) for people to look at.
// Long on purpose: every journey shares one compiled binary, one fake workshop and one browser,
// started once (each start costs seconds); the journeys are separate describe blocks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { binaryInFreshFolder, startBinary, until } from "./build";
import { startFakeWorkshop, type FakeWorkshop } from "../fakes/workshop";
import { loadBmFixture, startFakeBattleMetrics, type FakeBattleMetrics } from "../fakes/battlemetrics";
import { startSshd, type SshdPeer } from "../peers/sshd";
import { startReceiver, type Receiver } from "../fakes/receiver";
import { startFakePanel } from "../fakes/panel";
import { startA2sResponder } from "../fakes/a2s";
import { SAMPLE_SERVER_JSON } from "../fakes/panel-server-json";
import { verifyStandardWebhook } from "../fakes/receiver-verify";
import { smallCatalog, SMALL } from "../fixtures/workshop/dataset";

const ARTIFACTS = join(import.meta.dir, "artifacts");
const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const CHROMIUM = "/usr/bin/chromium";
const ADMIN = { email: "admin@example.com", password: "admin password" };

let dir: string;
let proc: ReturnType<typeof Bun.spawn>;
let base: string;
let fake: FakeWorkshop;
let bm: FakeBattleMetrics;
let sshd: SshdPeer;
let rx: Receiver;
let browser: Browser;
let adminToken: string;
const axeFindings: string[] = [];

async function api(method: string, path: string, token?: string, body?: unknown) {
  const r = await fetch(base + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as any };
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

/** Screenshots light and dark at 1440 and 360 px wide, then axe in both schemes. */
async function look(page: Page, name: string) {
  await page.waitForLoadState("networkidle");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1440, 360]) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      await page.waitForTimeout(60);
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${scheme}-${width}.png`), fullPage: true });
      // Readable at 360 px means no sideways scrolling of the page.
      const overflow = await page.evaluate(`(() => {
        const w = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth <= w) return [];
        // the outermost elements that stick out (their children would repeat them)
        return [...document.querySelectorAll("body *")]
          .filter((e) => e.getBoundingClientRect().right > w + 0.5 && !(e.parentElement && e.parentElement.getBoundingClientRect().right > w + 0.5))
          .slice(0, 5)
          .map((e) => e.tagName.toLowerCase() + (e.className ? "." + String(e.className).split(" ").join(".") : "") + " " + Math.round(e.getBoundingClientRect().right));
      })()`);
      expect({ page: name, width, overflow }).toEqual({ page: name, width, overflow: [] });
      // At desktop width no table is cut off and scrolled sideways inside its card (at 360 px a
      // wide table may scroll).
      if (width === 1440) {
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
    // refuses: only the workshop's CDN may serve images); anything else is a defect.
    const fakeImage = /Failed to load resource|Loading the image 'https:\/\/cdn\.example\.test\/[^']*' violates .*"img-src/.test(m.text());
    if (m.type() === "error" && !fakeImage) errors.push(m.text());
  });
  return { ctx, page, errors };
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(base + "/sign-in");
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
  sshd = await startSshd();
  rx = await startReceiver();
  fake.malformedDetails.add(SMALL.weapons); // a failing job for the admin to retry
  const b = await binaryInFreshFolder();
  dir = b.dir;
  const data = join(dir, "data");
  // Resource path lists of the vehicles pack: items for two versions (docs/catalog.md).
  mkdirSync(data, { recursive: true });
  cpSync(join(import.meta.dir, "../fixtures/workshop/paths"), join(data, "resource-paths"), { recursive: true });
  ({ proc, base } = await startBinary(b.bin, dir, {
    LOADOUT_DATA_DIR: data,
    LOADOUT_WORKSHOP_URL: fake.url,
    LOADOUT_WORKSHOP_RPS: "1000",
    LOADOUT_BATTLEMETRICS_URL: bm.url,
    // The SFTP peer and the webhook receiver listen on 127.0.0.1.
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
    return jobs.length > 2 && jobs.every((j) => j.status === "succeeded" || j.status === "failed") && (await api("GET", `/api/v1/mods/${SMALL.chainA}`)).status === 200;
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  proc?.kill();
  fake?.stop();
  bm?.stop();
  await sshd?.stop();
  rx?.stop();
  rmSync(dir, { recursive: true, force: true });
  if (axeFindings.length) console.log(`axe (moderate and minor, not failing): ${axeFindings.join("; ")}`);
});

describe("the web app in a real browser", () => {
  test("pages are the app, with a strict CSP; unknown API paths stay JSON", async () => {
    const page = await fetch(base + "/mods/" + SMALL.core + "?tab=versions");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("cache-control")).toBe("no-cache");
    const html = await page.text();
    const js = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(base + js, { headers: { "accept-encoding": "br" } });
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("content-encoding")).toBe("br");
    const nope = await fetch(base + "/api/v1/no/such/thing");
    expect(nope.status).toBe(404);
    expect(await nope.json()).toEqual({ error: "not found", code: "request.route_not_found" });
    expect((await fetch(base + "/swagger/json")).headers.get("content-type")).toContain("json");
  });

  test("register → waiting for approval → admin approves → settings: API key created, shown once, revoked → sign out", async () => {
    const user = await context();
    const { page } = user;
    await page.goto(base + "/register");
    await look(page, "register");
    await page.getByLabel("Display name").fill("Rifleman Rex");
    await page.getByLabel("E-mail").fill("rex@example.com");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Waiting for approval" }).waitFor();
    await expect(page.getByText("Your account is waiting for approval by an admin").first().isVisible()).resolves.toBe(true);

    const admin = await context();
    await signIn(admin.page, ADMIN.email, ADMIN.password);
    await admin.page.getByRole("link", { name: "Admin", exact: true }).click();
    await admin.page.getByRole("heading", { name: "Waiting for approval" }).waitFor();
    await look(admin.page, "admin-accounts");
    await admin.page.getByRole("button", { name: "Approve Rifleman Rex" }).click();
    await admin.page.getByText("Nobody is waiting").waitFor();

    await page.goto(base + "/settings");
    await page.getByRole("heading", { name: "Settings" }).waitFor();
    expect(await page.getByText("Your account is waiting for approval").count()).toBe(0);
    await page.getByLabel("Name of the new key").fill("launcher");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("new-api-key").textContent())!;
    expect(key).toStartWith("lo_");
    expect((await api("GET", "/api/v1/auth/me", key)).body.display_name).toBe("Rifleman Rex");
    await look(page, "settings");
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Revoke key launcher" }).click();
    await page.getByText("No API keys yet.").waitFor();
    expect((await api("GET", "/api/v1/auth/me", key)).status).toBe(401);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("banner").getByRole("link", { name: "Sign in" }).waitFor();
    expect(user.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await user.ctx.close();
    await admin.ctx.close();
  }, 60_000);

  test("search with suggestions, open a mod, read its dependency tree, switch item versions, compare them; a deep link reloads", async () => {
    const { page, errors, ctx } = await context();
    await page.goto(base + "/mods");
    await page.getByRole("heading", { name: "Mod catalog" }).waitFor();
    await look(page, "catalog");
    await page.getByRole("combobox", { name: "Search mods" }).fill("chain");
    const suggestion = page.getByRole("option", { name: "Chain A" });
    await suggestion.waitFor();
    await look(page, "catalog-suggestions");
    await page.getByRole("combobox", { name: "Search mods" }).press("Enter"); // no suggestion picked: search
    await page.waitForURL(/q=chain/);
    await page.getByRole("link", { name: "Chain A" }).click();
    await page.getByRole("heading", { name: "Chain A", level: 1 }).waitFor();
    await look(page, "mod");
    await page.getByRole("link", { name: "Dependencies" }).click();
    await page.waitForURL(/tab=dependencies/);
    const tree = page.locator(".tree");
    await tree.getByRole("link", { name: "Chain B" }).waitFor();
    expect(await tree.getByText("Core Framework").count()).toBeGreaterThan(0);
    expect(await page.getByText(/to download in all/).textContent()).toMatch(/MB|KB/);
    await look(page, "mod-dependencies");

    // A deep link, reloaded, opens the same view.
    await page.reload();
    await tree.getByRole("link", { name: "Chain B" }).waitFor();
    expect(page.url()).toContain("tab=dependencies");

    // Items of the vehicles pack: two scanned versions, switch between them, compare.
    await page.goto(`${base}/mods/${SMALL.vehicles}?tab=items`);
    const picker = page.getByLabel("Version");
    await picker.waitFor();
    const newest = await picker.inputValue();
    const older = newest === "1.1.0" ? "1.0.0" : "1.1.0";
    await picker.selectOption(older);
    await page.waitForURL(new RegExp(`version=${older.replace(/\./g, "\\.")}`));
    await page.getByRole("heading", { name: /^Vehicles \(\d+\)$/ }).waitFor();
    await page.getByLabel("From").selectOption("1.0.0");
    await page.getByLabel("To").selectOption("1.1.0");
    await page.getByText(/\d+ added, \d+ removed, \d+ changed\./).waitFor();
    await look(page, "mod-items");
    await page.goto(`${base}/mods/${SMALL.core}?tab=usage`);
    await page.getByRole("heading", { name: "Servers using it over time" }).waitFor();
    await look(page, "mod-usage");
    await page.goto(`${base}/mods/${SMALL.missions}?tab=scenarios`);
    await page.getByRole("region", { name: "Scenarios" }).getByRole("heading").first().waitFor();
    await look(page, "mod-scenarios");
    await page.goto(`${base}/sign-in`);
    await look(page, "sign-in");
    expect(errors).toEqual([]);
    // An id that is no workshop ID (the API's code invalid_workshop_id, not its text) and one the
    // catalog lacks read differently (after the console check: both answers are HTTP errors).
    await page.goto(`${base}/mods/not-an-id`);
    await page.getByText("“not-an-id” is not a workshop ID (16 hexadecimal characters).").waitFor();
    expect(await page.getByText("Loadout can fetch it now").count()).toBe(0);
    await page.goto(`${base}/mods/ABCDEF0123456789`);
    await page.getByText("The catalog has no mod ABCDEF0123456789 yet.").waitFor();
    await page.getByText("If it exists on the workshop, Loadout can fetch it now.").waitFor();
    await ctx.close();
  }, 60_000);

  test("admin: a failed job's error is shown and retried from the jobs page", async () => {
    const { page, errors, ctx } = await context();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(base + "/admin?tab=jobs&status=failed");
    const retry = page.getByRole("button", { name: "Retry job scrape.detail" });
    await retry.waitFor();
    expect(await page.getByText(`workshop detail ${SMALL.weapons} payload changed shape`).count()).toBeGreaterThan(0);
    await look(page, "admin-jobs");
    fake.malformedDetails.delete(SMALL.weapons); // the site is fixed; the retry succeeds
    await retry.click();
    await until("the retried scrape", async () => (await api("GET", `/api/v1/mods/${SMALL.weapons}`)).status === 200);
    await page.goto(base + `/mods/${SMALL.weapons}`);
    await page.getByRole("heading", { name: "Modern Weapons", level: 1 }).waitFor();
    expect(errors).toEqual([]);
    await ctx.close();
  }, 60_000);

  test("lists: create, add a mod with its dependencies, fix a pre-flight warning, undo a removal, import with preview, export", async () => {
    const reg = await api("POST", "/api/v1/auth/register", undefined, { email: "lister@example.com", password: "list maker pw", display_name: "Lister" });
    await api("POST", `/api/v1/admin/users/${reg.body.user_id}/approve`, adminToken);
    const { page, errors, ctx } = await context();
    await signIn(page, "lister@example.com", "list maker pw");
    await page.getByRole("link", { name: "Lists", exact: true }).click();
    await page.getByRole("heading", { name: "Mod lists" }).waitFor();
    await page.getByText("No lists yet").waitFor();
    await look(page, "lists");
    await page.getByLabel("List name").fill("Ops night");
    await page.getByRole("button", { name: "Create list" }).click();
    await page.getByRole("heading", { name: "Ops night", level: 1 }).waitFor();

    // Add Chain A: the three mods it needs are named, with sizes, before anything is added.
    // The picker with the keyboard only (a WAI-ARIA combobox): type, arrow down, Enter.
    const picker = page.getByRole("combobox", { name: "Find a mod in the catalog" });
    await picker.fill("chain a");
    await page.getByRole("option", { name: "Chain A" }).waitFor();
    expect(await picker.getAttribute("aria-expanded")).toBe("true");
    await page.getByRole("status").filter({ hasText: /\d+ mods? found/ }).waitFor();
    await picker.press("ArrowDown");
    expect(await page.getByRole("option", { name: "Chain A" }).getAttribute("aria-selected")).toBe("true");
    expect(await picker.getAttribute("aria-activedescendant")).toBe(await page.getByRole("option", { name: "Chain A" }).getAttribute("id"));
    await axe(page, "mod picker open");
    await picker.press("Enter");
    await page.getByText("and the 3 mods it needs that the list lacks").waitFor();
    const needed = page.getByRole("list", { name: "Dependencies that will be added" });
    expect((await needed.getByRole("listitem").allTextContents()).map((t) => t.replace(/\s+\d.*$/, "")).sort()).toEqual(["Chain B", "Chain C", "Core Framework"]);
    await page.getByRole("button", { name: "Add 4 mods" }).click();
    await page.getByRole("status").filter({ hasText: "Added" }).waitFor();
    const rows = page.getByRole("table", { name: "Mods of Ops night" }).getByRole("row");
    await until("four mods in the table", async () => (await rows.count()) === 5);
    await look(page, "list-mods");
    // Each row says who added it and whether its dependencies are all in the list.
    const chainA = page.getByRole("row").filter({ has: page.getByRole("link", { name: "Chain A", exact: true }) });
    expect(await chainA.getByRole("cell").nth(5).textContent()).toStartWith("Lister");
    expect(await chainA.getByRole("cell").nth(4).textContent()).toBe("complete");

    // Remove a dependency: the list warns, the rows that need it say so; the pre-flight check fixes it in one click.
    await page.getByRole("button", { name: "Remove Core Framework" }).click();
    await page.getByText("1 dependency is missing").waitFor(); // counts read as words
    await page.getByText("needs Core Framework").first().waitFor();
    await page.getByRole("link", { name: "Fix them in the pre-flight check" }).click();
    await page.getByRole("button", { name: "Add Core Framework" }).waitFor();
    await look(page, "list-check");
    await page.getByRole("button", { name: "Add Core Framework" }).click();
    await page.getByText("Ready to deploy").waitFor();

    // Remove and undo.
    await page.getByRole("link", { name: "Mods", exact: true }).click();
    await page.getByRole("button", { name: "Remove Chain C" }).click();
    // The undo reverts the entry the removal answered with: it does not read the history first.
    const undoCalls: string[] = [];
    const onRequest = (r: { method(): string; url(): string }) => void undoCalls.push(`${r.method()} ${new URL(r.url()).pathname}`);
    page.on("request", onRequest);
    await page.getByRole("button", { name: "Undo" }).click();
    await page.getByRole("button", { name: "Remove Chain C" }).waitFor();
    page.off("request", onRequest);
    expect(undoCalls.filter((c) => c.includes("/audit"))).toEqual([expect.stringMatching(/^POST \/api\/v1\/lists\/[^/]+\/audit\/[^/]+\/revert$/)]);
    expect(await page.getByText(/dependenc(y is|ies are) missing/).count()).toBe(0);

    // Import a pasted server.json: preview, then apply.
    await page.getByRole("link", { name: "Import" }).click();
    const pasted = JSON.stringify({ game: { mods: [SMALL.chainA, SMALL.chainB, SMALL.chainC, SMALL.core, SMALL.vehicles].map((modId) => ({ modId, name: "" })) } }, null, 2);
    await page.getByLabel("Configuration text").fill(pasted);
    await page.getByRole("button", { name: "Preview changes" }).click();
    await page.getByRole("heading", { name: "Added (1)" }).waitFor();
    expect(await page.getByRole("heading", { name: /^Order changed/ }).count()).toBe(0);
    // Taking the file's order too: the preview names the moves, the apply makes them.
    await page.getByLabel("Also take the file's order of mods").check();
    await page.getByRole("button", { name: "Preview changes" }).click();
    await page.getByRole("heading", { name: /^Order changed \(\d+\)$/ }).waitFor();
    await look(page, "list-import");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("Applied: 1 added, 0 removed").waitFor();
    const ordered = (await api("GET", `/api/v1/lists/${(page.url().match(/lists\/([^/?]+)/) ?? [])[1]}`, await page.evaluate(() => (globalThis as any).localStorage.getItem("loadout.token") as string))).body;
    expect(ordered.items.map((i: any) => i.workshop_id)).toEqual([SMALL.chainA, SMALL.chainB, SMALL.chainC, SMALL.core, SMALL.vehicles]);

    // Export: the fragment names exactly the list's mods.
    await page.getByRole("link", { name: "Export" }).click();
    const exported = page.getByLabel("Exported configuration");
    await exported.waitFor();
    const json = JSON.parse(await exported.inputValue());
    expect(json.game.mods.map((m: any) => m.modId).sort()).toEqual([SMALL.chainA, SMALL.chainB, SMALL.chainC, SMALL.core, SMALL.vehicles].sort());
    await look(page, "list-export");
    // Snapshot, change, compare with the list now, restore (an import: undoable too).
    await page.getByRole("link", { name: "History" }).click();
    await page.getByLabel("Snapshot name").fill("Before the op");
    await page.getByRole("button", { name: "Take a snapshot" }).click();
    await page.getByRole("table", { name: "Snapshots of this list" }).getByRole("cell", { name: "Before the op", exact: true }).waitFor();
    await page.getByRole("link", { name: "Mods", exact: true }).click();
    await page.getByRole("button", { name: "Remove Everon Vehicles Pack" }).click();
    await page.getByText("Removed Everon Vehicles Pack").waitFor();
    await page.getByRole("link", { name: "History" }).click();
    const snapLabel = (await page.getByLabel("Compare").locator("option").allTextContents()).find((t) => t.startsWith("Before the op"))!;
    await page.getByLabel("Compare").selectOption({ label: snapLabel });
    await page.getByText("0 added, 1 removed, 0 version changes.").waitFor();
    await page.getByRole("table", { name: "Changes to Ops night, newest first" }).waitFor();
    await look(page, "list-history");
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: `Restore ${snapLabel}` }).click();
    await page.getByText("Restored: 1 added, 0 removed").waitFor();

    // Templates: make one of this list, a second list follows it, a change is pushed to it.
    const token = (await api("POST", "/api/v1/auth/login", undefined, { email: "lister@example.com", password: "list maker pw" })).body.token;
    const opsId = new URL(page.url()).pathname.split("/")[2]!;
    await page.getByRole("link", { name: "Templates" }).click();
    await page.getByLabel("Template name").fill("Ops night template");
    await page.getByRole("button", { name: "Make template" }).click();
    await page.getByText("Template “Ops night template” made with 5 mods.").waitFor();
    const follower = (await api("POST", "/api/v1/lists", token, { name: "Follower" })).body;
    await page.goto(`${base}/lists/${follower.id}?tab=templates`);
    await page.getByLabel("Template", { exact: true }).selectOption({ label: "Ops night template (5 mods)" });
    await page.getByRole("button", { name: "Follow and apply" }).click();
    await page.getByText("Applied: 5 added").waitFor();
    await page.getByRole("table", { name: "Templates this list follows" }).waitFor();
    await look(page, "list-templates");
    await api("POST", `/api/v1/lists/${opsId}/mods`, token, { workshop_id: SMALL.cycleY });
    await page.getByRole("button", { name: "Push updates of Ops night template to its followers" }).click();
    await page.getByText(/Pushed to 1 list: [1-9]\d* mods? added/).waitFor();
    expect((await api("GET", `/api/v1/lists/${follower.id}`, token)).body.items.map((i: any) => i.workshop_id)).toContain(SMALL.cycleY);
    expect(errors).toEqual([]);
    await ctx.close();
  }, 90_000);

  test("import and export keep what the file says: every stale pin chosen in one go, the export labels say what each type writes, the config comes back", async () => {
    const reg = await api("POST", "/api/v1/auth/register", undefined, { email: "configs@example.com", password: "config keeper pw", display_name: "Keeper" });
    await api("POST", `/api/v1/admin/users/${reg.body.user_id}/approve`, adminToken);
    const token = (await api("POST", "/api/v1/auth/login", undefined, { email: "configs@example.com", password: "config keeper pw" })).body.token;
    const list = (await api("POST", "/api/v1/lists", token, { name: "Arland nights" })).body;
    const { page, errors, ctx } = await context();
    await signIn(page, "configs@example.com", "config keeper pw");
    await page.goto(`${base}/lists/${list.id}?tab=import`);
    // A hand-edited config: comments, trailing commas, two pins the catalog never had, an optional mod.
    const file = `// our server
{
  "bindPort": 2302,
  "rcon": { "address": "0.0.0.0", "port": 19999, "password": "rcon-secret", "permission": "admin", },
  "game": {
    "name": "Arland nights",
    "passwordAdmin": "admin-secret",
    "scenarioId": "{C41618FD18E9D714}Missions/23_Campaign_Arland.conf", /* Arland */
    "maxPlayers": 96,
    "gameProperties": { "battlEye": false, },
    "modsRequiredByDefault": true,
    "mods": [
      { "modId": "${SMALL.core}", "name": "Core Framework", "version": "0.0.1-gone" },
      { "modId": "${SMALL.vehicles}", "name": "Everon Vehicles Pack", "version": "0.0.2-gone" },
      { "modId": "${SMALL.weapons}", "name": "Weapons", "required": false },
    ],
  },
}`;
    await page.getByLabel("Configuration text").fill(file);
    await page.getByRole("button", { name: "Preview changes" }).click();
    const stale = page.getByRole("group", { name: "2 pinned versions the catalog does not have" });
    await stale.waitFor();
    await page.getByText("2 comments and 5 trailing commas were ignored").waitFor();
    expect(await page.getByRole("button", { name: "Apply" }).isDisabled()).toBe(true);
    await stale.getByRole("radiogroup", { name: "Core Framework 0.0.1-gone" }).getByLabel("Import unpinned").check();
    await page.getByText("Choose what to do with each (1 left) before you apply.").waitFor();
    await stale.getByRole("radiogroup", { name: "Everon Vehicles Pack 0.0.2-gone" }).getByLabel("Skip (leave it out)").check();
    await page.getByText("Every one has a choice; apply imports them all in one go.").waitFor();
    await look(page, "list-import-stale-pins");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("Applied: 2 added, 0 removed").waitFor();
    const items = (await api("GET", `/api/v1/lists/${list.id}`, token)).body.items;
    expect(items.map((i: any) => [i.workshop_id, i.pinned_version, i.required])).toEqual([
      [SMALL.core, null, true],
      [SMALL.weapons, null, false],
    ]);

    // Export: the labels say what each type writes; the complete config is the imported one.
    await page.getByRole("link", { name: "Export" }).click();
    const versions = page.getByLabel("Versions");
    expect(await versions.locator("option").allTextContents()).toEqual(["Fixed: pins only, other mods without a version", "Latest: every mod at today's newest version"]);
    await page.getByText("Fixed writes a version only for the mods you pinned").waitFor();
    await page.getByLabel("What").selectOption("game");
    await page.getByText("The settings are those of the server config this list was imported from").waitFor();
    const exported = page.getByLabel("Exported configuration");
    await until("the complete config", async () => JSON.parse((await exported.inputValue()) || "{}").bindPort === 2302);
    const config = JSON.parse(await exported.inputValue());
    expect(config.game.scenarioId).toBe("{C41618FD18E9D714}Missions/23_Campaign_Arland.conf");
    expect(config.game.passwordAdmin).toBe("admin-secret");
    expect(config.game.mods).toEqual([
      { modId: SMALL.core, name: "Core Framework" },
      { modId: SMALL.weapons, name: "Weapons", required: false }, // unchanged: the file's own entry, as written
    ]);
    await versions.selectOption("latest");
    await page.getByText("Latest writes every mod with the newest version the catalog knows now").waitFor();
    await look(page, "list-export-config");

    // A list without a config: the export says it wrote the defaults.
    const plain = (await api("POST", "/api/v1/lists", token, { name: "Plain" })).body;
    await page.goto(`${base}/lists/${plain.id}?tab=export`);
    await page.getByLabel("What").selectOption("game");
    await page.getByText("This list was not imported from a complete server config").waitFor();

    // Settings: the remembered config, passwords shown only as set.
    await page.goto(`${base}/lists/${list.id}?tab=settings`);
    await page.getByLabel("game.passwordAdmin (set)").waitFor();
    expect(await page.content()).not.toContain("admin-secret");
    await page.getByLabel("rcon.password (set)").fill("new-rcon");
    await page.getByRole("button", { name: "Save server config" }).click();
    await page.getByText("Saved.").first().waitFor();
    await look(page, "list-settings-server-config");
    expect((await fetch(`${base}/api/v1/lists/${list.id}/export/game`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json() as Promise<any>)).rcon.password).toBe("new-rcon");
    expect(errors).toEqual([]);
    await ctx.close();
  }, 90_000);

  test("the import preview names a typo the game would refuse with its fix, and the remembered settings a full config would remove; replacing them is the owner's choice", async () => {
    const reg = await api("POST", "/api/v1/auth/register", undefined, { email: "tuner@example.com", password: "tuned for years", display_name: "Tuner" });
    await api("POST", `/api/v1/admin/users/${reg.body.user_id}/approve`, adminToken);
    const token = (await api("POST", "/api/v1/auth/login", undefined, { email: "tuner@example.com", password: "tuned for years" })).body.token;
    const list = (await api("POST", "/api/v1/lists", token, { name: "Tuned server" })).body;
    // The list remembers a full config: rcon, an admin password, a scenario.
    const remembered = JSON.stringify({
      bindPort: 2001,
      rcon: { address: "0.0.0.0", port: 19999, password: "rcon-secret", permission: "admin" },
      game: { name: "Tuned", passwordAdmin: "admin-secret", scenarioId: "{ECC61978EDCC2B5A}Missions/23_Campaign.conf", maxPlayers: 64, mods: [{ modId: SMALL.core, name: "Core Framework" }] },
    }, null, 2);
    const applied = await fetch(`${base}/api/v1/lists/${list.id}/import-apply`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" }, body: remembered });
    expect(applied.status).toBe(200);

    const { page, errors, ctx } = await context();
    await signIn(page, "tuner@example.com", "tuned for years");
    await page.goto(`${base}/lists/${list.id}?tab=import`);
    // Another full config: no rcon block, no admin password, and maxPlayers misspelt.
    const file = `{
  "bindPort": 2001,
  "game": {
    "name": "Tuned",
    "scenarioId": "{ECC61978EDCC2B5A}Missions/23_Campaign.conf",
    "maxplayers": 64,
    "mods": [{ "modId": "${SMALL.core}", "name": "Core Framework" }]
  }
}`;
    await page.getByLabel("Configuration text").fill(file);
    await page.getByRole("button", { name: "Preview changes" }).click();
    const refused = page.getByRole("region", { name: "What the game would refuse" });
    await refused.getByText('game.maxplayers is not a key the game knows; did you mean "maxPlayers"?', { exact: false }).waitFor();
    expect(await refused.getByRole("heading").textContent()).toBe("The game would refuse 1 setting of this file");
    expect((await refused.locator("li").first().textContent())!.replace(/\s+/g, " ")).toContain("line 6");
    expect(await refused.locator("code").allTextContents()).toEqual(["maxplayers", "maxPlayers"]);
    // What replacing would remove, named before anyone chooses it; kept unless the owner ticks the box.
    const removed = page.getByRole("region", { name: "Settings removed" });
    await removed.getByRole("heading", { name: /^Would be removed by replacing \(\d+\)$/ }).waitFor();
    const removedPaths = await removed.locator("li").allTextContents();
    expect(removedPaths).toEqual(expect.arrayContaining(["rcon", "game.passwordAdmin"]));
    await page.getByText("The list's remembered server settings stay as they are.").waitFor();
    await page.getByLabel("Replace the remembered server settings with this file's", { exact: false }).check();
    await removed.getByRole("heading", { name: `Removed (${removedPaths.length})` }).waitFor();
    await page.getByText("The file's server settings will replace the ones the list remembers.").waitFor();
    await look(page, "list-import-config-check");
    // Unticked again and applied: the mods are imported, the remembered settings kept.
    await page.getByLabel("Replace the remembered server settings with this file's", { exact: false }).uncheck();
    await page.getByText("The list's remembered server settings stay as they are.").waitFor();
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await page.getByText("Applied:", { exact: false }).waitFor();
    const game = (await fetch(`${base}/api/v1/lists/${list.id}/export/game`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())) as any;
    expect([game.rcon?.password, game.game.passwordAdmin, game.game.maxPlayers]).toEqual(["rcon-secret", "admin-secret", 64]);
    expect(errors).toEqual([]);
    await ctx.close();
  }, 90_000);

  test("rights decide what is shown: an owner shares, a collaborator who may only add sees no remove, a share-link visitor sees no edit controls", async () => {
    const reg = async (email: string, name: string) => {
      const r = await api("POST", "/api/v1/auth/register", undefined, { email, password: "a good password", display_name: name });
      await api("POST", `/api/v1/admin/users/${r.body.user_id}/approve`, adminToken);
    };
    await reg("owner2@example.com", "Owner Two");
    await reg("adder@example.com", "Adder");
    const ownerToken = (await api("POST", "/api/v1/auth/login", undefined, { email: "owner2@example.com", password: "a good password" })).body.token;
    const list = (await api("POST", "/api/v1/lists", ownerToken, { name: "Shared night", is_public: false })).body;
    await api("POST", `/api/v1/lists/${list.id}/mods`, ownerToken, { workshop_id: SMALL.chainA, with_dependencies: true });

    const owner = await context();
    await signIn(owner.page, "owner2@example.com", "a good password");
    await owner.page.goto(`${base}/lists/${list.id}?tab=sharing`);
    await owner.page.getByRole("heading", { name: "Collaborators" }).waitFor();
    await owner.page.getByLabel("Display name or e-mail", { exact: true }).fill("adder@example.com");
    await owner.page.getByRole("button", { name: "Add collaborator" }).click();
    await owner.page.getByRole("table", { name: "Collaborators and their rights" }).getByRole("cell", { name: "Adder", exact: true }).waitFor();
    await owner.page.getByLabel("Co-owner's display name or e-mail").fill("Nobody Such");
    await owner.page.getByRole("button", { name: "Add co-owner" }).click();
    await owner.page.getByRole("alert").filter({ hasText: /not found|no user/i }).waitFor(); // the API's own words
    const shareLink = await owner.page.getByLabel("Share link").inputValue();
    expect(shareLink).toContain(`/lists/${list.id}?share=`);
    await look(owner.page, "list-sharing");

    const adder = await context();
    await signIn(adder.page, "adder@example.com", "a good password");
    await adder.page.goto(`${base}/lists/${list.id}`);
    await adder.page.getByRole("heading", { name: "Add a mod" }).waitFor();
    // Pinning puts it at the top of the collaborator's lists page.
    await adder.page.getByRole("button", { name: "Pin to my lists" }).click();
    await adder.page.getByRole("button", { name: "Pinned" }).waitFor();
    await adder.page.getByRole("link", { name: "Lists", exact: true }).click();
    await adder.page.getByRole("table", { name: "Lists you pinned" }).getByRole("link", { name: "Shared night" }).click();
    await adder.page.getByRole("heading", { name: "Add a mod" }).waitFor();
    expect(await adder.page.getByRole("button", { name: /^Remove / }).count()).toBe(0);
    expect(await adder.page.getByRole("link", { name: "Sharing" }).count()).toBe(0);
    expect(await adder.page.getByRole("link", { name: "Import" }).count()).toBe(0); // import also removes

    const visitor = await context();
    await visitor.page.goto(shareLink);
    await visitor.page.getByText("You are viewing this list through its share link").waitFor();
    await visitor.page.getByRole("table", { name: "Mods of Shared night" }).waitFor();
    expect(await visitor.page.getByRole("heading", { name: "Add a mod" }).count()).toBe(0);
    expect(await visitor.page.getByRole("button", { name: /^Remove |change the version/ }).count()).toBe(0);
    expect((await visitor.page.getByRole("navigation", { name: "Sections of this list" }).getByRole("link").allTextContents()).sort()).toEqual(["Export", "Mods", "Pre-flight check"]);
    await look(visitor.page, "list-shared-view");
    await visitor.page.getByRole("link", { name: "Export" }).click();
    expect(JSON.parse(await visitor.page.getByLabel("Exported configuration").inputValue()).game.mods).toHaveLength(4);
    // A player with the suggestion link suggests a mod; the owner votes for it and accepts it.
    await reg("player@example.com", "Player One");
    const suggestLink = await owner.page.getByLabel("Suggestion link").inputValue();
    const player = await context();
    await signIn(player.page, "player@example.com", "a good password");
    // Signed in but reading through the share link: no pin offered (the pin route answers 404 to it).
    await player.page.goto(shareLink);
    await player.page.getByText("You are viewing this list through its share link").waitFor();
    expect(await player.page.getByRole("button", { name: "Pin to my lists" }).count()).toBe(0);
    await player.page.goto(suggestLink);
    await player.page.getByRole("heading", { name: "Suggest a mod" }).waitFor();
    await player.page.getByLabel("Mod", { exact: true }).fill("cycle x");
    await player.page.getByRole("option", { name: "Cycle X" }).click();
    await player.page.getByLabel("Why this mod?").fill("We need it for the Saturday op");
    await look(player.page, "suggest");
    await player.page.getByRole("button", { name: "Send the suggestion" }).click();
    await player.page.getByRole("heading", { name: "Thank you" }).waitFor();
    await owner.page.goto(`${base}/lists/${list.id}?tab=suggestions`);
    await owner.page.getByText("suggested by Player One").waitFor();
    await owner.page.getByRole("button", { name: "Vote for it (Cycle X)" }).click();
    await owner.page.getByText("1 vote", { exact: true }).waitFor();
    await look(owner.page, "list-suggestions");
    await owner.page.getByLabel("Note to Player One").fill("Good idea");
    await owner.page.getByRole("button", { name: "Accept Cycle X" }).click();
    await owner.page.getByText("No suggestions waiting").waitFor();
    expect((await api("GET", `/api/v1/lists/${list.id}`, ownerToken)).body.items.map((i: any) => i.name)).toContain("Cycle X");
    for (const c of [owner, adder, visitor, player]) {
      expect(c.errors).toEqual([]);
      await c.ctx.close();
    }
  }, 90_000);

  test("organise and govern: folders, tags and a community; list settings; a permission group with a per-list override; a suggestion question; block and unblock; copy a live server's mods; filter the history; delete", async () => {
    const reg = async (email: string, name: string) => {
      const r = await api("POST", "/api/v1/auth/register", undefined, { email, password: "a good password", display_name: name });
      await api("POST", `/api/v1/admin/users/${r.body.user_id}/approve`, adminToken);
      return (await api("POST", "/api/v1/auth/login", undefined, { email, password: "a good password" })).body.token as string;
    };
    const ownerToken = await reg("organiser@example.com", "Organiser");
    const helperToken = await reg("helper@example.com", "Helper");
    const list = (await api("POST", "/api/v1/lists", ownerToken, { name: "Weekend ops", is_public: false })).body;
    await api("POST", `/api/v1/lists/${list.id}/mods`, ownerToken, { workshop_id: SMALL.chainA, with_dependencies: true });
    // A live server to copy from: one scan of the fake BattleMetrics.
    expect((await api("POST", "/api/v1/jobs/game-servers", adminToken, {})).status).toBe(202);
    await until("the live servers", async () => ((await api("GET", "/api/v1/game-servers?search=Bravo")).body as unknown[]).length > 0);

    const { page, errors, ctx } = await context();
    page.on("dialog", (d) => void d.accept());
    await signIn(page, "organiser@example.com", "a good password");
    await page.goto(`${base}/lists`);
    await page.getByRole("heading", { name: "Organise" }).waitFor();
    await page.getByLabel("New folder").fill("Weekend");
    await page.getByRole("button", { name: "Add folder" }).click();
    await page.getByText("Weekend (0)").waitFor();
    await page.getByLabel("New tag").fill("Milsim");
    await page.getByRole("button", { name: "Add tag" }).click();
    await page.getByRole("button", { name: "Delete tag Milsim" }).waitFor();
    await page.getByLabel("New community", { exact: true }).fill("Task Force Kilo");
    await page.getByLabel("What it is about").fill("Saturday operations");
    await page.getByRole("button", { name: "Create community" }).click();
    await page.getByText("Saturday operations").waitFor();

    // The list's settings: file it, tag it, tighten the age rule.
    await page.goto(`${base}/lists/${list.id}?tab=settings`);
    await page.getByRole("heading", { name: "Folder, community and tags" }).waitFor();
    await page.getByLabel("Folder", { exact: true }).selectOption({ label: "Weekend" });
    await page.getByLabel("Community", { exact: true }).selectOption({ label: "Task Force Kilo" });
    await page.getByRole("button", { name: "Add the tag Milsim" }).click();
    await page.getByRole("button", { name: "Remove the tag Milsim" }).waitFor();
    await page.getByLabel("Oldest allowed mod (days since its last update)").fill("3650");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    await look(page, "list-settings");
    const after = (await api("GET", `/api/v1/lists/${list.id}`, ownerToken)).body;
    expect(after.folder_id).not.toBeNull();
    expect(after.community_id).not.toBeNull();
    expect(after.max_mod_age_days).toBe(3650);
    expect(after.tags.map((t: any) => t.name)).toEqual(["Milsim"]);

    // The lists page filters by tag and folder; the community shows its list.
    await page.getByRole("link", { name: "Lists", exact: true }).click();
    await page.getByText("Weekend (1)").waitFor();
    await page.getByLabel("Tag", { exact: true }).selectOption({ label: "Milsim" });
    await page.getByText(/^1 (of \d+ lists|list)$/).waitFor();
    const mine = page.getByRole("table", { name: "Your lists and the lists you help with" });
    expect(await mine.getByRole("link", { name: "Weekend ops" }).count()).toBe(1);
    await page.getByLabel("Folder", { exact: true }).selectOption({ label: "Not in a folder" });
    await page.getByText("No list matches these filters.").waitFor();
    await page.getByLabel("Folder", { exact: true }).selectOption({ label: "All folders" });
    expect(await page.getByRole("listitem").filter({ hasText: "Task Force Kilo" }).getByRole("link", { name: "Weekend ops" }).count()).toBe(1);
    await look(page, "lists-organised");

    // A permission group: Helper may add by default; on this list it may also remove.
    await page.getByRole("link", { name: "Permission groups" }).click();
    await page.getByLabel("Group name").fill("Mod team");
    await page.getByRole("button", { name: "Create group" }).click();
    await page.getByRole("heading", { name: "Mod team" }).waitFor();
    await page.getByLabel("Add to members of Mod team (display name or e-mail)").fill("helper@example.com");
    await page.getByRole("button", { name: "Add", exact: true }).first().click();
    await page.getByRole("listitem").filter({ hasText: /^Helper since/ }).waitFor();
    await look(page, "groups");
    await page.goto(`${base}/lists/${list.id}?tab=sharing`);
    await page.getByLabel("Give a group rights here").selectOption({ label: "Mod team" });
    await page.getByRole("button", { name: "Assign group" }).click();
    const groups = page.getByRole("table", { name: "Groups with rights on this list" });
    await groups.getByRole("cell", { name: "add", exact: true }).waitFor();
    await page.getByLabel("Remove (Mod team)").selectOption("yes");
    await groups.getByRole("cell", { name: "add, remove", exact: true }).waitFor();
    const helperAccess = (await api("GET", `/api/v1/lists/${list.id}`, helperToken)).body.my_access;
    expect(helperAccess).toMatchObject({ can_add: true, can_remove: true, can_deploy: false });
    await look(page, "list-sharing-groups");

    // The suggestion form's own question; a suggestion from someone to block, then unblock.
    await page.goto(`${base}/lists/${list.id}?tab=suggestions`);
    await page.getByLabel("Question", { exact: true }).fill("Which mission needs it?");
    await page.getByLabel("Answer", { exact: true }).selectOption("select");
    await page.getByLabel("Choices, one a line").fill("Saturday op\nTraining");
    await page.getByRole("button", { name: "Add question" }).click();
    await page.getByText("one of: Saturday op, Training").waitFor();
    const fields = (await api("GET", `/api/v1/lists/${list.id}/form-fields`, ownerToken)).body.fields;
    expect(fields.map((f: any) => [f.label, f.type, f.options])).toEqual([["Which mission needs it?", "select", ["Saturday op", "Training"]]]);
    const spammerToken = await reg("spammer@example.com", "Spammer");
    const sugg = await api("POST", `/api/v1/lists/${list.id}/suggestions?token=${list.suggestion_token}`, spammerToken, {
      workshop_id: SMALL.cycleX,
      reason: "buy gold",
      form_answers: { [fields[0].id]: "Training" },
    });
    expect(sugg.status).toBe(200);
    await page.reload();
    await page.getByText("suggested by Spammer").waitFor();
    await page.getByText("Which mission needs it?: Training").waitFor();
    await look(page, "list-suggestions-fields");
    await page.getByRole("button", { name: "Block Spammer" }).click();
    await page.getByText("Spammer can no longer suggest mods").waitFor();
    const again = await api("POST", `/api/v1/lists/${list.id}/suggestions?token=${list.suggestion_token}`, spammerToken, { workshop_id: SMALL.weapons, reason: "more", form_answers: { [fields[0].id]: "Training" } });
    expect(again.status).toBe(403);
    await page.goto(`${base}/lists/${list.id}?tab=sharing`);
    await page.getByRole("button", { name: "Unblock Spammer" }).click();
    await page.getByText("Nobody is blocked.").waitFor();

    // Copy a live server's mods over the list; the history shows it, filtered by kind.
    await page.goto(`${base}/lists/${list.id}?tab=import`);
    await page.getByLabel("Server name").fill("Bravo");
    await page.getByRole("button", { name: "Copy the mods of Bravo Milsim Training" }).click();
    await page.getByText("Copied the mods of Bravo Milsim Training.").waitFor();
    const copied = (await api("GET", `/api/v1/lists/${list.id}`, ownerToken)).body;
    const server = ((await api("GET", "/api/v1/game-servers?search=Bravo")).body as any[])[0];
    const serverMods = (await api("GET", `/api/v1/game-servers/${server.id}`)).body;
    expect(copied.items.map((i: any) => i.workshop_id).sort()).toEqual((serverMods.mods as any[]).map((m) => m.workshop_id).sort());
    await page.goto(`${base}/lists/${list.id}?tab=history`);
    await page.getByLabel("What", { exact: true }).selectOption({ label: "import" });
    const history = page.getByRole("table", { name: "Changes to Weekend ops, newest first" });
    await until("only imports in the history", async () => {
      const texts = await history.getByRole("row").allTextContents();
      return texts.length === 2 && texts[1]!.includes("import");
    });

    // A new list from a live server, started on the lists page.
    await page.goto(`${base}/lists`);
    await page.getByLabel("Server name").fill("Bravo");
    await page.getByRole("button", { name: "New list from the mods of Bravo Milsim Training" }).click();
    await page.getByRole("heading", { name: "Bravo Milsim Training", level: 1 }).waitFor();
    await page.getByText(`${serverMods.mods.length} mods`, { exact: true }).waitFor();

    // Delete the list (asks once); back on the lists page it is gone.
    await page.goto(`${base}/lists/${list.id}?tab=settings`);
    await page.getByRole("button", { name: "Delete list" }).click();
    await page.getByRole("heading", { name: "Mod lists" }).waitFor();
    expect((await api("GET", `/api/v1/lists/${list.id}`, ownerToken)).status).toBe(404);
    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);

  test("live servers: filter by players and by a mod (in the URL), open a server, switch chart ranges, copy its mods to a new list; statistics; a community page", async () => {
    const reg = await api("POST", "/api/v1/auth/register", undefined, { email: "watcher@example.com", password: "a good password", display_name: "Watcher" });
    await api("POST", `/api/v1/admin/users/${reg.body.user_id}/approve`, adminToken);
    const token = (await api("POST", "/api/v1/auth/login", undefined, { email: "watcher@example.com", password: "a good password" })).body.token;
    // Two scans, so the charts have history.
    for (let i = 0; i < 2; i++) {
      const job = (await api("POST", "/api/v1/jobs/game-servers", adminToken, {})).body.job_id;
      await until("the scan", async () => ["succeeded", "failed"].includes((await api("GET", `/api/v1/jobs/${job}`, adminToken)).body.status));
    }
    const all = (await api("GET", "/api/v1/game-servers")).body as any[];
    expect(all.length).toBeGreaterThanOrEqual(3);

    // A day of 5-minute samples with a two-hour outage, two weeks of hourly buckets and two months
    // of 3-hour buckets for one server, written as the scan and the roll-up would: the charts
    // have something to draw, gaps included.
    const db = new Database(join(dir, "data", "loadout.db"));
    db.exec("PRAGMA busy_timeout = 5000");
    const sid = (db.query("SELECT sid FROM game_servers WHERE name = 'Bravo Milsim Training'").get() as { sid: number }).sid;
    const now = Date.now();
    const wave = (t: number) => Math.round(30 + 25 * Math.sin((t / 86_400_000) * 2 * Math.PI));
    db.transaction(() => {
      const raw = db.query("INSERT OR IGNORE INTO game_server_stats_raw (sid, time, players, queue, wait) VALUES (?, ?, ?, ?, 0)");
      for (let t = Math.floor((now - 86_400_000) / 300_000 + 1) * 300_000; t < now - 600_000; t += 300_000)
        if (t < now - 10 * 3_600_000 || t > now - 8 * 3_600_000) raw.run(sid, t, wave(t), wave(t) > 50 ? 3 : 0);
      const hourly = db.query("INSERT OR IGNORE INTO game_server_stats_hourly (sid, time, n, players_sum, players_max, queue_sum, queue_max, wait_sum) VALUES (?, ?, 12, ?, ?, 0, 0, 0)");
      for (let t = Math.floor((now - 14 * 86_400_000) / 3_600_000 + 1) * 3_600_000; t < now - 3_600_000; t += 3_600_000) hourly.run(sid, t, wave(t) * 12, wave(t) + 2);
      const b3 = db.query("INSERT OR IGNORE INTO game_server_stats_3h (sid, time, n, players_sum, players_max, queue_sum, queue_max, wait_sum) VALUES (?, ?, 36, ?, ?, 0, 0, 0)");
      for (let t = Math.floor((now - 60 * 86_400_000) / 10_800_000 + 1) * 10_800_000; t < now - 10_800_000; t += 10_800_000) b3.run(sid, t, wave(t) * 36, wave(t) + 2);
      // The roll-up's watermarks: buckets before them are complete.
      const mark = db.query("INSERT INTO live_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)");
      mark.run("hourly_until", Math.floor((now - 3_600_000) / 3_600_000) * 3_600_000);
      mark.run("3h_until", Math.floor((now - 10_800_000) / 10_800_000) * 10_800_000);
    })();
    db.close();

    const { page, errors, ctx } = await context();
    await signIn(page, "watcher@example.com", "a good password");
    await page.getByRole("link", { name: "Servers", exact: true }).click();
    await page.getByRole("heading", { name: "Live servers" }).waitFor();
    const table = page.getByRole("table", { name: "Live servers" });
    await until("every live server listed", async () => (await table.getByRole("row").count()) === all.length + 1);
    await look(page, "live");
    // Search by name words: "bravo mil" finds Bravo Milsim Training; the port every server shares
    // (2001) is not a name word and finds nothing.
    await page.getByLabel("Search servers").fill("bravo mil");
    await page.getByLabel("Search servers").press("Enter");
    await page.waitForURL(/q=bravo/);
    await until("the search", async () => (await table.getByRole("row").count()) === 2);
    expect(await table.getByRole("row").nth(1).getByRole("link").first().textContent()).toBe("Bravo Milsim Training");
    await page.getByLabel("Search servers").fill("2001");
    await page.getByLabel("Search servers").press("Enter");
    await page.getByText("No server matches").waitFor();
    // Under 600 px each server is a compact block, its cells labelled: no sideways scrolling.
    await page.goto(`${base}/live`);
    await until("every live server listed again", async () => (await table.getByRole("row").count()) === all.length + 1);
    await page.setViewportSize({ width: 360, height: 780 });
    const wrap = await page.evaluate(`(() => { const w = document.querySelector(".table-wrap"); return [w.scrollWidth, w.clientWidth]; })()`);
    expect((wrap as number[])[0]).toBeLessThanOrEqual((wrap as number[])[1] + 1);
    expect(await table.getByRole("row").nth(1).locator("td[data-label=Scenario]").count()).toBe(1);
    // The header's links fold into a menu on one row.
    const header = await page.locator("header").boundingBox();
    expect(header!.height).toBeLessThan(70);
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("link", { name: "Statistics" }).click();
    await page.getByRole("heading", { name: "Statistics" }).first().waitFor();
    expect(await page.getByRole("button", { name: "Menu" }).getAttribute("aria-expanded")).toBe("false");
    await page.setViewportSize({ width: 1440, height: 900 });
    // At desktop width the links stand in the header and no Menu button shows.
    expect(await page.getByRole("button", { name: "Menu" }).isVisible()).toBe(false);
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Statistics" }).isVisible()).toBe(true);
    await page.goto(`${base}/live`);
    await until("every live server listed once more", async () => (await table.getByRole("row").count()) === all.length + 1);
    // At least 20 players: the page shows what the API answers for the same filter, and the URL says so.
    await page.getByLabel("At least players").fill("20");
    await page.getByLabel("At least players").press("Enter");
    await page.waitForURL(/min_players=20/);
    const busy = ((await api("GET", "/api/v1/game-servers?min_players=20")).body as any[]).map((x) => x.name);
    await until("the filtered rows", async () => (await table.getByRole("row").count()) === busy.length + 1);
    expect(await table.getByRole("row").nth(1).getByRole("link").first().textContent()).toBe(busy[0]);
    // Server tags, combined with the players filter.
    await page.getByLabel("Server tags").fill("battleye");
    await page.getByLabel("Server tags").press("Enter");
    await page.waitForURL(/tags=battleye/);
    const tagged = ((await api("GET", "/api/v1/game-servers?min_players=20&tags=battleye")).body as any[]).length;
    await until("the tagged rows", async () => (await table.getByRole("row").count()) === tagged + 1 || (tagged === 0 && (await page.getByText("No server matches").count()) === 1));
    // Running a given mod, straight from a link: the filter is part of the URL.
    await page.goto(`${base}/live?mods=5965550F24A0C152`);
    const withMod = ((await api("GET", "/api/v1/game-servers?mod_ids=5965550F24A0C152")).body as any[]).map((x) => x.name).sort();
    await until("servers running the mod", async () => (await table.getByRole("row").count()) === withMod.length + 1);
    expect((await table.getByRole("link").allTextContents()).filter((t) => t !== "official").sort()).toEqual(withMod);
    await page.getByRole("button", { name: /^Stop filtering by/ }).waitFor();

    // One server: the chart's points are the API's, for every range.
    await page.getByRole("link", { name: "Bravo Milsim Training" }).click();
    await page.getByRole("heading", { name: "Bravo Milsim Training", level: 1 }).waitFor();
    const bravo = all.find((x) => x.name === "Bravo Milsim Training")!;
    for (const [label, days, key] of [["24 hours", 1, "24h"], ["14 days", 14, "14d"], ["365 days", 365, "365d"]] as const) {
      await page.getByRole("navigation", { name: "Chart range" }).getByRole("link", { name: label }).click();
      if (key !== "24h") await page.waitForURL(new RegExp(`range=${key}`));
      const points = (await api("GET", `/api/v1/game-servers/${bravo.id}/stats?days=${days}`)).body as any[];
      expect(points.length).toBeGreaterThan(days === 1 ? 200 : 100);
      {
        await until(`the ${label} chart`, async () => (await page.locator(`figure[data-points="${points.length}"] canvas`).count()) === 1);
        await page.locator("figure details").evaluate((d: any) => void (d.open = true));
        const rows = page.getByRole("table", { name: `players on Bravo Milsim Training over ${label}` }).getByRole("row");
        expect(await rows.count()).toBe(points.length + 1);
        expect(await rows.nth(1).getByRole("cell").nth(1).textContent()).toBe(String(points[0].player_count));
      }
    }
    await page.getByRole("navigation", { name: "Chart range" }).getByRole("link", { name: "24 hours" }).click();
    await page.locator("figure details").evaluate((d: any) => void (d.open = false));
    // The outage is a gap in the 24-hour series (no point for two hours), drawn as one.
    const day = ((await api("GET", `/api/v1/game-servers/${bravo.id}/stats?days=1`)).body as any[]).map((p) => Date.parse(p.time));
    expect(Math.max(...day.slice(1).map((t, i) => t - day[i]!))).toBeGreaterThanOrEqual(2 * 3_600_000);
    const detail = (await api("GET", `/api/v1/game-servers/${bravo.id}`)).body;
    await page.getByRole("heading", { name: new RegExp(`^Mods \\(${detail.mods.length},`) }).waitFor();
    // A day of history draws a line: no "too few reports" note there.
    expect(await page.getByText("Too few reports yet to draw a line").count()).toBe(0);
    await look(page, "live-server");
    await page.getByLabel("New list's name").fill("Bravo's mods");
    await page.getByRole("button", { name: "Copy to a new list" }).click();
    await page.getByRole("heading", { name: "Bravo's mods", level: 1 }).waitFor();
    const lists = (await api("GET", "/api/v1/lists/mine", token)).body as any[];
    expect(lists.find((l) => l.name === "Bravo's mods")!.mod_count).toBe(detail.mods.length);

    // Statistics: the global chart and the top tables.
    await page.getByRole("link", { name: "Statistics", exact: true }).click();
    await page.getByRole("heading", { name: "Players on all servers" }).waitFor();
    const global = (await api("GET", "/api/v1/stats/global-players?days=1")).body as any[];
    await until("the global chart", async () => (await page.locator(`figure[data-points="${global.length}"] canvas`).count()) === 1);
    // The scans so far lie within minutes of each other: the card says why no line shows yet.
    const span = Date.parse(global.at(-1).time) - Date.parse(global[0].time);
    expect(span).toBeLessThan(10 * 60_000);
    await page.getByText("Too few reports yet to draw a line").waitFor();
    const top = (await api("GET", "/api/v1/stats/top-mods")).body as any[];
    const topTable = page.getByRole("table", { name: "Mods by the number of live servers running them" });
    await until("the top mods", async () => (await topTable.getByRole("row").count()) === top.length + 1);
    await look(page, "stats");

    // A community with a server: its page shows the server and its players.
    const community = (await api("POST", "/api/v1/communities", token, { name: "Bravo Group", description: "Milsim on Sundays" })).body;
    expect((await api("POST", `/api/v1/game-servers/${bravo.id}/community`, token, { community_id: community.id })).status).toBe(204);
    const job = (await api("POST", "/api/v1/jobs/game-servers", adminToken, {})).body.job_id;
    await until("the scan", async () => ["succeeded", "failed"].includes((await api("GET", `/api/v1/jobs/${job}`, adminToken)).body.status));
    await page.goto(`${base}/communities/${community.slug}`);
    await page.getByRole("heading", { name: "Bravo Group", level: 1 }).waitFor();
    await page.getByRole("table", { name: "Bravo Group's servers online now" }).getByRole("link", { name: "Bravo Milsim Training" }).waitFor();
    const cpoints = (await api("GET", `/api/v1/stats/community-players/${community.id}?days=1`)).body as any[];
    expect(cpoints.length).toBeGreaterThan(0);
    await until("the community chart", async () => (await page.locator(`figure[data-points="${cpoints.length}"] canvas`).count()) === 1);
    await look(page, "community");
    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);

  test("deploys: register an SFTP server, test it, deploy a list and watch it succeed, a failing deploy with its error; a collaborator's deploy request approved by the owner", async () => {
    const reg = async (email: string, name: string) => {
      const r = await api("POST", "/api/v1/auth/register", undefined, { email, password: "a good password", display_name: name });
      await api("POST", `/api/v1/admin/users/${r.body.user_id}/approve`, adminToken);
      return (await api("POST", "/api/v1/auth/login", undefined, { email, password: "a good password" })).body.token as string;
    };
    const opToken = await reg("operator@example.com", "Operator");
    const crewToken = await reg("crew@example.com", "Crew");
    const list = (await api("POST", "/api/v1/lists", opToken, { name: "Sunday op", is_public: false })).body;
    await api("POST", `/api/v1/lists/${list.id}/mods`, opToken, { workshop_id: SMALL.chainA, with_dependencies: true });
    const config = JSON.stringify({ bindAddress: "0.0.0.0", bindPort: 2001, game: { name: "Sunday", scenarioId: "{ECC61978EDCC2B5A}Missions/23_Campaign.conf", mods: [{ modId: SMALL.cycleX, name: "Cycle X" }] } }, null, 2);
    const path = sshd.writeFile("sunday.json", config);

    const { page, errors, ctx } = await context();
    page.on("dialog", (d) => void d.accept());
    await signIn(page, "operator@example.com", "a good password");
    await page.getByRole("link", { name: "My servers", exact: true }).click();
    await page.getByText("No servers yet").waitFor();
    await page.getByLabel("Server name").fill("Sunday server");
    await page.getByLabel("Config file").fill(path);
    await page.getByLabel("Linked list").selectOption({ label: "Sunday op" });
    await page.getByLabel("Host").fill(sshd.host);
    await page.getByLabel("Port").fill(String(sshd.port));
    await page.getByLabel("User name").fill(sshd.username);
    await page.getByLabel("Password").fill(sshd.password);
    await look(page, "my-servers");
    await page.getByRole("button", { name: "Register server" }).click();
    await page.getByRole("heading", { name: "Sunday server", level: 1 }).waitFor();
    await page.getByText(/credentials set \w/).waitFor();
    // The password is stored, never shown: it is nowhere on the page.
    expect(await page.content()).not.toContain(sshd.password);

    // Test: it reads the config's mods as they are now.
    await page.getByRole("button", { name: "Test the connection" }).click();
    await page.getByText("Connected. The config names 1 mod now: Cycle X").waitFor();
    // Deploy the linked list: queued → running → success, then the file holds the list.
    await page.getByRole("button", { name: "Deploy now" }).click();
    await page.getByText(/^Deployed 4 mods/).waitFor();
    expect(await page.getByRole("list", { name: "Deployment progress" }).getByRole("listitem").last().textContent()).toBe("✓Success: done");
    const written = JSON.parse(sshd.readFile("sunday.json"));
    expect(written.game.mods.map((m: any) => m.modId).sort()).toEqual([SMALL.chainA, SMALL.chainB, SMALL.chainC, SMALL.core].sort());
    expect(written.bindPort).toBe(2001); // everything else kept
    const historyTable = page.getByRole("table", { name: "Tests and deployments of this server, newest first" });
    await historyTable.getByText("4 mods (first deploy)").waitFor();
    await look(page, "my-server");

    // A deploy that fails says why: the config file is gone.
    await page.getByLabel("Config file").fill(path.replace("sunday.json", "missing/sunday.json"));
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Saved.").waitFor();
    await page.getByRole("button", { name: "Deploy now" }).click();
    const failure = page.getByRole("alert").filter({ hasText: "missing" });
    await failure.waitFor();
    const deps = (await api("GET", `/api/v1/servers/${(page.url().match(/my-servers\/([^/?]+)/) ?? [])[1]}/deployments`, opToken)).body as any[];
    expect(deps[0]).toMatchObject({ kind: "deploy", status: "failed" });
    expect(await failure.textContent()).toBe(deps[0].error_message);
    await historyTable.getByText(deps[0].error_message).waitFor();

    // The approval gate: Crew (a collaborator who may deploy) deploys the list to Crew's own
    // server; the request waits; Operator approves it in the list's settings; it deploys.
    await api("POST", `/api/v1/lists/${list.id}/collaborators`, opToken, { search: "crew@example.com", can_add: false, can_remove: false, can_deploy: true });
    await page.goto(`${base}/lists/${list.id}?tab=settings`);
    await page.getByLabel("Collaborators' deploys of this list wait for an owner's approval").check();
    await page.getByText("No deploy request is waiting.").waitFor();
    // The box is ticked at once and saved in the background: Crew deploys only once it is saved.
    await until("the approval gate saved", async () => (await api("GET", `/api/v1/lists/${list.id}`, opToken)).body.require_deploy_approval === true);
    const crewPath = sshd.writeFile("crew.json", config);
    const crewServer = (await api("POST", "/api/v1/servers", crewToken, { name: "Crew server", connection_type: "sftp", file_path: crewPath, linked_list_id: list.id })).body;
    await api("POST", `/api/v1/servers/${crewServer.id}/credentials`, crewToken, { host: sshd.host, port: sshd.port, username: sshd.username, password: sshd.password });
    const crew = await context();
    await signIn(crew.page, "crew@example.com", "a good password");
    // The page's lists held back until the request is seen waiting: the deploy box works before
    // they arrive. (The pre-flight alone enables Deploy now; the lists used to be the select's
    // only options, so a click before them failed the form's required check without a word and
    // nothing was sent: on a busy machine the pre-flight's answer came first often enough.)
    let releaseLists!: () => void;
    const listsHeld = new Promise<void>((r) => (releaseLists = r));
    await crew.page.route("**/api/v1/lists/mine", async (route) => {
      await listsHeld;
      await route.continue();
    });
    await crew.page.goto(`${base}/my-servers/${crewServer.id}`);
    await crew.page.getByRole("button", { name: "Deploy now" }).waitFor();
    expect(await crew.page.getByLabel("List to deploy").inputValue()).toBe(list.id);
    await crew.page.getByRole("button", { name: "Deploy now" }).click();
    await crew.page.getByText("your request is waiting").waitFor();
    releaseLists();
    await crew.page.getByRole("option", { name: "Sunday op (linked)" }).waitFor({ state: "attached" });
    expect(await crew.page.getByLabel("List to deploy").inputValue()).toBe(list.id);
    await crew.page.getByRole("table", { name: "Deploy requests for this server" }).getByText("waiting for the list's owner").waitFor();

    await page.reload();
    await page.getByText("Crew asks to deploy this list to Crew server").waitFor();
    await look(page, "list-deploy-approval");
    await page.getByLabel("Note to Crew").fill("Go ahead");
    await page.getByRole("button", { name: "Approve the deploy to Crew server" }).click();
    await page.getByText("No deploy request is waiting.").waitFor();
    await until("the approved deploy", async () => JSON.parse(sshd.readFile("crew.json")).game.mods.length === 4);
    await crew.page.reload();
    await crew.page.getByRole("table", { name: "Deploy requests for this server" }).getByRole("cell", { name: "approved" }).waitFor();
    await crew.page.getByRole("cell", { name: "Go ahead" }).waitFor();

    // A panel server: its three credential fields, a test through the panel's API, a deploy.
    const panel = startFakePanel({ files: { "/config.json": SAMPLE_SERVER_JSON } });
    try {
      await page.goto(`${base}/my-servers`);
      await page.getByLabel("Server name").fill("Panel server");
      await page.getByLabel("Connection").selectOption("panel");
      await page.getByLabel("Config file").fill("/config.json");
      await page.getByLabel("Linked list").selectOption({ label: "Sunday op" });
      await page.getByLabel("Panel address").fill(panel.url);
      await page.getByLabel("Client API key").fill(panel.apiKey);
      await page.getByLabel("Server identifier").fill(panel.serverUuid);
      await page.getByRole("button", { name: "Register server" }).click();
      await page.getByRole("heading", { name: "Panel server", level: 1 }).waitFor();
      expect(await page.content()).not.toContain(panel.apiKey);
      await page.getByRole("button", { name: "Test the connection" }).click();
      await page.getByText(/^Connected\. The config names 1 mod now/).waitFor();
      await page.getByRole("button", { name: "Deploy now" }).click();
      await page.getByText(/^Deployed 4 mods/).waitFor();
      expect(JSON.parse(panel.files.get("/config.json")!).game.mods).toHaveLength(4);
    } finally {
      await panel.stop();
    }
    for (const c of [{ errors, ctx }, crew]) {
      expect(c.errors).toEqual([]);
      await c.ctx.close();
    }
  }, 120_000);

  test("deploys with a restart: restart settings, a deploy that waits for an empty server, 'restart now instead', the phases up to verified; a server that does not come back is rolled back and the error shown", async () => {
    const r = await api("POST", "/api/v1/auth/register", undefined, { email: "restarter@example.com", password: "a good password", display_name: "Restarter" });
    await api("POST", `/api/v1/admin/users/${r.body.user_id}/approve`, adminToken);
    const token = (await api("POST", "/api/v1/auth/login", undefined, { email: "restarter@example.com", password: "a good password" })).body.token as string;
    const list = (await api("POST", "/api/v1/lists", token, { name: "Restart op", is_public: false })).body;
    await api("POST", `/api/v1/lists/${list.id}/mods`, token, { workshop_id: SMALL.chainA, with_dependencies: true });
    const panel = startFakePanel({ files: { "/config.json": SAMPLE_SERVER_JSON } });
    const a2s = await startA2sResponder({ name: "Everon", map: "Everon", players: 3, maxPlayers: 64, version: "1.2.1", gamePort: 2001 }, "direct");
    try {
      const srv = (
        await api("POST", "/api/v1/servers", token, {
          name: "Everon PvE",
          connection_type: "panel",
          file_path: "/config.json",
          linked_list_id: list.id,
          query_address: `127.0.0.1:${a2s.port}`,
          restart: "now",
          verify_timeout_s: 60,
        })
      ).body;
      await api("POST", `/api/v1/servers/${srv.id}/credentials`, token, { panel_url: panel.url, api_key: panel.apiKey, server_uuid: panel.serverUuid });
      const { page, errors, ctx } = await context();
      await signIn(page, "restarter@example.com", "a good password");
      await page.goto(`${base}/my-servers/${srv.id}`);
      await page.getByRole("heading", { name: "Everon PvE", level: 1 }).waitFor();
      expect(await page.getByLabel("After a deploy").inputValue()).toBe("now");

      // Deploy, restarting when the server is empty: three players are on, so it waits.
      const progress = page.getByRole("list", { name: "Deployment progress" });
      const current = () => progress.locator('[aria-current="step"] .step-label').textContent();
      // After the signal the panel says "starting" until the page has shown the verifying phase
      // (the page polls once a second: a phase of a fixed 1.5 s could pass between two polls).
      panel.power.bootMs = 3_600_000;
      await page.getByLabel("Then").selectOption("when_empty");
      await page.getByRole("button", { name: "Deploy now" }).click();
      await page.getByText(/Waiting for the server to empty: 3 players on \(A2S\)\. Waited \d+ s of 1 h; restarts anyway at/).waitFor();
      expect(await current()).toBe("Waiting for an empty server");
      expect(panel.signals).toEqual([]);
      await look(page, "my-server-waiting");
      await page.getByRole("button", { name: "Restart now instead" }).click();
      await until("the verifying phase on the page", async () => (await current().catch(() => null)) === "Verifying", 15_000);
      await page.getByText(/Waiting for it to answer/).waitFor();
      panel.power.bootMs = 0; // seen: the server is up
      await page.getByText(/^Deployed 4 mods; the server restarted at .+ and answered again at .+ \(verified\)\.$/).waitFor({ timeout: 20_000 });
      expect(await progress.getByRole("listitem").last().textContent()).toBe("✓Verified: done");
      expect(panel.signals).toEqual(["restart"]);
      await page.getByRole("table", { name: "Tests and deployments of this server, newest first" }).getByText(/restarted, verified/).waitFor();
      await look(page, "my-server-verified");

      // A server that does not come back: 10 s to answer (set in the settings), then the
      // previous config goes back, a second restart, and the server answers again.
      a2s.mode = "silent";
      await page.getByLabel("Time to come back (seconds)").fill("10");
      await page.getByRole("button", { name: "Save settings" }).click();
      await page.getByText("Saved.").waitFor();
      await page.getByLabel("Then").selectOption("");
      const before = panel.files.get("/config.json");
      await api("POST", `/api/v1/lists/${list.id}/mods`, token, { workshop_id: SMALL.cycleX }); // something to change
      await page.getByRole("button", { name: "Deploy now" }).click();
      await until("the rollback on the page", async () => (await current().catch(() => null)) === "Rolling back", 30_000);
      // Seen rolling back: the server answers again (it stays silent until then, so the phase
      // cannot pass between two polls of the page; the rollback waits 10 s for it).
      a2s.mode = "direct";
      const alert = page.getByRole("alert").filter({ hasText: "Rolled back: the server runs the previous mods." });
      await alert.waitFor({ timeout: 30_000 });
      expect(await alert.textContent()).toMatch(
        new RegExp(`^Rolled back: the server runs the previous mods\\. The deploy failed and nothing of it stayed: server did not answer on 127\\.0\\.0\\.1:${a2s.port} within 10 s after the restart; the previous config was put back and the server answered again at .+\\.$`),
      );
      expect(panel.files.get("/config.json")).toBe(before); // the first deploy's file, restored byte for byte
      expect(panel.signals).toEqual(["restart", "restart", "restart"]);
      await page.getByRole("table", { name: "Tests and deployments of this server, newest first" }).getByText(/^Rolled back: the server runs the previous mods \(server did not answer/).waitFor();
      await look(page, "my-server-rolled-back");
      expect(errors).toEqual([]);
      await ctx.close();
    } finally {
      await panel.stop();
      a2s.close();
    }
  }, 120_000);

  test("pre-flight for the target server: the deploy box shows a scenario_missing error with its fix, the fix applied from the page, the deploy then allowed", async () => {
    // A new version of the missions mod ships a scenario of its own (not a base-game one).
    const frontline = "{AAAA0000BBBB1111}Missions/Frontline.conf";
    fake.publishVersion(SMALL.missions, {
      version: "1.2.0",
      createdAt: new Date().toISOString(),
      scenarios: [{ name: "Frontline Everon", gameId: frontline, gameMode: "Conflict", playerCount: 64, description: "Front" }],
    });
    expect((await api("POST", "/api/v1/jobs/scraper/detail", adminToken, { workshop_id: SMALL.missions })).status).toBe(202);
    await until("the missions mod at 1.2.0", async () => (await api("GET", `/api/v1/mods/${SMALL.missions}`)).body?.version === "1.2.0");
    const r = await api("POST", "/api/v1/auth/register", undefined, { email: "preflight@example.com", password: "a good password", display_name: "Preflight" });
    await api("POST", `/api/v1/admin/users/${r.body.user_id}/approve`, adminToken);
    const token = (await api("POST", "/api/v1/auth/login", undefined, { email: "preflight@example.com", password: "a good password" })).body.token as string;
    const list = (await api("POST", "/api/v1/lists", token, { name: "Frontline op", is_public: false })).body;
    await api("POST", `/api/v1/lists/${list.id}/mods`, token, { workshop_id: SMALL.core, with_dependencies: true });
    const config = JSON.stringify({ bindAddress: "0.0.0.0", bindPort: 2001, game: { name: "Frontline", scenarioId: frontline, mods: [] } }, null, 2);
    const path = sshd.writeFile("frontline.json", config);
    const srv = (await api("POST", "/api/v1/servers", token, { name: "Frontline server", connection_type: "sftp", file_path: path, linked_list_id: list.id })).body;
    await api("POST", `/api/v1/servers/${srv.id}/credentials`, token, { host: sshd.host, port: sshd.port, username: sshd.username, password: sshd.password });

    const { page, errors, ctx } = await context();
    await signIn(page, "preflight@example.com", "a good password");
    await page.goto(`${base}/my-servers/${srv.id}`);
    await page.getByRole("heading", { name: "Frontline server", level: 1 }).waitFor();
    // The connection test reads the config: its scenario comes from a mod the list lacks.
    await page.getByRole("button", { name: "Test the connection" }).click();
    await page.getByText(/^Connected\./).waitFor();
    const findings = page.getByRole("list", { name: "What stops the deploy" });
    const missing = findings.getByRole("listitem").filter({ hasText: "Frontline Everon" });
    await missing.waitFor();
    expect(await missing.textContent()).toContain("comes from Conflict Missions");
    await page.getByText(/^1 problem stops the deploy to Frontline server/).waitFor();
    expect(await page.getByRole("button", { name: "Deploy now" }).isDisabled()).toBe(true);
    await page.getByLabel("What players download").waitFor();
    await look(page, "my-server-preflight");

    // The fix from the page: the mod is added to the list, the check passes, the deploy goes through.
    await missing.getByRole("button", { name: "Add Conflict Missions" }).click();
    await page.getByText(/^Pre-flight for Frontline server: nothing stops this deploy/).waitFor();
    expect((await api("GET", `/api/v1/lists/${list.id}`, token)).body.items.map((i: any) => i.workshop_id)).toContain(SMALL.missions);
    await page.getByRole("button", { name: "Deploy now" }).click();
    await page.getByText(/^Deployed \d+ mods/).waitFor();
    expect(JSON.parse(sshd.readFile("frontline.json")).game.mods.map((m: any) => m.modId)).toContain(SMALL.missions);

    // The list's pre-flight tab checks against the server too.
    await page.goto(`${base}/lists/${list.id}?tab=check`);
    await page.getByLabel("Check against server…").selectOption({ label: "Frontline server" });
    await page.getByText(/^Pre-flight for Frontline server: nothing stops this deploy/).waitFor();
    await look(page, "list-check-server");
    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);

  test("webhooks and notifications: a signed webhook created (secret shown once), tested against the receiver, its deliveries in the log, re-enabled after auto-disable; notifications read and the badge updated; preferences saved", async () => {
    const reg = async (email: string, name: string) => {
      const r = await api("POST", "/api/v1/auth/register", undefined, { email, password: "a good password", display_name: name });
      await api("POST", `/api/v1/admin/users/${r.body.user_id}/approve`, adminToken);
      return (await api("POST", "/api/v1/auth/login", undefined, { email, password: "a good password" })).body.token as string;
    };
    const ownerToken = await reg("hooks@example.com", "Hooks");
    const mateToken = await reg("mate@example.com", "Mate");
    const list = (await api("POST", "/api/v1/lists", ownerToken, { name: "Hooked", is_public: false })).body;
    await api("POST", `/api/v1/lists/${list.id}/collaborators`, ownerToken, { search: "mate@example.com", can_add: true, can_remove: true, can_deploy: false });
    rx.reset();

    const { page, errors, ctx } = await context();
    await signIn(page, "hooks@example.com", "a good password");
    await page.goto(`${base}/settings`);
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    await page.getByLabel("Webhook name").fill("Our bot");
    await page.getByLabel("Endpoint URL").fill(rx.url);
    await page.getByRole("button", { name: "Create webhook" }).click();
    const secret = (await page.getByTestId("webhook-secret").textContent())!;
    expect(secret).toStartWith("whsec_");
    await look(page, "settings-webhooks");

    // The test: the receiver gets a request signed with that secret; the page shows the answer.
    await page.getByRole("button", { name: "Send a test to Our bot" }).click();
    await page.getByText(/^Test delivered: the endpoint answered 204/).waitFor();
    const [got] = await rx.waitForRequests(1);
    expect((await verifyStandardWebhook(got!.headers, got!.body, secret)).ok).toBe(true);
    // The secret is shown once: after a reload it is gone.
    await page.reload();
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    expect(await page.getByTestId("webhook-secret").count()).toBe(0);

    // A change by the collaborator: a delivery in the log, and a notification for the owner.
    await api("POST", `/api/v1/lists/${list.id}/mods`, mateToken, { workshop_id: SMALL.cycleX });
    await rx.waitForRequests(2);
    const hookId = ((await api("GET", "/api/v1/settings/webhooks", ownerToken)).body as any[])[0].id;
    await until("a delivery in the log", async () => ((await api("GET", `/api/v1/settings/webhooks/${hookId}/deliveries`, ownerToken)).body as any[]).length > 0);
    await page.reload();
    await page.getByText("Delivery log").click();
    const log = page.getByRole("table", { name: "Deliveries of Our bot, newest first" });
    await log.getByRole("cell", { name: "mod_added" }).first().waitFor();
    await log.getByRole("cell", { name: "204 ok" }).first().waitFor();

    // After twenty failures in a row the service switches a webhook off; the owner turns it back on.
    const db = new Database(join(dir, "data", "loadout.db"));
    db.exec("PRAGMA busy_timeout = 5000");
    db.query("UPDATE webhooks SET enabled = 0, consecutive_failures = 20, disabled_at = ? WHERE id = ?").run(Date.now(), hookId);
    db.close();
    await page.reload();
    await page.getByText("after 20 failed deliveries in a row").waitFor();
    await look(page, "settings-webhook-disabled");
    await page.getByRole("button", { name: "Turn it back on" }).click();
    await until("enabled again", async () => ((await api("GET", "/api/v1/settings/webhooks", ownerToken)).body as any[])[0].enabled === true);
    await page.getByText("after 20 failed deliveries in a row").waitFor({ state: "detached" });

    // Notifications: the badge counts the unread; reading updates it.
    const unread = (await api("GET", "/api/v1/notifications/unread-count", ownerToken)).body.count as number;
    expect(unread).toBeGreaterThan(0);
    await page.reload();
    await page.getByRole("link", { name: `Notifications, ${unread} unread` }).click();
    await page.getByRole("heading", { name: "Notifications" }).waitFor();
    await page.getByRole("link", { name: "Open the list" }).first().waitFor();
    await look(page, "notifications");
    await page.getByRole("button", { name: "Mark all read" }).click();
    await page.getByRole("link", { name: "Notifications, 0 unread" }).waitFor();
    expect((await api("GET", "/api/v1/notifications/unread-count", ownerToken)).body.count).toBe(0);
    // Preferences: no more notices for added mods.
    await page.getByLabel("a mod is added").uncheck();
    await until("the preference saved", async () => (await api("GET", "/api/v1/settings/notifications", ownerToken)).body.events.mod_added === false);
    expect(errors).toEqual([]);
    await ctx.close();
  }, 120_000);
});

describe("a new install in a real browser", () => {
  test("the first account becomes the admin; the empty catalog shows the crawl's error in words, is retried by the admin and fills", async () => {
    // Its own binary on an empty data dir: no LOADOUT_ADMIN_EMAIL, schedules on (a new install
    // queues its first crawl at start), and a workshop that refuses the client at first.
    const workshop = startFakeWorkshop({ mods: smallCatalog() });
    workshop.forbidden = true;
    const fresh = await binaryInFreshFolder();
    const started = await startBinary(fresh.bin, fresh.dir, {
      LOADOUT_DATA_DIR: join(fresh.dir, "data"),
      LOADOUT_WORKSHOP_URL: workshop.url,
      LOADOUT_WORKSHOP_RPS: "1000",
      LOADOUT_REGISTRATION: "approval",
      LOADOUT_SCHEDULES: "on",
      LOADOUT_RATE_LIMIT_ANON: "0",
      LOADOUT_RATE_LIMIT_USER: "0",
    });
    const { ctx, page, errors } = await context();
    try {
      const health = async () => (await (await fetch(started.base + "/api/v1/health")).json()) as any;
      await until("the first crawl's failure", async () => (await health()).sources.workshop.last_error);

      await page.goto(started.base + "/register");
      await page.getByText("This Loadout has no admin yet: the account you create now becomes its admin.").waitFor();
      await look(page, "first-run-register");
      await page.getByLabel("Display name").fill("Founder");
      await page.getByLabel("E-mail", { exact: true }).fill("founder@example.com");
      await page.getByLabel("Password", { exact: true }).fill("founder password");
      await page.getByRole("button", { name: "Create account" }).click();
      await page.getByRole("heading", { name: "You are this Loadout's admin" }).waitFor();
      await look(page, "first-run-admin");

      await page.getByRole("link", { name: "Browse the catalog" }).click();
      await page.getByRole("heading", { name: "The catalog is empty" }).waitFor();
      await page.getByText(/The last crawl failed .*: the workshop refused the request with HTTP 403/).waitFor();
      await look(page, "first-run-empty-catalog-failed");
      workshop.forbidden = false;
      await page.getByRole("button", { name: "Retry the crawl" }).click();
      // The crawl runs; the catalog fills without a reload.
      await page.getByRole("list", { name: "Mods" }).waitFor({ timeout: 60_000 });
      expect((await health()).sources.workshop.last_error).toBeNull();

      // A second account is an ordinary one, waiting for the admin's approval.
      const other = await context();
      await other.page.goto(started.base + "/register");
      await other.page.getByRole("heading", { name: "Create an account" }).waitFor();
      expect(await other.page.getByText("becomes its admin").count()).toBe(0);
      await other.page.getByLabel("Display name").fill("Second");
      await other.page.getByLabel("E-mail", { exact: true }).fill("second@example.com");
      await other.page.getByLabel("Password", { exact: true }).fill("second password");
      await other.page.getByRole("button", { name: "Create account" }).click();
      await other.page.getByRole("heading", { name: "Waiting for approval" }).waitFor();
      expect(other.errors).toEqual([]);
      await other.ctx.close();
      expect(errors).toEqual([]);
    } finally {
      await ctx.close();
      started.proc.kill();
      workshop.stop();
      rmSync(fresh.dir, { recursive: true, force: true });
    }
  }, 180_000);
});
