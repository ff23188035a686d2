// Webhooks and notifications end to end: the real app on a real SQLite file, a real local
// webhook receiver, the real job queue (drained by hand with a test clock).
// Long on purpose: one shared receiver and app serve every webhook and notification case; split by
// topic it would start the same peers in several files.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { createTestApp, TestClock, type TestApp, type TestUser } from "../../../test/helpers";
import { startReceiver, type Receiver } from "../../../test/fakes/receiver";
import { verifyStandardWebhook } from "../../../test/fakes/receiver-verify";
import { newId } from "../../shared/ids";
import { lists, listItems } from "../lists/tables";
import { listOwners } from "../collaboration/tables";
import { mods } from "../catalog/tables";
import { jobs } from "../../jobs/tables";
import { recordEvent, type EventKind } from "../../outbox/outbox";
import { webhooks } from "./tables";
import { eventOutbox } from "../../outbox/tables";
import { triggerDispatch } from "./jobs";
import { DELIVERY_JOB, DISPATCH_JOB, dispatchPending, yieldToEventLoop } from "./dispatch";
import { AUTO_DISABLE_AFTER, RETRY_DELAYS_MS } from "./delivery";
import { DISCORD_LIMITS } from "./render";
import { recordModUpdated } from "./mod-updated";
import { EVENT_KINDS } from "./kinds";

let t: TestApp;
let rx: Receiver;
let clock: TestClock;
let owner: TestUser;
let coOwner: TestUser;
let outsider: TestUser;

function seedList(ownerId: string, name = "Milsim", coOwnerIds: string[] = []): string {
  const id = newId();
  const now = clock.now();
  t.deps.db
    .insert(lists)
    .values({ id, owner_id: ownerId, name, share_token: crypto.randomUUID(), suggestion_token: crypto.randomUUID(), created_at: now, updated_at: now })
    .run();
  for (const u of coOwnerIds) t.deps.db.insert(listOwners).values({ list_id: id, user_id: u, added_at: now }).run();
  return id;
}

function emit(kind: EventKind, listId: string | null, data: Record<string, unknown> = {}, actorId: string | null = null): string {
  return t.deps.db.transaction((tx) => recordEvent(tx, { kind, listId, actorId, data, at: clock.now() }));
}

/** Runs the dispatcher and every due job. */
async function flush(): Promise<void> {
  triggerDispatch(t.deps);
  // Only the events feature's jobs: adding an unknown mod also queues a catalog scrape.
  await t.deps.jobs.drain({ types: [DISPATCH_JOB, DELIVERY_JOB] });
}

async function createHook(user: TestUser, body: Record<string, unknown>) {
  const res = await t.req("POST", "/api/v1/settings/webhooks", { user, body: { url: rx.url, ...body } });
  expect(res.status).toBe(200);
  return res.body as { id: string; secret?: string; [k: string]: unknown };
}

function deliveryJobs() {
  return t.deps.db.select().from(jobs).where(eq(jobs.type, DELIVERY_JOB)).all();
}

beforeAll(async () => {
  clock = new TestClock(Date.now());
  t = await createTestApp({ env: { LOADOUT_ALLOW_PRIVATE_URLS: "true" }, clock });
  rx = await startReceiver();
  owner = await t.createUser({ display_name: "Owner" });
  coOwner = await t.createUser({ display_name: "Co" });
  outsider = await t.createUser({ display_name: "Outsider" });
});

afterAll(async () => {
  rx.stop();
  await t.close();
});

afterEach(async () => {
  // Each test starts with an empty receiver, no webhooks and no delivery jobs.
  await flush();
  rx.reset();
  t.deps.db.delete(webhooks).run();
  t.deps.db.delete(jobs).run();
});

