// The permission matrix (docs/collaboration.md "Who may do what"): every role × every list endpoint
// we can reach, on a private list, against the real app. Each cell runs on a fresh list carrying
// every grant (co-owner, collaborators with each flag, two groups: one inherited, one overridden),
// so destructive calls (DELETE list, DELETE group) cannot disturb other cells.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";

const MOD_IN = "AAAAAAAAAAAAAAAA";
const MOD_NEW = "BBBBBBBBBBBBBBBB";
const MOD_SUGGESTED = "CCCCCCCCCCCCCCCC";
const MOD_SUGGEST_NEW = "DDDDDDDDDDDDDDDD";

type RoleName =
  | "anonymous"
  | "stranger"
  | "share-token holder"
  | "collaborator (no flags)"
  | "collaborator can_add"
  | "collaborator can_remove"
  | "collaborator can_deploy"
  | "group member (inherited can_add)"
  | "group member (overridden: add off, remove on)"
  | "co-owner"
  | "primary owner"
  | "admin";

interface Fixture {
  listId: string;
  share: string;
  suggestionId: string;
  fieldId: string;
  /** A snapshot the primary owner took. */
  snapshotId: string;
}

let t: TestApp;
const u: Record<string, TestUser> = {};
let gInherit: string, gOverride: string, gSpare: string;

