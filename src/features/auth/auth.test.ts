import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, TestClock, type TestApp } from "../../../test/helpers";
import { startSmtpServer } from "../../../test/fakes/smtp";
import { startFakeDiscord } from "../../../test/fakes/discord-oauth";
import { signerFor } from "../../shared/auth";

describe("registration, login and tokens", () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ env: { LOADOUT_SMTP_URL: smtp.url, LOADOUT_REGISTRATION: "open" } });
    await t.createUser({ role: "admin" }); // the instance has its admin: registrations below are ordinary accounts
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  test("register → verification e-mail over SMTP → verify → login → me", async () => {
    const reg = await t.req("POST", "/api/v1/auth/register", { body: { email: "Alice@Example.com", password: "correct horse", display_name: "  Alice " } });
    expect(reg.status).toBe(201);
    expect(typeof reg.body.user_id).toBe("string");
    await smtp.waitFor(1);
    const mail = smtp.mails.at(-1)!;
    expect(mail.to).toEqual(["alice@example.com"]);
    const link = new URL(smtp.linkIn(mail));
    // The link opens the web page, which calls the API with the token.
    expect(link.pathname).toBe("/verify-email");
    const v = await t.req("GET", "/api/v1/auth/email-verify" + link.search);
    expect(v.status).toBe(200);
    expect(v.body).toEqual({ ok: true });
    const again = await t.req("GET", "/api/v1/auth/email-verify" + link.search);
    expect(again.status).toBe(401);

    const login = await t.req("POST", "/api/v1/auth/login", { body: { email: "alice@example.com", password: "correct horse" } });
    expect(login.status).toBe(200);
    expect(login.body.user).toEqual({ user_id: reg.body.user_id, display_name: "Alice" });
    const me = await t.req("GET", "/api/v1/auth/me", { token: login.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ id: reg.body.user_id, email: "alice@example.com", display_name: "Alice", role: "user", is_approved: true });
  });

  test("duplicate e-mail is 409; bad fields are 400 naming the field", async () => {
    await t.req("POST", "/api/v1/auth/register", { body: { email: "dup@example.com", password: "password1", display_name: "Dup" } });
    const dup = await t.req("POST", "/api/v1/auth/register", { body: { email: "DUP@example.com", password: "password1", display_name: "Dup" } });
    expect(dup.status).toBe(409);
    const short = await t.req("POST", "/api/v1/auth/register", { body: { email: "x@example.com", password: "short", display_name: "X" } });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe("password: must be 8 to 128 characters");
    const name = await t.req("POST", "/api/v1/auth/register", { body: { email: "y@example.com", password: "password1", display_name: "   " } });
    expect(name.body.error).toBe("display_name: must be 1 to 100 characters");
  });

  test("wrong password and unknown e-mail are the same 401", async () => {
    await t.createUser({ email: "bob@example.com", password: "bob-password" });
    const wrong = await t.req("POST", "/api/v1/auth/login", { body: { email: "bob@example.com", password: "nope-nope" } });
    const unknown = await t.req("POST", "/api/v1/auth/login", { body: { email: "nobody@example.com", password: "nope-nope" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ error: "invalid credentials", code: "invalid_credentials" });
    expect(unknown.body).toEqual({ error: "invalid credentials", code: "invalid_credentials" });
  });

  test("expired, tampered and deleted-user JWTs are 401", async () => {
    const u = await t.createUser();
    const expiredToken = await signerFor(t.deps).sign({ sub: u.id, role: "user", exp: Math.floor(t.clock.now() / 1000) - 60 });
    expect((await t.req("GET", "/api/v1/auth/me", { token: expiredToken })).status).toBe(401);
    const [h, p, s] = u.token.split(".");
    const forgedPayload = Buffer.from(JSON.stringify({ sub: u.id, role: "admin", exp: 9999999999 })).toString("base64url");
    expect((await t.req("GET", "/api/v1/auth/me", { token: `${h}.${forgedPayload}.${s}` })).status).toBe(401);
    expect((await t.req("GET", "/api/v1/auth/me", { token: `${h}.${p}.${s!.slice(0, -2)}xx` })).status).toBe(401);
    expect((await t.req("GET", "/api/v1/auth/me", { headers: { authorization: "Basic abc" } })).status).toBe(401);
    expect((await t.req("GET", "/api/v1/auth/me")).body).toEqual({ error: "unauthorized", code: "unauthorized" });
    expect((await t.req("DELETE", "/api/v1/settings/account", { user: u })).status).toBe(204);
    expect((await t.req("GET", "/api/v1/auth/me", { user: u })).status).toBe(401);
  });

  test("API keys: create (shown once), list without the key, use via X-API-Key, revoke", async () => {
    const u = await t.createUser();
    const created = await t.req("POST", "/api/v1/api-keys", { user: u, body: { name: "deploy bot" } });
    expect(created.status).toBe(200);
    expect(created.body.key).toMatch(/^lo_[A-Za-z0-9_-]{43}$/);
    expect(created.body.prefix).toBe(created.body.key.slice(0, 10));
    const list = await t.req("GET", "/api/v1/api-keys", { user: u });
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toEqual({ id: created.body.id, name: "deploy bot", prefix: created.body.prefix, created_at: created.body.created_at, last_used_at: null });
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
    const me = await t.req("GET", "/api/v1/auth/me", { apiKey: created.body.key });
    expect(me.body.id).toBe(u.id);
    expect((await t.req("GET", "/api/v1/api-keys", { user: u })).body[0].last_used_at).not.toBeNull();
    const other = await t.createUser();
    expect((await t.req("DELETE", `/api/v1/api-keys/${created.body.id}`, { user: other })).status).toBe(404);
    expect((await t.req("DELETE", `/api/v1/api-keys/${created.body.id}`, { user: u })).status).toBe(204);
    expect((await t.req("GET", "/api/v1/auth/me", { apiKey: created.body.key })).status).toBe(401);
    expect((await t.req("GET", "/api/v1/auth/me", { apiKey: "lo_not-a-key" })).status).toBe(401);
  });

  test("callers are remembered, yet any writer's change to a key or user holds from the next request", async () => {
    const admin = await t.createUser({ role: "admin" });
    const key = (await t.req("POST", "/api/v1/api-keys", { user: admin, body: { name: "ops" } })).body.key as string;
    const sqlite = t.deps.sqlite;
    for (let i = 0; i < 3; i++) {
      expect((await t.req("GET", "/api/v1/jobs", { apiKey: key })).status).toBe(200);
      expect((await t.req("GET", "/api/v1/jobs", { user: admin })).status).toBe(200);
    }
    // A raw write (no API involved): demoted, then renamed, then unapproved, then re-owned key.
    sqlite.query("UPDATE users SET role = 'user' WHERE id = ?").run(admin.id);
    expect((await t.req("GET", "/api/v1/jobs", { apiKey: key })).status).toBe(403);
    expect((await t.req("GET", "/api/v1/jobs", { user: admin })).status).toBe(403);
    sqlite.query("UPDATE users SET display_name = 'Renamed' WHERE id = ?").run(admin.id);
    expect((await t.req("GET", "/api/v1/auth/me", { apiKey: key })).body.display_name).toBe("Renamed");
    expect((await t.req("GET", "/api/v1/auth/me", { user: admin })).body.display_name).toBe("Renamed");
    sqlite.query("UPDATE users SET is_approved = 0 WHERE id = ?").run(admin.id);
    expect((await t.req("POST", "/api/v1/lists", { apiKey: key, body: { name: "x" } })).status).toBe(403);
    const other = await t.createUser();
    expect((await t.req("GET", "/api/v1/auth/me", { apiKey: key })).body.id).toBe(admin.id);
    sqlite.query("UPDATE api_keys SET user_id = ? WHERE user_id = ?").run(other.id, admin.id);
    expect((await t.req("GET", "/api/v1/auth/me", { apiKey: key })).body.id).toBe(other.id);
    // Deleted: the key and the token are refused at once.
    sqlite.query("DELETE FROM users WHERE id = ?").run(other.id);
    expect((await t.req("GET", "/api/v1/auth/me", { apiKey: key })).status).toBe(401);
    expect((await t.req("GET", "/api/v1/auth/me", { user: other })).status).toBe(401);
    // Recording a key's use (once a minute) keeps working with the cache.
    const fresh = await t.createUser();
    const k2 = await t.req("POST", "/api/v1/api-keys", { user: fresh, body: { name: "bot" } });
    expect((await t.req("GET", "/api/v1/auth/me", { apiKey: k2.body.key })).status).toBe(200);
    const used = (await t.req("GET", "/api/v1/api-keys", { user: fresh })).body[0].last_used_at;
    expect(used).not.toBeNull();
    t.clock.advance(61_000);
    expect((await t.req("GET", "/api/v1/auth/me", { apiKey: k2.body.key })).status).toBe(200);
    expect(Date.parse((await t.req("GET", "/api/v1/api-keys", { user: fresh })).body[0].last_used_at)).toBe(Date.parse(used) + 61_000);
  });

  test("users/search needs 2 characters and finds by display name or exact e-mail", async () => {
    const u = await t.createUser({ display_name: "Searchable Sam", email: "sam@example.com" });
    const short = await t.req("GET", "/api/v1/users/search?q=a", { user: u });
    expect(short.status).toBe(400);
    const byName = await t.req("GET", "/api/v1/users/search?q=searchable", { user: u });
    expect(byName.body.users).toContainEqual({ id: u.id, display_name: "Searchable Sam" });
    const byMail = await t.req("GET", "/api/v1/users/search?q=SAM@example.com", { user: u });
    expect(byMail.body.users.map((x: any) => x.id)).toEqual([u.id]);
    expect((await t.req("GET", "/api/v1/users/search?q=sam")).status).toBe(401);
  });

  test("display name update", async () => {
    const u = await t.createUser();
    expect((await t.req("PUT", "/api/v1/settings/display-name", { user: u, body: { display_name: "New Name" } })).status).toBe(204);
    expect((await t.req("GET", "/api/v1/auth/me", { user: u })).body.display_name).toBe("New Name");
    expect((await t.req("PUT", "/api/v1/settings/display-name", { user: u, body: { display_name: "x".repeat(101) } })).status).toBe(400);
  });
});