describe("URL safety", () => {
  test("a webhook to 127.0.0.1 is refused by default", async () => {
    const strict = await createTestApp();
    try {
      const u = await strict.createUser();
      for (const url of ["http://127.0.0.1:9/hook", "http://localhost/x", "http://[::1]/", "http://169.254.169.254/", "http://10.0.0.1/"]) {
        const res = await strict.req("POST", "/api/v1/settings/webhooks", { user: u, body: { url, type: "custom", scope: "global" } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: "url not allowed", code: "request.url_not_allowed" });
      }
      const ftp = await strict.req("POST", "/api/v1/settings/webhooks", { user: u, body: { url: "ftp://example.com/", type: "chat" } });
      expect(ftp.body).toEqual({ error: "url not allowed", code: "request.url_not_allowed" });
    } finally {
      await strict.close();
    }
  });

  test("the URL is checked again at delivery", async () => {
    const list = seedList(owner.id);
    await createHook(owner, { type: "custom", scope: "list", list_id: list });
    t.deps.config.LOADOUT_ALLOW_PRIVATE_URLS = false;
    try {
      emit("mod_added", list, { workshop_id: "5965550F24A0C152", mod_name: "ACE" });
      await flush();
    } finally {
      t.deps.config.LOADOUT_ALLOW_PRIVATE_URLS = true;
    }
    expect(rx.requests).toHaveLength(0);
    const hooks = (await t.req("GET", "/api/v1/settings/webhooks", { user: owner })).body;
    const log = (await t.req("GET", `/api/v1/settings/webhooks/${hooks[0].id}/deliveries`, { user: owner })).body;
    expect(log[0]).toMatchObject({ success: false, error: "url not allowed", response_status: null, attempt: 1 });
  });

  test("redirects are not followed", async () => {
    const list = seedList(owner.id);
    const hook = await createHook(owner, { type: "custom", scope: "list", list_id: list });
    rx.script({ redirectTo: `http://127.0.0.1:${rx.port}/elsewhere` });
    const res = await t.req("POST", `/api/v1/settings/webhooks/${hook.id}/test`, { user: owner });
    expect(res.body).toMatchObject({ ok: false, status: 302 });
    expect(rx.requests.map((r) => r.path)).toEqual(["/hook"]);
  });

  test("a redirect to another host is never followed, for chat and custom webhooks, tested or delivered", async () => {
    const other = await startReceiver();
    try {
      const list = seedList(owner.id);
      for (const type of ["chat", "custom"] as const) {
        rx.reset();
        const hook = await createHook(owner, { type, scope: "list", list_id: list });
        for (const status of [302, 307, 308] as const) {
          rx.script({ redirectTo: other.url, status });
          const res = await t.req("POST", `/api/v1/settings/webhooks/${hook.id}/test`, { user: owner });
          expect(res.body).toMatchObject({ ok: false, status });
        }
        rx.script({ redirectTo: other.url, status: 307 });
        emit("mod_added", list, { workshop_id: "5965550F24A0C152", mod_name: "ACE" });
        await flush();
        const log = (await t.req("GET", `/api/v1/settings/webhooks/${hook.id}/deliveries`, { user: owner })).body;
        expect(log[0]).toMatchObject({ success: false, response_status: 307, error: "HTTP 307 (redirects are not followed)" });
        expect(rx.requests).toHaveLength(4);
        t.deps.db.delete(webhooks).run();
      }
      expect(other.requests).toEqual([]);
    } finally {
      other.stop();
    }
  });
});

