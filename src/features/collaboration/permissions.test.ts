// The permission matrix of issue 5: every role × every list endpoint we can reach, on a
// private list, against the real app. Each cell runs on a fresh list carrying every grant
// (co-owner, collaborators with each flag, two groups: one inherited, one overridden), so
// destructive calls (DELETE list, DELETE group) cannot disturb other cells.
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
  return { listId: id, share: l.share_token, suggestionId: s.id, fieldId: field.id };
}

interface Endpoint {
  name: string;
  method: string;
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  /** Status on success. */
  okStatus: number;
  /** Who may call it, among callers who can see the list. */
  access: "read" | "member" | "add" | "remove" | "owner" | "primary" | "auth-read";
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

/** The status the spec and decisions.md give this role on this endpoint (private list). */
function expected(role: Role, e: Endpoint): number {
  const authed = !!role.user;
  const r = role.rights;
  const readOnly = e.method === "GET" && (e.access === "read");
  if (readOnly) return r.read ? e.okStatus : 404;
  // every other endpoint needs credentials
  if (!authed) return 401;
  if (!r.read) return 404;
  if (e.access === "auth-read") return e.okStatus;
  return r[e.access] ? e.okStatus : 403;
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