describe("login rate limit", () => {
  test("more than 10 failed logins for one e-mail, or from one IP, in 15 minutes gives 429 with Retry-After", async () => {
    const t = await createTestApp({ env: { LOADOUT_TRUST_PROXY: "true" } });
    try {
      await t.createUser({ email: "carol@example.com", password: "carol-password" });
      const login = (email: string, password: string, ip: string) =>
        t.req("POST", "/api/v1/auth/login", { body: { email, password }, headers: { "x-forwarded-for": ip } });
      // One e-mail from ten different addresses.
      for (let i = 0; i < 10; i++) expect((await login("carol@example.com", "bad-" + i, `10.0.0.${i}`)).status).toBe(401);
      const blocked = await login("carol@example.com", "carol-password", "10.0.1.1");
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
      // One address trying ten different e-mails.
      for (let i = 0; i < 10; i++) expect((await login(`nobody${i}@example.com`, "x-password", "192.0.2.7")).status).toBe(401);
      expect((await login("carol2@example.com", "x-password", "192.0.2.7")).status).toBe(429);
      // Another address and e-mail are not affected; after the window the e-mail may log in again.
      await t.createUser({ email: "dave@example.com", password: "dave-password" });
      expect((await login("dave@example.com", "dave-password", "192.0.2.8")).status).toBe(200);
      t.clock.advance(15 * 60_000 + 1000);
      expect((await login("carol@example.com", "carol-password", "10.0.1.1")).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe("magic link", () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({ env: { LOADOUT_SMTP_URL: smtp.url, LOADOUT_REGISTRATION: "open" } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  test("same answer for known and unknown addresses; link logs in once; new address creates the account", async () => {
    const u = await t.createUser({ email: "known@example.com" });
    const a = await t.req("POST", "/api/v1/auth/magic", { body: { email: "known@example.com" } });
    const b = await t.req("POST", "/api/v1/auth/magic", { body: { email: "new-person@example.com" } });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body).toEqual(b.body);
    await smtp.waitFor(2);
    const known = smtp.mails.find((m) => m.to[0] === "known@example.com")!;
    const link = new URL(smtp.linkIn(known));
    expect(link.pathname).toBe("/magic"); // the web page, which calls the API with the token
    const v = await t.req("GET", "/api/v1/auth/magic/verify" + link.search);
    expect(v.status).toBe(200);
    expect(v.body.user.user_id).toBe(u.id);
    expect((await t.req("GET", "/api/v1/auth/me", { token: v.body.token })).body.id).toBe(u.id);
    const reused = await t.req("GET", "/api/v1/auth/magic/verify" + link.search);
    expect(reused.status).toBe(401);

    const fresh = smtp.mails.find((m) => m.to[0] === "new-person@example.com")!;
    const l2 = new URL(smtp.linkIn(fresh));
    const v2 = await t.req("GET", "/api/v1/auth/magic/verify" + l2.search);
    expect(v2.status).toBe(200);
    const me = await t.req("GET", "/api/v1/auth/me", { token: v2.body.token });
    expect(me.body.email).toBe("new-person@example.com");
    // The instance had no admin yet: the first self-made account (here by magic link) is it.
    expect(me.body).toMatchObject({ role: "admin", is_approved: true });
  });

  test("an expired magic token is refused", async () => {
    await t.req("POST", "/api/v1/auth/magic", { body: { email: "late@example.com" } });
    await smtp.waitFor(3);
    const mail = smtp.mails.find((m) => m.to[0] === "late@example.com")!;
    const link = new URL(smtp.linkIn(mail));
    t.clock.advance(16 * 60_000);
    const v = await t.req("GET", "/api/v1/auth/magic/verify" + link.search);
    expect(v.status).toBe(401);
    expect(v.body.error).toBe("invalid or expired token");
  });
});

describe("approval and closed registration", () => {
  test("approval mode: an unapproved user reads but every mutation is 403 until an admin approves", async () => {
    const t = await createTestApp({ env: { LOADOUT_REGISTRATION: "approval" } });
    try {
      const admin = await t.createUser({ role: "admin" });
      const reg = await t.req("POST", "/api/v1/auth/register", { body: { email: "pending@example.com", password: "password1", display_name: "Pending" } });
      expect(reg.status).toBe(201);
      expect(reg.body).toEqual({ user_id: reg.body.user_id, role: "user", is_approved: false });
      const login = await t.req("POST", "/api/v1/auth/login", { body: { email: "pending@example.com", password: "password1" } });
      expect(login.status).toBe(200);
      const token = login.body.token;
      expect((await t.req("GET", "/api/v1/auth/me", { token })).body.is_approved).toBe(false);
      const mutate = await t.req("POST", "/api/v1/api-keys", { token, body: { name: "k" } });
      expect(mutate.status).toBe(403);
      expect(mutate.body).toEqual({ error: "account pending approval", code: "user.pending_approval" });

      const user = await t.createUser();
      expect((await t.req("GET", "/api/v1/admin/users?pending=1", { user })).status).toBe(403);
      const pending = await t.req("GET", "/api/v1/admin/users?pending=1", { user: admin });
      expect(pending.body.users.map((u: any) => u.id)).toEqual([reg.body.user_id]);
      expect((await t.req("POST", `/api/v1/admin/users/${reg.body.user_id}/approve`, { user: admin })).body).toEqual({ ok: true });
      expect((await t.req("POST", "/api/v1/api-keys", { token, body: { name: "k" } })).status).toBe(200);
      expect((await t.req("POST", `/api/v1/admin/users/nope/approve`, { user: admin })).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  test("closed registration gives 403", async () => {
    const t = await createTestApp({ env: { LOADOUT_REGISTRATION: "closed" } });
    try {
      const r = await t.req("POST", "/api/v1/auth/register", { body: { email: "x@example.com", password: "password1", display_name: "X" } });
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: "registration closed", code: "user.registration_closed" });
    } finally {
      await t.close();
    }
  });
});

describe("chat OAuth 2.0", () => {
  let t: TestApp;
  let discord: ReturnType<typeof startFakeDiscord>;
  beforeAll(async () => {
    discord = startFakeDiscord({ clientId: "cid", clientSecret: "csecret" });
    t = await createTestApp({
      env: {
        LOADOUT_DISCORD_CLIENT_ID: "cid",
        LOADOUT_DISCORD_CLIENT_SECRET: "csecret",
        LOADOUT_DISCORD_API_URL: discord.url,
        LOADOUT_DISCORD_AUTHORIZE_URL: discord.url + "/oauth2/authorize",
        LOADOUT_BASE_URL: "https://loadout.example.org",
      },
    });
  });
  afterAll(async () => {
    await t.close();
    discord.close();
  });

  async function startLogin() {
    const r = await t.req("GET", "/api/v1/auth/chat");
    expect(r.status).toBe(302);
    const to = new URL(r.headers.get("location")!);
    expect(to.origin + to.pathname).toBe(discord.url + "/oauth2/authorize");
    expect(to.searchParams.get("scope")).toBe("identify email");
    expect(to.searchParams.get("client_id")).toBe("cid");
    expect(to.searchParams.get("redirect_uri")).toBe("https://loadout.example.org/api/v1/auth/chat/callback");
    return to.searchParams.get("state")!;
  }

  test("redirect with signed state → callback creates the user and returns a JWT; a second login finds the same user", async () => {
    const player = { id: "80351110224678912", username: "nelly", global_name: "Nelly", avatar: null, email: "nelly@example.com", verified: true };
    const state = await startLogin();
    const cb = await t.req("GET", `/api/v1/auth/chat/callback?code=${discord.issueCode(player)}&state=${state}`);
    expect(cb.status).toBe(200);
    expect(cb.body.user.display_name).toBe("Nelly");
    const me = await t.req("GET", "/api/v1/auth/me", { token: cb.body.token });
    expect(me.body.email).toBe("nelly@example.com");
    const form = discord.requests.find((r) => r.path === "/oauth2/token")!.form!;
    expect(form.grant_type).toBe("authorization_code");
    expect(form.redirect_uri).toBe("https://loadout.example.org/api/v1/auth/chat/callback");

    const state2 = await startLogin();
    const cb2 = await t.req("GET", `/api/v1/auth/chat/callback?code=${discord.issueCode(player)}&state=${state2}`);
    expect(cb2.body.user.user_id).toBe(cb.body.user.user_id);
  });

  test("a redirect off the configured API is not followed: the client secret and access token stay put", async () => {
    const other = startFakeDiscord({ clientId: "cid", clientSecret: "csecret" });
    try {
      const player = { id: "80351110224678999", username: "eve", global_name: "Eve", avatar: null, email: null, verified: false };
      discord.redirectNext("/oauth2/token", other.url);
      const refused = await t.req("GET", `/api/v1/auth/chat/callback?code=${discord.issueCode(player)}&state=${await startLogin()}`);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ error: "chat login failed: the code was not accepted", code: "auth.chat_login_refused" });
      discord.redirectNext("/v10/users/@me", other.url);
      const noProfile = await t.req("GET", `/api/v1/auth/chat/callback?code=${discord.issueCode(player)}&state=${await startLogin()}`);
      expect(noProfile.status).toBe(502);
      expect(noProfile.body).toEqual({ error: "chat login failed: could not read the chat profile", code: "auth.chat_provider_failed" });
      expect(other.requests).toEqual([]);
    } finally {
      other.close();
    }
  });

  test("a forged, expired or missing state is refused before any call to the provider", async () => {
    const before = discord.requests.length;
    const player = { id: "1", username: "x", global_name: null, avatar: null, email: null, verified: false };
    const forged = await t.req("GET", `/api/v1/auth/chat/callback?code=${discord.issueCode(player)}&state=eyJhbGciOiJIUzI1NiJ9.eyJwdXJwb3NlIjoiY2hhdC1vYXV0aCJ9.AAAA`);
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ error: "invalid state", code: "auth.chat_login_state_invalid" });
    const missing = await t.req("GET", `/api/v1/auth/chat/callback?code=abc`);
    expect(missing.status).toBe(400);
    // A login JWT is not a state.
    const u = await t.createUser();
    expect((await t.req("GET", `/api/v1/auth/chat/callback?code=abc&state=${u.token}`)).status).toBe(400);
    // An expired state (signed 11 minutes ago with a 10-minute life).
    const past = Math.floor(t.clock.now() / 1000) - 660;
    const expired = await signerFor(t.deps).sign({ purpose: "chat-oauth", nonce: "n", iat: past, exp: past + 600 });
    expect((await t.req("GET", `/api/v1/auth/chat/callback?code=abc&state=${expired}`)).status).toBe(400);
    expect(discord.requests.length).toBe(before);
    const state = await startLogin();
    // A code the provider does not know is refused by the provider.
    const bad = await t.req("GET", `/api/v1/auth/chat/callback?code=unknown&state=${state}`);
    expect([400, 401]).toContain(bad.status);
  });
});

describe("first admin and mail without SMTP", () => {
  test("LOADOUT_ADMIN_EMAIL/PASSWORD create the first admin on an empty database, once", async () => {
    const { ensureBootstrapAdmin } = await import("../users/service");
    const t = await createTestApp({ env: { LOADOUT_ADMIN_EMAIL: "Root@Example.com", LOADOUT_ADMIN_PASSWORD: "root-password" } });
    try {
      const id = await ensureBootstrapAdmin(t.deps);
      expect(id).toBeTruthy();
      expect(await ensureBootstrapAdmin(t.deps)).toBeNull();
      const login = await t.req("POST", "/api/v1/auth/login", { body: { email: "root@example.com", password: "root-password" } });
      const me = await t.req("GET", "/api/v1/auth/me", { token: login.body.token });
      expect(me.body).toMatchObject({ role: "admin", is_approved: true });
    } finally {
      await t.close();
    }
  });

  test("without LOADOUT_SMTP_URL the magic link is written to the log", async () => {
    const t = await createTestApp();
    try {
      await t.req("POST", "/api/v1/auth/magic", { body: { email: "logme@example.com" } });
      const line = t.log.lines.find((l) => l.includes("logme@example.com"));
      expect(line).toContain("/magic?token=");
    } finally {
      await t.close();
    }
  });
});

// Everything signed with a timestamp is signed and verified against one clock (deps.clock), so
// the suite passes on any day and a clock injected into the app is the only judge of expiry.
describe("tokens and OAuth state follow the app's clock, not the machine's", () => {
  const YEAR = 365 * 24 * 3600_000;
  for (const [label, offset] of [["a year behind", -YEAR], ["a year ahead", YEAR]] as const) {
    test(`with the clock ${label} of real time`, async () => {
      const discord = startFakeDiscord({ clientId: "cid", clientSecret: "csecret" });
      const clock = new TestClock(Date.now() + offset);
      const t = await createTestApp({
        clock,
        env: {
          LOADOUT_DISCORD_CLIENT_ID: "cid",
          LOADOUT_DISCORD_CLIENT_SECRET: "csecret",
          LOADOUT_DISCORD_API_URL: discord.url,
          LOADOUT_DISCORD_AUTHORIZE_URL: discord.url + "/oauth2/authorize",
        },
      });
      try {
        // A login JWT lives LOADOUT_JWT_TTL (7 days) on the app's clock.
        const u = await t.createUser();
        expect((await t.req("GET", "/api/v1/auth/me", { user: u })).status).toBe(200);
        clock.advance(6 * 24 * 3600_000);
        expect((await t.req("GET", "/api/v1/auth/me", { user: u })).status).toBe(200);
        clock.advance(2 * 24 * 3600_000);
        expect((await t.req("GET", "/api/v1/auth/me", { user: u })).status).toBe(401);

        // The OAuth state lives 10 minutes on the app's clock.
        const player = { id: "1234", username: "p", global_name: "P", avatar: null, email: "p@example.com", verified: true };
        const stateOf = async () => new URL((await t.req("GET", "/api/v1/auth/chat")).headers.get("location")!).searchParams.get("state")!;
        const fresh = await stateOf();
        expect((await t.req("GET", `/api/v1/auth/chat/callback?code=${discord.issueCode(player)}&state=${fresh}`)).status).toBe(200);
        const stale = await stateOf();
        clock.advance(11 * 60_000);
        const r = await t.req("GET", `/api/v1/auth/chat/callback?code=${discord.issueCode(player)}&state=${stale}`);
        expect(r.status).toBe(400);
        expect(r.body).toEqual({ error: "invalid state", code: "auth.chat_login_state_invalid" });
      } finally {
        await t.close();
        discord.close();
      }
    });
  }
});

describe("a new install starts itself: the first account is its admin", () => {
  const register = (t: TestApp, email: string) =>
    t.req("POST", "/api/v1/auth/register", { body: { email, password: "password1", display_name: email.split("@")[0] } });

  test("approval mode: the first registration is an approved admin, the next ones wait for it", async () => {
    const t = await createTestApp({ env: { LOADOUT_REGISTRATION: "approval" } });
    try {
      expect((await t.req("GET", "/api/v1/auth/options")).body.first_account_admin).toBe(true);
      const first = await register(t, "founder@example.com");
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ user_id: first.body.user_id, role: "admin", is_approved: true });
      expect((await t.req("GET", "/api/v1/auth/options")).body.first_account_admin).toBe(false);
      const login = await t.req("POST", "/api/v1/auth/login", { body: { email: "founder@example.com", password: "password1" } });
      const me = await t.req("GET", "/api/v1/auth/me", { token: login.body.token });
      expect(me.body).toMatchObject({ role: "admin", is_approved: true });
      // It can do what an admin does at once: approve the second account.
      const second = await register(t, "second@example.com");
      expect(second.body).toEqual({ user_id: second.body.user_id, role: "user", is_approved: false });
      const pending = await t.req("GET", "/api/v1/admin/users?pending=1", { token: login.body.token });
      expect(pending.body.users.map((u: any) => u.id)).toEqual([second.body.user_id]);
      expect((await t.req("POST", `/api/v1/admin/users/${second.body.user_id}/approve`, { token: login.body.token })).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  test("two first registrations at once make exactly one admin", async () => {
    const t = await createTestApp({ env: { LOADOUT_REGISTRATION: "open" } });
    try {
      const answers = await Promise.all(["a@example.com", "b@example.com", "c@example.com", "d@example.com"].map((e) => register(t, e)));
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
      expect(answers.filter((a) => a.body.role === "admin")).toHaveLength(1);
      expect(answers.every((a) => a.body.is_approved === true)).toBe(true); // open: everyone approved
      const admins = t.deps.sqlite.query("SELECT count(*) AS n FROM users WHERE role = 'admin'").get() as { n: number };
      expect(admins.n).toBe(1);
    } finally {
      await t.close();
    }
  });

  test("an instance that already has an admin (LOADOUT_ADMIN_EMAIL, user create --admin) makes no second one", async () => {
    const t = await createTestApp({ env: { LOADOUT_REGISTRATION: "approval" } });
    try {
      await t.createUser({ role: "admin" });
      expect((await t.req("GET", "/api/v1/auth/options")).body.first_account_admin).toBe(false);
      const r = await register(t, "late@example.com");
      expect(r.body).toMatchObject({ role: "user", is_approved: false });
    } finally {
      await t.close();
    }
  });

  test("closed registration stays closed, the first account included", async () => {
    const t = await createTestApp({ env: { LOADOUT_REGISTRATION: "closed" } });
    try {
      expect((await t.req("GET", "/api/v1/auth/options")).body.first_account_admin).toBe(false);
      expect((await register(t, "x@example.com")).status).toBe(403);
      const n = t.deps.sqlite.query("SELECT count(*) AS n FROM users").get() as { n: number };
      expect(n.n).toBe(0);
    } finally {
      await t.close();
    }
  });
});