describe("webhook CRUD", () => {
  test("custom webhook: secret shown once, validation, ownership", async () => {
    const list = seedList(owner.id);
    const created = await createHook(owner, { type: "custom", events: ["mod_added", "mod_removed"], scope: "list", list_id: list, name: "CI" });
    expect(created.secret).toMatch(/^whsec_/);
    expect(created).toMatchObject({ type: "custom", scope: "list", list_id: list, events: ["mod_added", "mod_removed"], enabled: true, name: "CI" });

    const all = await t.req("GET", "/api/v1/settings/webhooks", { user: owner });
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(1);
    expect(all.body[0].secret).toBeUndefined();
    expect(all.text).not.toContain(created.secret!);

    // chat webhooks have no secret; events default to every kind
    const chat = await createHook(owner, { type: "chat" });
    expect(chat.secret).toBeUndefined();
    expect(chat.events).toEqual([...EVENT_KINDS]);
    expect(chat.scope).toBe("global");

    const bad = await t.req("POST", "/api/v1/settings/webhooks", { user: owner, body: { url: rx.url, type: "custom", events: ["nope"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toStartWith("events");
    const noList = await t.req("POST", "/api/v1/settings/webhooks", { user: owner, body: { url: rx.url, type: "custom", scope: "list" } });
    expect(noList.body).toEqual({ error: "list_id: required when scope is list", code: "request.invalid" });
    const badType = await t.req("POST", "/api/v1/settings/webhooks", { user: owner, body: { url: rx.url, type: "slack" } });
    expect(badType.status).toBe(400);
    const notMine = await t.req("POST", "/api/v1/settings/webhooks", { user: outsider, body: { url: rx.url, type: "custom", scope: "list", list_id: list } });
    expect(notMine.status).toBe(403);
    const anon = await t.req("GET", "/api/v1/settings/webhooks");
    expect(anon.status).toBe(401);

    // others cannot see, change, test or delete it
    for (const [m, p] of [
      ["PUT", `/api/v1/settings/webhooks/${created.id}`],
      ["DELETE", `/api/v1/settings/webhooks/${created.id}`],
      ["POST", `/api/v1/settings/webhooks/${created.id}/test`],
      ["GET", `/api/v1/settings/webhooks/${created.id}/deliveries`],
    ] as const) {
      const r = await t.req(m, p, { user: outsider, body: m === "PUT" ? { events: ["mod_added"] } : undefined });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: "webhook not found", code: "webhook.not_found" });
    }

    const upd = await t.req("PUT", `/api/v1/settings/webhooks/${created.id}`, { user: owner, body: { events: ["mod_updated"], scope: "global" } });
    expect(upd.status).toBe(204);
    const after = (await t.req("GET", "/api/v1/settings/webhooks", { user: owner })).body.find((w: any) => w.id === created.id);
    expect(after).toMatchObject({ events: ["mod_updated"], scope: "global", list_id: null });

    const del = await t.req("DELETE", `/api/v1/settings/webhooks/${created.id}`, { user: owner });
    expect(del.status).toBe(204);
    expect((await t.req("GET", "/api/v1/settings/webhooks", { user: owner })).body).toHaveLength(1);
  });
});

describe("custom webhook delivery", () => {
  test("signed per Standard Webhooks, verified by an independent implementation", async () => {
    const list = seedList(owner.id, "Signed list");
    const hook = await createHook(owner, { type: "custom", scope: "list", list_id: list });
    const eventId = emit("mod_added", list, { workshop_id: "5965550F24A0C152", mod_name: "RHS" }, coOwner.id);
    await flush();
    expect(rx.requests).toHaveLength(1);
    const r = rx.requests[0];
    expect(r.headers.get("content-type")).toBe("application/json");
    expect(r.headers.get("webhook-id")).toBe(eventId);
    const verdict = await verifyStandardWebhook(r.headers, r.body, hook.secret!, { nowSeconds: Math.floor(clock.now() / 1000) });
    expect(verdict).toEqual({ ok: true });
    expect(await verifyStandardWebhook(r.headers, r.body.replace("RHS", "RHZ"), hook.secret!, { nowSeconds: Math.floor(clock.now() / 1000) })).toMatchObject({ ok: false });
    expect(r.json).toEqual({
      id: eventId,
      type: "mod_added",
      created_at: new Date(clock.now()).toISOString(),
      list: { id: list, name: "Signed list" },
      data: { workshop_id: "5965550F24A0C152", mod_name: "RHS" },
    });
    const log = (await t.req("GET", `/api/v1/settings/webhooks/${hook.id}/deliveries`, { user: owner })).body;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ event_id: eventId, event: "mod_added", attempt: 1, success: true, response_status: 204, error: null });
  });

  test("the signing secret is sealed at rest, and key rotation keeps deliveries verifiable", async () => {
    const list = seedList(owner.id, "Rotated list");
    const hook = await createHook(owner, { type: "custom", scope: "list", list_id: list });
    const stored = t.deps.db.select().from(webhooks).where(eq(webhooks.id, hook.id)).get()!;
    expect(stored.secret).not.toContain(hook.secret!);
    expect(stored.secret).not.toContain(hook.secret!.slice("whsec_".length));
    expect(stored.secret!.startsWith("v1.")).toBe(true);

    const { rotateCredentialKey } = await import("../servers/service");
    const oldKey = t.deps.secrets.credentialKey;
    const newKey = Buffer.alloc(32, 9);
    const r = rotateCredentialKey(t.deps, newKey);
    expect(r.webhooks_rotated).toBeGreaterThanOrEqual(1);
    t.deps.secrets.credentialKey = newKey; // what a restart with the new key does
    try {
      const eventId = emit("mod_added", list, { workshop_id: "5965550F24A0C152" });
      await flush();
      const req = rx.requests.find((x) => x.headers.get("webhook-id") === eventId)!;
      expect(await verifyStandardWebhook(req.headers, req.body, hook.secret!, { nowSeconds: Math.floor(clock.now() / 1000) })).toEqual({ ok: true });

      // A key that cannot open the secret: nothing is sent unsigned, the attempt records why.
      t.deps.secrets.credentialKey = Buffer.alloc(32, 3);
      const before = rx.requests.length;
      emit("mod_added", list, { workshop_id: "5965550F24A0C152" });
      await flush();
      expect(rx.requests.length).toBe(before);
      const log = (await t.req("GET", `/api/v1/settings/webhooks/${hook.id}/deliveries`, { user: owner })).body;
      expect(log[0].success).toBe(false);
      expect(log[0].error).toStartWith("cannot sign: ");
    } finally {
      t.deps.secrets.credentialKey = oldKey;
      rotateCredentialKey({ ...t.deps, secrets: { ...t.deps.secrets, credentialKey: newKey } }, oldKey);
    }
  });

  test("an event from a rolled-back transaction is never delivered", async () => {
    const list = seedList(owner.id);
    await createHook(owner, { type: "custom", scope: "list", list_id: list });
    expect(() =>
      t.deps.db.transaction((tx) => {
        recordEvent(tx, { kind: "mod_removed", listId: list, actorId: owner.id, data: { workshop_id: "AAAAAAAAAAAAAAAA" } });
        throw new Error("the change failed");
      }),
    ).toThrow("the change failed");
    expect(t.deps.db.select().from(eventOutbox).where(eq(eventOutbox.list_id, list)).all()).toHaveLength(0);
    await flush();
    expect(rx.requests).toHaveLength(0);
    const inbox = (await t.req("GET", "/api/v1/notifications", { user: owner })).body as any[];
    expect(inbox.filter((n) => n.list_id === list)).toHaveLength(0);
  });

  test("scope and events filter decide which webhooks get an event", async () => {
    const list = seedList(owner.id, "Scoped", [coOwner.id]);
    const other = seedList(owner.id, "Other");
    const ownerGlobal = await createHook(owner, { type: "custom", scope: "global", events: ["mod_removed"] });
    const coGlobal = await createHook(coOwner, { type: "custom", scope: "global", events: ["mod_removed"] });
    await createHook(owner, { type: "custom", scope: "list", list_id: other, events: ["mod_removed"] }); // other list
    await createHook(owner, { type: "custom", scope: "list", list_id: list, events: ["mod_added"] }); // other kind
    await createHook(outsider, { type: "custom", scope: "global" }); // not an owner of the list
    emit("mod_removed", list, { workshop_id: "5965550F24A0C152" });
    await flush();
    const secrets = [ownerGlobal.secret!, coGlobal.secret!];
    expect(rx.requests).toHaveLength(2);
    for (const r of rx.requests) {
      const ok = await Promise.all(secrets.map((s) => verifyStandardWebhook(r.headers, r.body, s, { nowSeconds: Math.floor(clock.now() / 1000) })));
      expect(ok.filter((v) => v.ok)).toHaveLength(1);
    }
  });

  test("retries after 500 on the schedule and records every attempt", async () => {
    const list = seedList(owner.id);
    const hook = await createHook(owner, { type: "custom", scope: "list", list_id: list });
    rx.script({ status: 500 }, { status: 503 });
    emit("mod_added", list, { workshop_id: "5965550F24A0C152" });
    await flush();
    expect(rx.requests).toHaveLength(1);
    const [job] = deliveryJobs();
    expect(job.status).toBe("queued");
    expect(job.run_at).toBe(clock.now() + RETRY_DELAYS_MS[0]);

    clock.advance(RETRY_DELAYS_MS[0] - 1);
    await t.deps.jobs.drain();
    expect(rx.requests).toHaveLength(1); // not due yet
    clock.advance(1);
    await t.deps.jobs.drain();
    expect(rx.requests).toHaveLength(2);
    expect(deliveryJobs()[0].run_at).toBe(clock.now() + RETRY_DELAYS_MS[1]);

    clock.advance(RETRY_DELAYS_MS[1]);
    await t.deps.jobs.drain();
    expect(rx.requests).toHaveLength(3);
    expect(deliveryJobs()[0].status).toBe("succeeded");
    // the same message id on every attempt, so receivers can deduplicate
    expect(new Set(rx.requests.map((r) => r.headers.get("webhook-id"))).size).toBe(1);

    const log = (await t.req("GET", `/api/v1/settings/webhooks/${hook.id}/deliveries`, { user: owner })).body;
    expect(log.map((d: any) => [d.attempt, d.success, d.response_status])).toEqual([
      [3, true, 204],
      [2, false, 503],
      [1, false, 500],
    ]);
    expect(log[2].next_retry_at).not.toBeNull();
    const after = (await t.req("GET", "/api/v1/settings/webhooks", { user: owner })).body[0];
    expect(after.consecutive_failures).toBe(0);
  });

  test("429 with Retry-After is honoured", async () => {
    const list = seedList(owner.id);
    await createHook(owner, { type: "chat", scope: "list", list_id: list });
    rx.script({ status: 429, retryAfter: 7 });
    emit("mod_added", list, { workshop_id: "5965550F24A0C152" });
    await flush();
    expect(rx.requests).toHaveLength(1);
    expect(deliveryJobs()[0].run_at).toBe(clock.now() + 7000);
    clock.advance(6999);
    await t.deps.jobs.drain();
    expect(rx.requests).toHaveLength(1);
    clock.advance(1);
    await t.deps.jobs.drain();
    expect(rx.requests).toHaveLength(2);
    expect(deliveryJobs()[0].status).toBe("succeeded");
  });

  test("gives up after 6 attempts", async () => {
    const list = seedList(owner.id);
    await createHook(owner, { type: "custom", scope: "list", list_id: list });
    rx.setDefault({ status: 500 });
    emit("mod_added", list, { workshop_id: "5965550F24A0C152" });
    await flush();
    for (const d of RETRY_DELAYS_MS) {
      clock.advance(d);
      await t.deps.jobs.drain();
    }
    clock.advance(24 * 3_600_000);
    await t.deps.jobs.drain();
    expect(rx.requests).toHaveLength(6);
    expect(deliveryJobs()[0]).toMatchObject({ status: "failed", attempts: 6 });
  });

  test(`${AUTO_DISABLE_AFTER} consecutive failures disable the webhook and notify its owner`, async () => {
    const list = seedList(owner.id, "Flaky");
    const hook = await createHook(owner, { type: "custom", scope: "list", list_id: list });
    rx.setDefault({ status: 500 });
    // 4 events × up to 6 attempts: the 20th failed attempt disables the webhook
    for (let i = 0; i < 4; i++) emit("mod_added", list, { workshop_id: "5965550F24A0C152", n: i });
    await flush();
    for (let round = 0; round < 6; round++) {
      clock.advance(3 * 3_600_000);
      await t.deps.jobs.drain();
    }
    expect(rx.requests).toHaveLength(AUTO_DISABLE_AFTER);
    const wh = (await t.req("GET", "/api/v1/settings/webhooks", { user: owner })).body.find((w: any) => w.id === hook.id);
    expect(wh).toMatchObject({ enabled: false, consecutive_failures: AUTO_DISABLE_AFTER });
    expect(wh.disabled_at).not.toBeNull();
    const inbox = (await t.req("GET", "/api/v1/notifications?unread=1", { user: owner })).body as any[];
    const notice = inbox.filter((n) => n.event === "webhook_disabled");
    expect(notice).toHaveLength(1);
    expect(notice[0].data).toMatchObject({ webhook_id: hook.id, consecutive_failures: AUTO_DISABLE_AFTER });

    // disabled: new events are not sent
    emit("mod_added", list, { workshop_id: "5965550F24A0C152" });
    await flush();
    expect(rx.requests).toHaveLength(AUTO_DISABLE_AFTER);

    // re-enabling clears the counter and delivery resumes
    rx.setDefault({ status: 204 });
    expect((await t.req("PUT", `/api/v1/settings/webhooks/${hook.id}`, { user: owner, body: { enabled: true } })).status).toBe(204);
    emit("mod_added", list, { workshop_id: "5965550F24A0C152" });
    await flush();
    expect(rx.requests).toHaveLength(AUTO_DISABLE_AFTER + 1);
    const again = (await t.req("GET", "/api/v1/settings/webhooks", { user: owner })).body.find((w: any) => w.id === hook.id);
    expect(again).toMatchObject({ enabled: true, consecutive_failures: 0 });
  });
});

