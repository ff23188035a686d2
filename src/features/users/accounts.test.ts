// Accounts run from the pages: a password change signs other sessions out; an admin lists,
// approves, disables, enables, deletes and makes or unmakes admins, never the last one, each
// audited; a disabled account cannot sign in and its tokens and keys are refused.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ role: "admin", display_name: "Admin", password: "admin password 1" });
});
afterAll(() => t.close());

const login = (email: string, password: string) => t.req("POST", "/api/v1/auth/login", { body: { email, password } });

describe("change password", () => {
  test("with the current one; other sessions are signed out, this one goes on with a fresh token", async () => {
    const u = await t.createUser({ password: "first password" });
    const other = (await login(u.email, "first password")).body.token;
    t.clock.advance(2000); // a token of the same second as the change would still count (seconds in the JWT)
    const r = await t.req("POST", "/api/v1/settings/password", { user: u, body: { current_password: "first password", new_password: "second password" } });
    expect(r.status).toBe(200);
    expect((await t.req("GET", "/api/v1/auth/me", { token: other })).status).toBe(401);
    expect((await t.req("GET", "/api/v1/auth/me", { token: u.token })).status).toBe(401);
    expect((await t.req("GET", "/api/v1/auth/me", { token: r.body.token })).status).toBe(200);
    expect((await login(u.email, "first password")).status).toBe(401);
    expect((await login(u.email, "second password")).status).toBe(200);
    const wrong = await t.req("POST", "/api/v1/settings/password", { token: r.body.token, body: { current_password: "nope nope", new_password: "third password" } });
    expect(wrong).toMatchObject({ status: 403, body: { error: "current_password: not your current password" } });
    expect((await t.req("POST", "/api/v1/settings/password", { token: r.body.token, body: { current_password: "second password", new_password: "short" } })).status).toBe(400);
  });
});

describe("admin: accounts", () => {
  test("the list shows role, state and last sign-in; approve, disable (sign-in, tokens and keys refused), enable; each audited", async () => {
    const u = await t.createUser({ approved: false, display_name: "Newcomer", password: "newcomer pass" });
    let list = (await t.req("GET", "/api/v1/admin/users", { user: admin })).body.users as any[];
    expect(list.find((x) => x.id === u.id)).toMatchObject({ state: "pending", role: "user", last_login_at: null });
    expect((await t.req("POST", `/api/v1/admin/users/${u.id}/approve`, { user: admin })).status).toBe(200);
    const key = (await t.req("POST", "/api/v1/api-keys", { user: u, body: { name: "cli" } })).body.key as string;
    expect(key).toStartWith("lo_");
    await login(u.email, "newcomer pass");
    list = (await t.req("GET", "/api/v1/admin/users", { user: admin })).body.users;
    expect(list.find((x) => x.id === u.id)).toMatchObject({ state: "active" });
    expect(list.find((x) => x.id === u.id).last_login_at).toBeString();

    expect((await t.req("POST", `/api/v1/admin/users/${u.id}/disable`, { user: admin })).body).toMatchObject({ state: "disabled" });
    expect(await login(u.email, "newcomer pass")).toMatchObject({ status: 403, body: { error: "account disabled: ask an admin to enable it again" } });
    expect((await t.req("GET", "/api/v1/auth/me", { user: u })).body).toMatchObject({ error: "account disabled" });
    expect((await t.req("GET", "/api/v1/auth/me", { apiKey: key })).status).toBe(401);
    expect((await t.req("POST", `/api/v1/admin/users/${u.id}/enable`, { user: admin })).body).toMatchObject({ state: "active" });
    expect((await t.req("GET", "/api/v1/auth/me", { apiKey: key })).status).toBe(200);

    const audit = (await t.req("GET", "/api/v1/admin/audit", { user: admin })).body as any[];
    expect(audit.filter((a) => a.target_id === u.id).map((a) => a.action)).toEqual(["enable", "disable", "approve"]);
    expect(audit[0]).toMatchObject({ actor_name: "Admin", target: expect.stringContaining("Newcomer") });
    // Not an admin: 403.
    expect((await t.req("POST", `/api/v1/admin/users/${admin.id}/disable`, { user: u })).status).toBe(403);
  });

  test("make and unmake admin; never the last admin (demote, disable, delete); never yourself", async () => {
    const solo = await createTestApp();
    try {
      const a = await solo.createUser({ role: "admin" });
      const b = await solo.createUser();
      expect((await solo.req("PUT", `/api/v1/admin/users/${a.id}/role`, { user: a, body: { role: "user" } })).body.error).toBe(
        "the last admin cannot stop being admin: make another account admin first",
      );
      expect((await solo.req("POST", `/api/v1/admin/users/${a.id}/disable`, { user: a })).status).toBe(409);
      expect((await solo.req("PUT", `/api/v1/admin/users/${b.id}/role`, { user: a, body: { role: "admin" } })).body).toMatchObject({ role: "admin" });
      // Two admins now: b takes a's role away; then b is the last one.
      expect((await solo.req("PUT", `/api/v1/admin/users/${a.id}/role`, { user: b, body: { role: "user" } })).body).toMatchObject({ role: "user" });
      expect((await solo.req("DELETE", `/api/v1/admin/users/${b.id}`, { user: b })).status).toBe(409);
      expect((await solo.req("DELETE", `/api/v1/admin/users/${a.id}`, { user: b })).status).toBe(204);
      expect((await solo.req("GET", "/api/v1/admin/users", { user: b })).body.users.map((u: any) => u.id)).toEqual([b.id]);
      const audit = (await solo.req("GET", "/api/v1/admin/audit", { user: b })).body as any[];
      expect(audit.map((x) => x.action)).toEqual(["delete", "unmake_admin", "make_admin"]);
    } finally {
      await solo.close();
    }
  });
});