async function ok(p: Promise<{ status: number; body: any }>, status = 200) {
  const r = await p;
  if (r.status !== status) throw new Error(`setup call answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** A private list with every grant of the matrix on it. */
async function fixture(): Promise<Fixture> {
  // A new rate-limit window for every cell (the limiter runs on the injected clock).
  t.clock.advance(61_000);
  const p = u.primary!;
  const l = await ok(t.req("POST", "/api/v1/lists", { user: p, body: { name: "Matrix", is_public: false } }));
  const id = l.id;
  const base = `/api/v1/lists/${id}`;
  await ok(t.req("POST", `${base}/mods`, { user: p, body: { workshop_id: MOD_IN } }));
  await ok(t.req("POST", `${base}/owners`, { user: p, body: { search: u.coowner!.email } }));
  const collab = (user: TestUser, flags: object) => ok(t.req("POST", `${base}/collaborators`, { user: p, body: { search: user.email, ...flags } }));
  await collab(u.cNone!, { can_add: false, can_remove: false, can_deploy: false });
  await collab(u.cAdd!, { can_add: true, can_remove: false, can_deploy: false });
  await collab(u.cRemove!, { can_add: false, can_remove: true, can_deploy: false });
  await collab(u.cDeploy!, { can_add: false, can_remove: false, can_deploy: true });
  await collab(u.target!, { can_add: false });
  await ok(t.req("POST", `${base}/groups`, { user: p, body: { group_id: gInherit } }));
  await ok(t.req("POST", `${base}/groups`, { user: p, body: { group_id: gOverride, can_add: false, can_remove: true } }));
  await ok(t.req("POST", `${base}/blocks`, { user: p, body: { user_id: u.blocked!.id } }));
  const field = await ok(t.req("POST", `${base}/form-fields`, { user: p, body: { label: "Why", type: "text" } }));
  const s = await ok(t.req("POST", `${base}/suggestions`, { user: p, body: { workshop_id: MOD_SUGGESTED } }));
  const snap = await ok(t.req("POST", `${base}/versions`, { user: p, body: { version_name: "Owner's" } }));
  return { listId: id, share: l.share_token, suggestionId: s.id, fieldId: field.id, snapshotId: snap.id };
}

interface Endpoint {
  name: string;
  method: string;
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  /** Status on success. */
  okStatus: number;
  /** Who may call it, among callers who can see the list. */
  access: "read" | "member" | "add" | "remove" | "edit" | "owner" | "primary" | "auth-read";
}

const L = (f: Fixture) => `/api/v1/lists/${f.listId}`;
const endpoints: Endpoint[] = [
  { name: "GET detail", method: "GET", path: L, okStatus: 200, access: "read" },
  { name: "PUT list", method: "PUT", path: L, body: () => ({ description: "changed" }), okStatus: 204, access: "owner" },
  { name: "DELETE list", method: "DELETE", path: L, okStatus: 204, access: "primary" },
  { name: "POST mods", method: "POST", path: (f) => `${L(f)}/mods`, body: () => ({ workshop_id: MOD_NEW }), okStatus: 200, access: "add" },
  { name: "DELETE mod", method: "DELETE", path: (f) => `${L(f)}/mods/${MOD_IN}`, okStatus: 204, access: "remove" },
  { name: "PUT version pin", method: "PUT", path: (f) => `${L(f)}/mods/${MOD_IN}/version`, body: () => ({ version: null }), okStatus: 204, access: "add" },
  { name: "GET audit", method: "GET", path: (f) => `${L(f)}/audit`, okStatus: 200, access: "member" },
  { name: "GET snapshots", method: "GET", path: (f) => `${L(f)}/versions`, okStatus: 200, access: "read" },
  { name: "GET snapshot", method: "GET", path: (f) => `${L(f)}/versions/${f.snapshotId}`, okStatus: 200, access: "read" },
  { name: "POST snapshot", method: "POST", path: (f) => `${L(f)}/versions`, body: () => ({ version_name: "Mine" }), okStatus: 200, access: "edit" },
  // The owner's snapshot: only owners may rename or delete it (authors are the describe below).
  { name: "PATCH snapshot", method: "PATCH", path: (f) => `${L(f)}/versions/${f.snapshotId}`, body: () => ({ version_name: "Renamed" }), okStatus: 200, access: "owner" },
  { name: "DELETE snapshot", method: "DELETE", path: (f) => `${L(f)}/versions/${f.snapshotId}`, okStatus: 204, access: "owner" },
  { name: "GET suggestions", method: "GET", path: (f) => `${L(f)}/suggestions`, okStatus: 200, access: "member" },
  { name: "POST suggestion", method: "POST", path: (f) => `${L(f)}/suggestions`, body: () => ({ workshop_id: MOD_SUGGEST_NEW }), okStatus: 200, access: "auth-read" },
  { name: "POST vote", method: "POST", path: (f) => `${L(f)}/suggestions/${f.suggestionId}/vote`, body: () => ({ vote: 1 }), okStatus: 200, access: "auth-read" },
  { name: "PATCH suggestion", method: "PATCH", path: (f) => `${L(f)}/suggestions/${f.suggestionId}`, body: () => ({ status: "rejected", note: "no" }), okStatus: 200, access: "add" },
  { name: "DELETE suggestion", method: "DELETE", path: (f) => `${L(f)}/suggestions/${f.suggestionId}`, okStatus: 204, access: "add" },
  { name: "GET form-fields", method: "GET", path: (f) => `${L(f)}/form-fields`, okStatus: 200, access: "read" },
  { name: "POST form-field", method: "POST", path: (f) => `${L(f)}/form-fields`, body: () => ({ label: "More", type: "checkbox" }), okStatus: 200, access: "owner" },
  { name: "PUT form-field", method: "PUT", path: (f) => `${L(f)}/form-fields/${f.fieldId}`, body: () => ({ label: "Why 2", type: "text" }), okStatus: 200, access: "owner" },
  { name: "DELETE form-field", method: "DELETE", path: (f) => `${L(f)}/form-fields/${f.fieldId}`, okStatus: 204, access: "owner" },
  { name: "GET collaborators", method: "GET", path: (f) => `${L(f)}/collaborators`, okStatus: 200, access: "member" },
  { name: "POST collaborator", method: "POST", path: (f) => `${L(f)}/collaborators`, body: () => ({ search: u.newbie!.email }), okStatus: 200, access: "owner" },
  {
    name: "PUT collaborator permissions",
    method: "PUT",
    path: (f) => `${L(f)}/collaborators/${u.target!.id}/permissions`,
    body: () => ({ can_add: true, can_remove: true, can_deploy: true }),
    okStatus: 200,
    access: "owner",
  },
  { name: "DELETE collaborator", method: "DELETE", path: (f) => `${L(f)}/collaborators/${u.target!.id}`, okStatus: 204, access: "owner" },
  { name: "GET owners", method: "GET", path: (f) => `${L(f)}/owners`, okStatus: 200, access: "owner" },
  { name: "POST owner", method: "POST", path: (f) => `${L(f)}/owners`, body: () => ({ search: u.newbie!.display_name }), okStatus: 200, access: "primary" },
  { name: "DELETE owner", method: "DELETE", path: (f) => `${L(f)}/owners/${u.coowner!.id}`, okStatus: 204, access: "primary" },
  { name: "GET groups", method: "GET", path: (f) => `${L(f)}/groups`, okStatus: 200, access: "owner" },
  { name: "POST group", method: "POST", path: (f) => `${L(f)}/groups`, body: () => ({ group_id: gSpare }), okStatus: 200, access: "owner" },
  { name: "PATCH group", method: "PATCH", path: (f) => `${L(f)}/groups/${gInherit}`, body: () => ({ can_deploy: true }), okStatus: 200, access: "owner" },
  { name: "DELETE group", method: "DELETE", path: (f) => `${L(f)}/groups/${gInherit}`, okStatus: 204, access: "owner" },
  { name: "GET blocks", method: "GET", path: (f) => `${L(f)}/blocks`, okStatus: 200, access: "owner" },
  { name: "POST block", method: "POST", path: (f) => `${L(f)}/blocks`, body: () => ({ user_id: u.newbie!.id }), okStatus: 200, access: "owner" },
  { name: "DELETE block", method: "DELETE", path: (f) => `${L(f)}/blocks/${u.blocked!.id}`, okStatus: 204, access: "owner" },
  { name: "POST share-token reset", method: "POST", path: (f) => `${L(f)}/share-token/reset`, okStatus: 200, access: "owner" },
  { name: "POST suggestion-token reset", method: "POST", path: (f) => `${L(f)}/suggestion-token/reset`, okStatus: 200, access: "owner" },
];

interface Role {
  name: RoleName;
  user?: () => TestUser;
  share?: boolean;
  /** What the role holds on the list. */
  rights: { read: boolean; member: boolean; add: boolean; remove: boolean; owner: boolean; primary: boolean };
}
/** May add or remove mods: who may take a snapshot. */
const edit = (r: Role["rights"]) => r.add || r.remove;
const none = { read: false, member: false, add: false, remove: false, owner: false, primary: false };
const member = (add: boolean, remove: boolean) => ({ read: true, member: true, add, remove, owner: false, primary: false });
const roles: Role[] = [
  { name: "anonymous", rights: none },
  { name: "stranger", user: () => u.stranger!, rights: none },
  { name: "share-token holder", share: true, rights: { ...none, read: true } },
  { name: "collaborator (no flags)", user: () => u.cNone!, rights: member(false, false) },
  { name: "collaborator can_add", user: () => u.cAdd!, rights: member(true, false) },
  { name: "collaborator can_remove", user: () => u.cRemove!, rights: member(false, true) },
  { name: "collaborator can_deploy", user: () => u.cDeploy!, rights: member(false, false) },
  { name: "group member (inherited can_add)", user: () => u.gInherit!, rights: member(true, false) },
  { name: "group member (overridden: add off, remove on)", user: () => u.gOverride!, rights: member(false, true) },
  { name: "co-owner", user: () => u.coowner!, rights: { read: true, member: true, add: true, remove: true, owner: true, primary: false } },
  { name: "primary owner", user: () => u.primary!, rights: { read: true, member: true, add: true, remove: true, owner: true, primary: true } },
  { name: "admin", user: () => u.admin!, rights: none },
];

/** The status docs/collaboration.md "Who may do what" gives this role on this endpoint (private list). */
function expected(role: Role, e: Endpoint): number {
  const authed = !!role.user;
  const r = role.rights;
  const readOnly = e.method === "GET" && (e.access === "read");
  if (readOnly) return r.read ? e.okStatus : 404;
  // every other endpoint needs credentials
  if (!authed) return 401;
  if (!r.read) return 404;
  if (e.access === "auth-read") return e.okStatus;
  return (e.access === "edit" ? edit(r) : r[e.access]) ? e.okStatus : 403;
}

beforeAll(async () => {
  t = await createTestApp();
  const mk = (key: string, display_name: string, role: "user" | "admin" = "user") =>
    t.createUser({ display_name, role, email: `${key.toLowerCase()}@example.com` }).then((x) => (u[key] = x));
  await mk("primary", "Primary");
  await mk("coowner", "Co Owner");
  await mk("stranger", "Stranger");
  await mk("admin", "Admin", "admin");
  await mk("cNone", "Collab None");
  await mk("cAdd", "Collab Add");
  await mk("cRemove", "Collab Remove");
  await mk("cDeploy", "Collab Deploy");
  await mk("gInherit", "Group Inherit");
  await mk("gOverride", "Group Override");
  await mk("target", "Target");
  await mk("newbie", "Newbie");
  await mk("blocked", "Blocked");
  const p = u.primary!;
  gInherit = (await ok(t.req("POST", "/api/v1/groups", { user: p, body: { name: "Adders", can_add: true } }))).id;
  gOverride = (await ok(t.req("POST", "/api/v1/groups", { user: p, body: { name: "Overridden", can_add: true } }))).id;
  gSpare = (await ok(t.req("POST", "/api/v1/groups", { user: p, body: { name: "Spare" } }))).id;
  await ok(t.req("POST", `/api/v1/groups/${gInherit}/members`, { user: p, body: { search: u.gInherit!.email } }));
  await ok(t.req("POST", `/api/v1/groups/${gOverride}/members`, { user: p, body: { search: u.gOverride!.email } }));
  // The co-owner of the list co-owns the spare group, so it may assign it.
  await ok(t.req("POST", `/api/v1/groups/${gSpare}/owners`, { user: p, body: { search: u.coowner!.email } }));
});
afterAll(() => t.close());

describe("permission matrix (private list)", () => {
  for (const role of roles) {
    test(role.name, async () => {
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      for (const e of endpoints) {
        const f = await fixture();
        let path = e.path(f);
        if (role.share) path += `?share=${f.share}`;
        const r = await t.req(e.method, path, { user: role.user?.(), body: e.body?.(f) });
        got[e.name] = r.status;
        want[e.name] = expected(role, e);
        if (r.status >= 400) {
          const msg = { 401: "unauthorized", 403: "no permission", 404: "list not found" }[r.status as 401 | 403 | 404];
          if (msg) expect(`${e.name}: ${r.body.error}`).toBe(`${e.name}: ${msg}`);
        }
      }
      expect(got).toEqual(want);
    });
  }
});

describe("public list", () => {
  test("strangers and anonymous callers read; mutations stay 401/403; strangers may suggest and vote", async () => {
    t.clock.advance(61_000);
    const p = u.primary!;
    const l = await ok(t.req("POST", "/api/v1/lists", { user: p, body: { name: "Open", is_public: true } }));
    const base = `/api/v1/lists/${l.id}`;
    const s = await ok(t.req("POST", `${base}/suggestions`, { user: u.stranger!, body: { workshop_id: MOD_SUGGESTED } }));
    const cases: [TestUser | undefined, string, string, unknown, number][] = [
      [undefined, "GET", base, undefined, 200],
      [undefined, "GET", `${base}/form-fields`, undefined, 200],
      [undefined, "GET", `${base}/suggestions`, undefined, 401],
      [u.stranger, "GET", `${base}/suggestions`, undefined, 403],
      [u.stranger, "GET", `${base}/audit`, undefined, 403],
      [u.stranger, "GET", `${base}/collaborators`, undefined, 403],
      [u.stranger, "POST", `${base}/mods`, { workshop_id: MOD_NEW }, 403],
      [u.stranger, "PUT", base, { name: "x" }, 403],
      [u.stranger, "POST", `${base}/suggestions/${s.id}/vote`, { vote: 1 }, 200],
      [u.admin, "POST", `${base}/suggestions/${s.id}/vote`, { vote: 1 }, 200],
      [u.admin, "DELETE", base, undefined, 403],
      [u.admin, "PATCH", `${base}/suggestions/${s.id}`, { status: "accepted" }, 403],
    ];
    for (const [user, method, path, body, status] of cases) {
      const r = await t.req(method, path, { user, body });
      expect(`${method} ${path} as ${user?.display_name ?? "anonymous"}: ${r.status}`).toBe(`${method} ${path} as ${user?.display_name ?? "anonymous"}: ${status}`);
    }
  });
});

describe("snapshot rights", () => {
  /** `[label, status]` so a failing expectation names the call. */
  async function call(label: string, method: string, path: string, user?: TestUser, body?: unknown) {
    const r = await t.req(method, path, { user, body });
    return [label, r.status, r.status >= 400 ? r.body.error : undefined] as const;
  }
  const snap = async (base: string, user: TestUser, name: string) => (await ok(t.req("POST", `${base}/versions`, { user, body: { version_name: name } }))).id as string;
  const exists = (id: string) => !!t.deps.sqlite.query("SELECT 1 FROM list_snapshots WHERE id = ?").get(id);

  test("authors with an edit right (direct or through a group) rename and delete their own snapshots, nobody else's", async () => {
    const f = await fixture();
    const base = L(f);
    const authors: [string, TestUser][] = [
      ["collaborator can_add", u.cAdd!],
      ["collaborator can_remove", u.cRemove!],
      ["group member (inherited can_add)", u.gInherit!],
      ["group member (overridden: remove on)", u.gOverride!],
    ];
    const own: Record<string, string> = {};
    for (const [who, user] of authors) own[who] = await snap(base, user, who);
    const got: unknown[] = [];
    const want: unknown[] = [];
    for (const [who, user] of authors) {
      // someone else's: the owner's and the next author's
      const other = authors[(authors.findIndex(([w]) => w === who) + 1) % authors.length]![0];
      for (const [label, id] of [
        ["owner's", f.snapshotId],
        [`${other}'s`, own[other]!],
      ] as const) {
        got.push(await call(`${who} PATCH ${label}`, "PATCH", `${base}/versions/${id}`, user, { version_name: "x" }));
        want.push([`${who} PATCH ${label}`, 403, "no permission"]);
        got.push(await call(`${who} DELETE ${label}`, "DELETE", `${base}/versions/${id}`, user));
        want.push([`${who} DELETE ${label}`, 403, "no permission"]);
      }
    }
    for (const [who, user] of authors) {
      got.push(await call(`${who} PATCH own`, "PATCH", `${base}/versions/${own[who]}`, user, { version_name: `${who} renamed`, notes: "n" }));
      want.push([`${who} PATCH own`, 200, undefined]);
      got.push(await call(`${who} DELETE own`, "DELETE", `${base}/versions/${own[who]}`, user));
      want.push([`${who} DELETE own`, 204, undefined]);
    }
    expect(got).toEqual(want);
    expect(exists(f.snapshotId)).toBe(true);
    for (const id of Object.values(own)) expect(exists(id)).toBe(false);
  });

  test("owners and co-owners rename and delete a collaborator's snapshot", async () => {
    const f = await fixture();
    const base = L(f);
    const a = await snap(base, u.cAdd!, "by collaborator");
    const b = await snap(base, u.gOverride!, "by group member");
    const r = await t.req("PATCH", `${base}/versions/${a}`, { user: u.coowner!, body: { version_name: "tidied", is_release: true } });
    expect([r.status, r.body.version_name, r.body.is_release, r.body.created_by]).toEqual([200, "tidied", true, u.cAdd!.id]);
    expect((await call("co-owner DELETE", "DELETE", `${base}/versions/${a}`, u.coowner!))[1]).toBe(204);
    expect((await call("primary DELETE", "DELETE", `${base}/versions/${b}`, u.primary!))[1]).toBe(204);
    expect([exists(a), exists(b)]).toEqual([false, false]);
  });

  test("an author who lost every edit right (or the list) can no longer touch their snapshot", async () => {
    const f = await fixture();
    const base = L(f);
    const direct = await snap(base, u.cAdd!, "direct");
    const grouped = await snap(base, u.gInherit!, "grouped");
    // the owner leaves cAdd only the deploy right, and turns off the group's add right on this list
    await ok(t.req("PUT", `${base}/collaborators/${u.cAdd!.id}/permissions`, { user: u.primary!, body: { can_add: false, can_remove: false, can_deploy: true } }));
    await ok(t.req("PATCH", `${base}/groups/${gInherit}`, { user: u.primary!, body: { can_add: false } }));
    const got = [
      await call("deploy-only author POST", "POST", `${base}/versions`, u.cAdd!, {}),
      await call("deploy-only author PATCH own", "PATCH", `${base}/versions/${direct}`, u.cAdd!, { version_name: "x" }),
      await call("deploy-only author DELETE own", "DELETE", `${base}/versions/${direct}`, u.cAdd!),
      await call("group author without add PATCH own", "PATCH", `${base}/versions/${grouped}`, u.gInherit!, { version_name: "x" }),
      await call("group author without add DELETE own", "DELETE", `${base}/versions/${grouped}`, u.gInherit!),
    ];
    expect(got).toEqual([
      ["deploy-only author POST", 403, "no permission"],
      ["deploy-only author PATCH own", 403, "no permission"],
      ["deploy-only author DELETE own", 403, "no permission"],
      ["group author without add PATCH own", 403, "no permission"],
      ["group author without add DELETE own", 403, "no permission"],
    ]);
    // removed from the private list altogether: it is not theirs to see any more
    await ok(t.req("DELETE", `${base}/collaborators/${u.cAdd!.id}`, { user: u.primary! }), 204);
    expect(await call("removed author DELETE own", "DELETE", `${base}/versions/${direct}`, u.cAdd!)).toEqual(["removed author DELETE own", 404, "list not found"]);
    expect([exists(direct), exists(grouped)]).toEqual([true, true]);
    // the right given back, the author may again
    await ok(t.req("PATCH", `${base}/groups/${gInherit}`, { user: u.primary!, body: { can_add: null } }));
    expect((await call("group author again DELETE own", "DELETE", `${base}/versions/${grouped}`, u.gInherit!))[1]).toBe(204);
  });

  test("share-link readers, strangers, anonymous callers and admins read at most; unknown snapshots are 404 only to editors", async () => {
    const f = await fixture();
    const base = L(f);
    const s = `?share=${f.share}`;
    const id = f.snapshotId;
    const got = [
      await call("signed-in share reader GET", "GET", `${base}/versions${s}`, u.stranger!),
      await call("signed-in share reader POST", "POST", `${base}/versions${s}`, u.stranger!, {}),
      await call("signed-in share reader PATCH", "PATCH", `${base}/versions/${id}${s}`, u.stranger!, { version_name: "x" }),
      await call("signed-in share reader DELETE", "DELETE", `${base}/versions/${id}${s}`, u.stranger!),
      await call("anonymous share reader DELETE", "DELETE", `${base}/versions/${id}${s}`),
      await call("stranger DELETE", "DELETE", `${base}/versions/${id}`, u.stranger!),
      await call("admin DELETE", "DELETE", `${base}/versions/${id}`, u.admin!),
      await call("no-rights collaborator DELETE unknown", "DELETE", `${base}/versions/01900000-0000-7000-8000-000000000000`, u.cNone!),
      await call("editor DELETE unknown", "DELETE", `${base}/versions/01900000-0000-7000-8000-000000000000`, u.cAdd!),
      await call("owner DELETE unknown", "DELETE", `${base}/versions/01900000-0000-7000-8000-000000000000`, u.primary!),
    ];
    expect(got).toEqual([
      ["signed-in share reader GET", 200, undefined],
      ["signed-in share reader POST", 403, "no permission"],
      ["signed-in share reader PATCH", 403, "no permission"],
      ["signed-in share reader DELETE", 403, "no permission"],
      ["anonymous share reader DELETE", 401, "unauthorized"],
      ["stranger DELETE", 404, "list not found"],
      ["admin DELETE", 404, "list not found"],
      ["no-rights collaborator DELETE unknown", 403, "no permission"],
      ["editor DELETE unknown", 404, "snapshot not found"],
      ["owner DELETE unknown", 404, "snapshot not found"],
    ]);
    // another list's snapshot through this list's path is unknown here, even to its owner
    const other = await fixture();
    expect(await call("owner DELETE via other list", "DELETE", `${base}/versions/${other.snapshotId}`, u.primary!)).toEqual(["owner DELETE via other list", 404, "snapshot not found"]);
    expect([exists(id), exists(other.snapshotId)]).toEqual([true, true]);
  });

  test("public list: strangers and admins read snapshots and get 403 on every change", async () => {
    t.clock.advance(61_000);
    const l = await ok(t.req("POST", "/api/v1/lists", { user: u.primary!, body: { name: "Open history", is_public: true } }));
    const base = `/api/v1/lists/${l.id}`;
    const id = await snap(base, u.primary!, "v1");
    const got = [];
    for (const [who, user] of [
      ["stranger", u.stranger!],
      ["admin", u.admin!],
    ] as const) {
      got.push(await call(`${who} GET`, "GET", `${base}/versions/${id}`, user));
      got.push(await call(`${who} POST`, "POST", `${base}/versions`, user, {}));
      got.push(await call(`${who} PATCH`, "PATCH", `${base}/versions/${id}`, user, { version_name: "x" }));
      got.push(await call(`${who} DELETE`, "DELETE", `${base}/versions/${id}`, user));
    }
    got.push(await call("anonymous GET", "GET", `${base}/versions`));
    got.push(await call("anonymous DELETE", "DELETE", `${base}/versions/${id}`));
    expect(got).toEqual([
      ["stranger GET", 200, undefined],
      ["stranger POST", 403, "no permission"],
      ["stranger PATCH", 403, "no permission"],
      ["stranger DELETE", 403, "no permission"],
      ["admin GET", 200, undefined],
      ["admin POST", 403, "no permission"],
      ["admin PATCH", 403, "no permission"],
      ["admin DELETE", 403, "no permission"],
      ["anonymous GET", 200, undefined],
      ["anonymous DELETE", 401, "unauthorized"],
    ]);
  });
});