describe("chat webhook", () => {
  test("Discord execute-webhook body within Discord's limits", async () => {
    const list = seedList(owner.id, "L".repeat(300));
    await createHook(owner, { type: "chat", scope: "list", list_id: list });
    const data: Record<string, unknown> = { workshop_id: "5965550F24A0C152", mod_name: "M".repeat(5000), reason: "R".repeat(9000) };
    for (let i = 0; i < 40; i++) data[`extra_${i}`] = "v".repeat(2000);
    emit("suggestion_created", list, data, coOwner.id);
    await flush();
    expect(rx.requests).toHaveLength(1);
    const body = rx.requests[0].json as any;
    expect(body.username).toBe("Loadout");
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.embeds).toHaveLength(1);
    const e = body.embeds[0];
    expect(e.title.length).toBeLessThanOrEqual(DISCORD_LIMITS.title);
    expect(e.description.length).toBeLessThanOrEqual(DISCORD_LIMITS.description);
    expect(e.fields.length).toBeLessThanOrEqual(DISCORD_LIMITS.fields);
    for (const f of e.fields) expect(f.value.length).toBeLessThanOrEqual(DISCORD_LIMITS.fieldValue);
    const total = e.title.length + e.description.length + (e.footer?.text.length ?? 0) + e.fields.reduce((n: number, f: any) => n + f.name.length + f.value.length, 0);
    expect(total).toBeLessThanOrEqual(DISCORD_LIMITS.embedTotal);
    expect(typeof e.color).toBe("number");
    expect(e.timestamp).toBe(new Date(clock.now()).toISOString());
    expect(e.url).toContain(`/api/v1/lists/${list}`);
    expect(rx.requests[0].headers.get("webhook-signature")).toBeNull();
  });

  test("the test endpoint sends a test event synchronously and reports the status", async () => {
    const hook = await createHook(owner, { type: "chat" });
    const ok = await t.req("POST", `/api/v1/settings/webhooks/${hook.id}/test`, { user: owner });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, status: 204, error: null });
    expect(rx.requests).toHaveLength(1);
    expect((rx.requests[0].json as any).embeds[0].title).toBe("Test event");

    rx.script({ status: 500 });
    const bad = await t.req("POST", `/api/v1/settings/webhooks/${hook.id}/test`, { user: owner });
    expect(bad.body).toMatchObject({ ok: false, status: 500, error: "HTTP 500" });
    const log = (await t.req("GET", `/api/v1/settings/webhooks/${hook.id}/deliveries`, { user: owner })).body;
    expect(log.map((d: any) => [d.event, d.success])).toEqual([
      ["test", false],
      ["test", true],
    ]);
    // tests never count towards auto-disable
    const wh = (await t.req("GET", "/api/v1/settings/webhooks", { user: owner })).body[0];
    expect(wh.consecutive_failures).toBe(0);
  });

  test("custom test event is signed", async () => {
    const hook = await createHook(owner, { type: "custom" });
    const res = await t.req("POST", `/api/v1/settings/webhooks/${hook.id}/test`, { user: owner });
    expect(res.body.ok).toBe(true);
    const r = rx.requests[0];
    expect((r.json as any).type).toBe("test");
    expect(await verifyStandardWebhook(r.headers, r.body, hook.secret!, { nowSeconds: Math.floor(clock.now() / 1000) })).toEqual({ ok: true });
  });
});

describe("notifications", () => {
  test("owners and co-owners are notified; inbox, unread filter, limit, read one, read all", async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const list = seedList(a.id, "Inbox list", [b.id]);
    emit("mod_added", list, { workshop_id: "5965550F24A0C152", mod_name: "ACE" }, a.id);
    emit("mod_removed", list, { workshop_id: "5965550F24A0C152", mod_name: "ACE" }, a.id);
    emit("version_changed", list, { workshop_id: "5965550F24A0C152", mod_name: "ACE", new_version: "1.2.3" }, b.id);
    await flush();
    await flush(); // a second run changes nothing (idempotent)

    for (const u of [a, b]) {
      const count = await t.req("GET", "/api/v1/notifications/unread-count", { user: u });
      expect(count.body).toEqual({ count: 3 });
    }
    expect((await t.req("GET", "/api/v1/notifications/unread-count", { user: outsider })).body).toEqual({ count: 0 });

    const inbox = await t.req("GET", "/api/v1/notifications", { user: a });
    expect(inbox.status).toBe(200);
    expect(inbox.body.map((n: any) => n.event)).toEqual(["version_changed", "mod_removed", "mod_added"]);
    const n0 = inbox.body[0];
    expect(Object.keys(n0).sort()).toEqual(["body", "created_at", "data", "event", "id", "list_id", "read", "title"]);
    expect(n0).toMatchObject({ list_id: list, read: false, title: "Version pinned in Inbox list" });
    expect(n0.body).toContain("1.2.3");
    expect(n0.data).toMatchObject({ new_version: "1.2.3" });

    expect((await t.req("GET", "/api/v1/notifications?limit=2", { user: a })).body).toHaveLength(2);
    expect((await t.req("GET", "/api/v1/notifications?limit=0", { user: a })).status).toBe(400);

    // read one: only your own
    expect((await t.req("PATCH", `/api/v1/notifications/${n0.id}/read`, { user: b })).status).toBe(404);
    expect((await t.req("PATCH", `/api/v1/notifications/${n0.id}/read`, { user: a })).status).toBe(204);
    expect((await t.req("GET", "/api/v1/notifications/unread-count", { user: a })).body).toEqual({ count: 2 });
    const unread = (await t.req("GET", "/api/v1/notifications?unread=1", { user: a })).body;
    expect(unread.map((n: any) => n.event)).toEqual(["mod_removed", "mod_added"]);
    expect((await t.req("GET", "/api/v1/notifications/unread-count", { user: b })).body).toEqual({ count: 3 });

    expect((await t.req("POST", "/api/v1/notifications/read-all", { user: a })).status).toBe(204);
    expect((await t.req("GET", "/api/v1/notifications/unread-count", { user: a })).body).toEqual({ count: 0 });
    expect((await t.req("GET", "/api/v1/notifications?unread=1", { user: a })).body).toEqual([]);
    expect((await t.req("GET", "/api/v1/notifications", { user: a })).body.every((n: any) => n.read)).toBe(true);
    expect((await t.req("GET", "/api/v1/notifications/unread-count")).status).toBe(401);
  });

  test("preferences default to true for every kind and silence notifications", async () => {
    const u = await t.createUser();
    const list = seedList(u.id, "Prefs");
    const get = await t.req("GET", "/api/v1/settings/notifications", { user: u });
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ events: Object.fromEntries(EVENT_KINDS.map((k) => [k, true])) });

    const put = await t.req("PUT", "/api/v1/settings/notifications", { user: u, body: { events: { mod_added: false, mod_updated: false } } });
    expect(put.status).toBe(204);
    const after = (await t.req("GET", "/api/v1/settings/notifications", { user: u })).body.events;
    expect(after).toMatchObject({ mod_added: false, mod_updated: false, mod_removed: true });

    emit("mod_added", list, { workshop_id: "5965550F24A0C152" });
    emit("mod_removed", list, { workshop_id: "5965550F24A0C152" });
    await flush();
    const inbox = (await t.req("GET", "/api/v1/notifications", { user: u })).body;
    expect(inbox.map((n: any) => n.event)).toEqual(["mod_removed"]);

    // turning it back on works for later events
    await t.req("PUT", "/api/v1/settings/notifications", { user: u, body: { events: { mod_added: true } } });
    emit("mod_added", list, { workshop_id: "5965550F24A0C152" });
    await flush();
    expect((await t.req("GET", "/api/v1/notifications", { user: u })).body.map((n: any) => n.event)).toEqual(["mod_added", "mod_removed"]);

    const bad = await t.req("PUT", "/api/v1/settings/notifications", { user: u, body: { events: { nonsense: true } } });
    expect(bad.status).toBe(400);
    const badType = await t.req("PUT", "/api/v1/settings/notifications", { user: u, body: { events: { mod_added: "no" } } });
    expect(badType.status).toBe(400);
  });

  test("deploy_request_decided also notifies the requester", async () => {
    const o = await t.createUser();
    const requester = await t.createUser();
    const list = seedList(o.id, "Deploys");
    emit("deploy_request_decided", list, { request_id: "r1", status: "approved", requester_id: requester.id, server_name: "EU1" }, o.id);
    emit("deploy_requested", list, { request_id: "r2", requester_id: requester.id }, requester.id);
    await flush();
    const mine = (await t.req("GET", "/api/v1/notifications", { user: requester })).body;
    expect(mine.map((n: any) => n.event)).toEqual(["deploy_request_decided"]);
    expect(mine[0].title).toBe("Deploy request approved");
    const owners = (await t.req("GET", "/api/v1/notifications", { user: o })).body;
    expect(owners.map((n: any) => n.event).sort()).toEqual(["deploy_request_decided", "deploy_requested"]);
  });

  test("unread-count is exempt from rate limiting", async () => {
    const u = await t.createUser();
    for (let i = 0; i < 1300; i++) {
      const r = await t.req("GET", "/api/v1/notifications/unread-count", { user: u });
      if (r.status !== 200) throw new Error(`request ${i} answered ${r.status}`);
    }
    const other = await t.req("GET", "/api/v1/notifications", { user: u });
    expect(other.status).toBe(200);
  });
});

describe("mod_updated from the catalog", () => {
  test("records one event per list containing the mod", async () => {
    const u = await t.createUser();
    const l1 = seedList(u.id, "One");
    const l2 = seedList(u.id, "Two");
    seedList(u.id, "Without");
    const now = clock.now();
    t.deps.db.insert(mods).values({ workshop_id: "ABCDEF0123456789", name: "Cool Mod", version: "1.0.1" }).run();
    for (const l of [l1, l2]) t.deps.db.insert(listItems).values({ list_id: l, workshop_id: "ABCDEF0123456789", position: 0, added_at: now }).run();
    const n = t.deps.db.transaction((tx) => recordModUpdated(tx, "ABCDEF0123456789", "1.0.0", "1.0.1", now));
    expect(n).toBe(2);
    await flush();
    const inbox = (await t.req("GET", "/api/v1/notifications", { user: u })).body as any[];
    expect(inbox.map((x) => [x.event, x.list_id]).sort()).toEqual([
      ["mod_updated", l1],
      ["mod_updated", l2],
    ].sort());
    expect(inbox[0].title).toBe("Cool Mod updated");
    expect(inbox[0].data).toMatchObject({ old_version: "1.0.0", new_version: "1.0.1", workshop_id: "ABCDEF0123456789" });
  });
});

describe("through the real list routes", () => {
  test("adding and removing a mod over HTTP notifies the owner and calls the webhook", async () => {
    const u = await t.createUser({ display_name: "Lister" });
    const created = await t.req("POST", "/api/v1/lists", { user: u, body: { name: "HTTP list", description: "", is_public: false } });
    expect(created.status).toBe(200);
    const listId = created.body.id as string;
    const hook = await createHook(u, { type: "custom", scope: "global", events: ["mod_added", "mod_removed"] });
    const add = await t.req("POST", `/api/v1/lists/${listId}/mods`, { user: u, body: { workshop_id: "5965550f24a0c152" } });
    expect(add.status).toBeLessThan(300);
    const del = await t.req("DELETE", `/api/v1/lists/${listId}/mods/5965550F24A0C152`, { user: u });
    expect(del.status).toBeLessThan(300);
    await flush();
    const inbox = (await t.req("GET", "/api/v1/notifications", { user: u })).body as any[];
    expect(inbox.map((n) => n.event)).toEqual(["mod_removed", "mod_added"]);
    expect(inbox[1].title).toBe("Mod added to HTTP list");
    expect(rx.requests.map((r) => (r.json as any).type).sort()).toEqual(["mod_added", "mod_removed"]);
    for (const r of rx.requests) {
      expect((r.json as any).list).toEqual({ id: listId, name: "HTTP list" });
      expect(await verifyStandardWebhook(r.headers, r.body, hook.secret!, { nowSeconds: Math.floor(clock.now() / 1000) })).toEqual({ ok: true });
    }
  });
});

describe("with the background worker running", () => {
  test("events are dispatched and delivered without anyone draining the queue", async () => {
    const live = await createTestApp({ env: { LOADOUT_ALLOW_PRIVATE_URLS: "true" } });
    const rx2 = await startReceiver();
    try {
      const u = await live.createUser();
      const created = await live.req("POST", "/api/v1/lists", { user: u, body: { name: "Live", description: "", is_public: false } });
      const hook = await live.req("POST", "/api/v1/settings/webhooks", { user: u, body: { url: rx2.url, type: "custom", scope: "global" } });
      expect(hook.status).toBe(200);
      live.deps.jobs.start();
      await live.req("POST", `/api/v1/lists/${created.body.id}/mods`, { user: u, body: { workshop_id: "5965550F24A0C152" } });
      const [r] = await rx2.waitForRequests(1, 10_000);
      expect((r.json as any).type).toBe("mod_added");
      expect(await verifyStandardWebhook(r.headers, r.body, hook.body.secret, { nowSeconds: Math.floor(live.clock.now() / 1000) })).toEqual({ ok: true });
      const count = (await live.req("GET", "/api/v1/notifications/unread-count", { user: u })).body.count;
      expect(count).toBe(1);
    } finally {
      rx2.stop();
      await live.close();
    }
  });
});

describe("a burst of events", () => {
  test("the dispatcher fans out in bounded batches and the server answers requests between them", async () => {
    const app = await createTestApp();
    try {
      const u = await app.createUser({ display_name: "Busy owner" });
      const co = await app.createUser({ display_name: "Busy co-owner" });
      const listId = newId();
      const now = app.clock.now();
      app.deps.db
        .insert(lists)
        .values({ id: listId, owner_id: u.id, name: "Busy", share_token: crypto.randomUUID(), suggestion_token: crypto.randomUUID(), created_at: now, updated_at: now })
        .run();
      app.deps.db.insert(listOwners).values({ list_id: listId, user_id: co.id, added_at: now }).run();
      // A busy moment: 400 list writes' events waiting at once.
      const N = 400;
      app.deps.db.transaction((tx) => {
        for (let i = 0; i < N; i++) recordEvent(tx, { kind: "mod_added", listId, actorId: u.id, data: { workshop_id: `${i}`.padStart(16, "0"), name: `Mod ${i}` }, at: now });
      });
      const pending = () => app.deps.sqlite.query("SELECT count(*) AS n FROM event_outbox WHERE dispatched_at IS NULL").get() as { n: number };

      // A real server on loopback: its answer needs the event loop (socket reads and writes).
      app.app.listen({ hostname: "127.0.0.1", port: 0 });
      const url = `http://127.0.0.1:${app.app.server!.port}/api/v1/health`;
      let turns = 0;
      let answered = false;
      let answeredAtTurn: number | null = null;
      let pendingWhenAnswered = -1;
      const run = dispatchPending(app.deps, {
        batchSize: 4,
        sliceMs: Number.POSITIVE_INFINITY, // batches by count only: no timing in this test
        yieldTurn: async () => {
          turns++;
          if (answered && answeredAtTurn === null) answeredAtTurn = turns;
          await yieldToEventLoop();
        },
      });
      // dispatchPending returned after its first batch: the rest waits for the event loop.
      expect(pending().n).toBe(N - 4);
      const health = await fetch(url);
      expect(health.status).toBe(200);
      answered = true;
      pendingWhenAnswered = pending().n;
      const result = await run;

      // The health check was answered while the dispatcher was between batches, with events
      // still waiting, and the dispatcher then finished the rest.
      expect(pendingWhenAnswered).toBeGreaterThan(0);
      expect(pendingWhenAnswered).toBeLessThan(N);
      expect(answeredAtTurn).not.toBeNull();
      expect(answeredAtTurn!).toBeLessThan(turns);
      expect(result).toEqual({ dispatched: N, failed: 0, pruned: 0, batches: N / 4 });
      expect(turns).toBe(N / 4 - 1);
      expect(pending().n).toBe(0);
      // Every event reached both owners, once.
      const counts = app.deps.sqlite
        .query("SELECT user_id, count(*) AS n, count(DISTINCT event_id) AS events FROM notifications WHERE list_id = ? GROUP BY user_id ORDER BY user_id")
        .all(listId);
      expect(counts).toEqual([u.id, co.id].sort().map((id) => ({ user_id: id, n: N, events: N })));
    } finally {
      await app.app.stop();
      await app.close();
    }
  });

  test("an event whose fan-out fails is rolled back alone and left for the next run", async () => {
    const app = await createTestApp();
    try {
      const u = await app.createUser();
      const listId = newId();
      const now = app.clock.now();
      app.deps.db
        .insert(lists)
        .values({ id: listId, owner_id: u.id, name: "Half", share_token: crypto.randomUUID(), suggestion_token: crypto.randomUUID(), created_at: now, updated_at: now })
        .run();
      const ids = app.deps.db.transaction((tx) =>
        [0, 1, 2].map((i) => recordEvent(tx, { kind: "mod_added", listId, actorId: u.id, data: { name: `Mod ${i}` }, at: now + i })),
      );
      // The middle event's notification cannot be written: a trigger refuses it (a stand-in for a bug).
      app.deps.sqlite.exec(`CREATE TEMP TRIGGER refuse_one BEFORE INSERT ON notifications WHEN new.event_id = '${ids[1]}'
        BEGIN SELECT RAISE(ABORT, 'refused'); END`);
      const first = await dispatchPending(app.deps, { batchSize: 10 });
      expect([first.dispatched, first.failed]).toEqual([2, 1]);
      const state = () =>
        app.deps.sqlite.query("SELECT id, dispatched_at IS NOT NULL AS done FROM event_outbox ORDER BY created_at").all() as { id: string; done: number }[];
      // Its mark as dispatched was rolled back with it; the others are done.
      expect(state()).toEqual([{ id: ids[0]!, done: 1 }, { id: ids[1]!, done: 0 }, { id: ids[2]!, done: 1 }]);
      expect(app.log.lines.some((l) => l.includes("event dispatch failed") && l.includes(ids[1]!))).toBe(true);
      app.deps.sqlite.exec("DROP TRIGGER temp.refuse_one");
      const second = await dispatchPending(app.deps);
      expect([second.dispatched, second.failed]).toEqual([1, 0]);
      expect(state().every((r) => r.done === 1)).toBe(true);
      const notified = app.deps.sqlite.query("SELECT event_id FROM notifications WHERE user_id = ? ORDER BY event_id").all(u.id) as { event_id: string }[];
      expect(notified.map((r) => r.event_id)).toEqual([...ids].sort());
    } finally {
      await app.close();
    }
  });
});
