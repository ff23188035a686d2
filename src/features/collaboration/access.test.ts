// Focused test of the one permission model (src/features/lists/access.ts) on a real migrated
// database: rows are written directly, resolveListAccess and the require* guards are called.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../../../test/helpers";
import {
  requireListEdit,
  requireListMember,
  requireListOwner,
  requireListPrimary,
  requireListRead,
  requireListRight,
  requireSnapshotManage,
  resolveListAccess,
  type ListAccess,
} from "../lists/access";

let t: TestApp;
const U: Record<string, string> = {};
let n = 0;

const run = (sql: string, ...args: any[]) => t.deps.sqlite.query(sql).run(...args);

function list(isPublic = false): { id: string; share: string; sugg: string } {
  const id = `list-${++n}`;
  const share = `share-${n}`;
  const sugg = `sugg-${n}`;
  run(
    "INSERT INTO lists (id, owner_id, name, is_public, share_token, suggestion_token, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, 0)",
    id,
    U.primary,
    `L${n}`,
    isPublic ? 1 : 0,
    share,
    sugg,
  );
  return { id, share, sugg };
}
const collab = (listId: string, user: string, add: boolean, remove: boolean, deploy: boolean) =>
  run("INSERT INTO list_collaborators (list_id, user_id, can_add, can_remove, can_deploy, added_at) VALUES (?, ?, ?, ?, ?, 0)", listId, user, +add, +remove, +deploy);
function group(add: boolean, remove: boolean, deploy: boolean, members: string[]): string {
  const id = `group-${++n}`;
  run("INSERT INTO permission_groups (id, owner_id, name, can_add, can_remove, can_deploy, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, 0)", id, U.primary, id, +add, +remove, +deploy);
  for (const m of members) run("INSERT INTO group_members (group_id, user_id, added_at) VALUES (?, ?, 0)", id, m);
  return id;
}
const assign = (listId: string, groupId: string, o: { add?: boolean | null; remove?: boolean | null; deploy?: boolean | null } = {}) => {
  const f = (v: boolean | null | undefined) => (v == null ? null : +v);
  run("INSERT INTO list_groups (list_id, group_id, can_add, can_remove, can_deploy, added_at) VALUES (?, ?, ?, ?, ?, 0)", listId, groupId, f(o.add), f(o.remove), f(o.deploy));
};

const access = (listId: string, user: string | null, share?: string) => resolveListAccess(t.deps, listId, user ? { id: user } : null, share);
const flags = (a: ListAccess | null) =>
  a && { read: a.canRead, add: a.canAdd, remove: a.canRemove, deploy: a.canDeploy, owner: a.isOwner, primary: a.isPrimary, collab: a.isCollaborator, share: a.viaShare };
function status(fn: () => unknown): number {
  try {
    fn();
    return 200;
  } catch (e: any) {
    return e.status ?? 500;
  }
}

beforeAll(async () => {
  t = await createTestApp();
  for (const k of ["primary", "coowner", "direct", "grouped", "both", "stranger"]) U[k] = (await t.createUser({ display_name: k })).id;
});
afterAll(() => t.close());

describe("resolveListAccess", () => {
  test("unknown list is null, and every guard answers 404 list not found", () => {
    expect(access("nope", U.primary!)).toBeNull();
    for (const g of [requireListRead, requireListOwner, requireListPrimary, requireListMember, (a: ListAccess | null) => requireListRight(a, "add")]) {
      expect(status(() => g(null))).toBe(404);
    }
  });

  test("private list: owners, share token, strangers", () => {
    const l = list();
    run("INSERT INTO list_owners (list_id, user_id, added_at) VALUES (?, ?, 0)", l.id, U.coowner);
    const all = { read: true, add: true, remove: true, deploy: true, owner: true, collab: false, share: false };
    expect(flags(access(l.id, U.primary!))).toEqual({ ...all, primary: true });
    expect(flags(access(l.id, U.coowner!))).toEqual({ ...all, primary: false });
    const nothing = { read: false, add: false, remove: false, deploy: false, owner: false, primary: false, collab: false, share: false };
    expect(flags(access(l.id, U.stranger!))).toEqual(nothing);
    expect(flags(access(l.id, null))).toEqual(nothing);
    expect(flags(access(l.id, null, "wrong"))).toEqual(nothing);
    // the suggestion token is not a share token
    expect(flags(access(l.id, null, l.sugg))).toEqual(nothing);
    expect(flags(access(l.id, null, l.share))).toEqual({ ...nothing, read: true, share: true });
    expect(flags(access(l.id, U.stranger!, l.share))).toEqual({ ...nothing, read: true, share: true });
    // an owner holding the share token is not "via share"
    expect(access(l.id, U.primary!, l.share)!.viaShare).toBe(false);
  });

  test("public list: everyone reads, nobody else gets rights", () => {
    const l = list(true);
    expect(flags(access(l.id, null))).toMatchObject({ read: true, add: false, owner: false, share: false });
    expect(flags(access(l.id, U.stranger!))).toMatchObject({ read: true, add: false, remove: false, deploy: false });
    expect(flags(access(l.id, null, l.share))!.share).toBe(false);
  });

  test("direct collaborator: exactly the flags granted", () => {
    const l = list();
    collab(l.id, U.direct!, false, true, false);
    expect(flags(access(l.id, U.direct!))).toEqual({ read: true, add: false, remove: true, deploy: false, owner: false, primary: false, collab: true, share: false });
  });

  test("group member: defaults inherited (null), overridden either way", () => {
    const lInherit = list();
    const lOverride = list();
    const g = group(true, false, true, [U.grouped!]);
    assign(lInherit.id, g);
    assign(lOverride.id, g, { add: false, remove: true, deploy: null });
    expect(flags(access(lInherit.id, U.grouped!))).toMatchObject({ read: true, add: true, remove: false, deploy: true, collab: true, owner: false });
    expect(flags(access(lOverride.id, U.grouped!))).toMatchObject({ read: true, add: false, remove: true, deploy: true, collab: true });
    // a group not assigned to a list gives nothing there; a non-member gets nothing from it
    const other = list();
    expect(flags(access(other.id, U.grouped!))!.read).toBe(false);
    expect(flags(access(lInherit.id, U.stranger!))!.read).toBe(false);
  });

  test("effective rights are the union of the direct grant and every group grant", () => {
    const l = list();
    collab(l.id, U.both!, true, false, false);
    const g1 = group(false, true, false, [U.both!]);
    const g2 = group(false, false, false, [U.both!]);
    assign(l.id, g1);
    assign(l.id, g2, { deploy: true });
    expect(flags(access(l.id, U.both!))).toMatchObject({ add: true, remove: true, deploy: true, collab: true });
    // an override of false on one group does not take away what another grant gives
    run("UPDATE list_groups SET can_remove = 0 WHERE list_id = ? AND group_id = ?", l.id, g1);
    expect(flags(access(l.id, U.both!))).toMatchObject({ add: true, remove: false, deploy: true });
    run("UPDATE list_groups SET can_add = 0 WHERE list_id = ? AND group_id = ?", l.id, g2);
    expect(flags(access(l.id, U.both!))!.add).toBe(true); // still the direct grant
  });

  test("access is computed live: removing the assignment or deleting the group ends it", () => {
    const l = list();
    const g = group(true, true, true, [U.grouped!]);
    assign(l.id, g);
    expect(access(l.id, U.grouped!)!.canRead).toBe(true);
    run("DELETE FROM list_groups WHERE list_id = ? AND group_id = ?", l.id, g);
    expect(flags(access(l.id, U.grouped!))).toMatchObject({ read: false, add: false, collab: false });
    assign(l.id, g);
    expect(access(l.id, U.grouped!)!.canAdd).toBe(true);
    run("DELETE FROM permission_groups WHERE id = ?", g);
    expect(flags(access(l.id, U.grouped!))).toMatchObject({ read: false, add: false, collab: false });
  });
});

describe("guards", () => {
  test("statuses per role", () => {
    const l = list();
    run("INSERT INTO list_owners (list_id, user_id, added_at) VALUES (?, ?, 0)", l.id, U.coowner);
    collab(l.id, U.direct!, false, false, true);
    const cases: [string, ListAccess | null, Record<string, number>][] = [
      ["anonymous", access(l.id, null), { read: 404, owner: 404, primary: 404, member: 404, add: 404, deploy: 404 }],
      ["share holder", access(l.id, null, l.share), { read: 200, owner: 401, primary: 401, member: 401, add: 401, deploy: 401 }],
      ["stranger with share", access(l.id, U.stranger!, l.share), { read: 200, owner: 403, primary: 403, member: 403, add: 403, deploy: 403 }],
      ["stranger", access(l.id, U.stranger!), { read: 404, owner: 404, primary: 404, member: 404, add: 404, deploy: 404 }],
      ["deploy collaborator", access(l.id, U.direct!), { read: 200, owner: 403, primary: 403, member: 200, add: 403, deploy: 200 }],
      ["co-owner", access(l.id, U.coowner!), { read: 200, owner: 200, primary: 403, member: 200, add: 200, deploy: 200 }],
      ["primary", access(l.id, U.primary!), { read: 200, owner: 200, primary: 200, member: 200, add: 200, deploy: 200 }],
    ];
    for (const [who, a, want] of cases) {
      const got = {
        read: status(() => requireListRead(a)),
        owner: status(() => requireListOwner(a)),
        primary: status(() => requireListPrimary(a)),
        member: status(() => requireListMember(a)),
        add: status(() => requireListRight(a, "add")),
        deploy: status(() => requireListRight(a, "deploy")),
      };
      expect({ who, ...got } as Record<string, unknown>).toEqual({ who, ...want });
    }
  });

  test("snapshots: taking one needs add or remove; renaming or deleting, an owner or the author with an edit right", () => {
    const l = list();
    run("INSERT INTO list_owners (list_id, user_id, added_at) VALUES (?, ?, 0)", l.id, U.coowner);
    collab(l.id, U.direct!, false, true, false);
    collab(l.id, U.both!, false, false, true);
    assign(l.id, group(true, false, false, [U.grouped!]));
    // [who, access, take, manage the primary's snapshot, manage own snapshot]
    const cases: [string, ListAccess | null, number, number, number][] = [
      ["primary", access(l.id, U.primary!), 200, 200, 200],
      ["co-owner", access(l.id, U.coowner!), 200, 200, 200],
      ["remove-only collaborator", access(l.id, U.direct!), 200, 403, 200],
      ["group member with add", access(l.id, U.grouped!), 200, 403, 200],
      ["deploy-only collaborator", access(l.id, U.both!), 403, 403, 403],
      ["stranger with share", access(l.id, U.stranger!, l.share), 403, 403, 403],
      ["share holder", access(l.id, null, l.share), 401, 401, 401],
      ["stranger", access(l.id, U.stranger!), 404, 404, 404],
    ];
    const manage = (a: ListAccess | null, author: string | null) => status(() => requireSnapshotManage(requireListEdit(a), author));
    const got = cases.map(([who, a]) => [who, status(() => requireListEdit(a)), manage(a, U.primary!), manage(a, a?.userId ?? null)]);
    expect(got).toEqual(cases.map(([who, , ...want]) => [who, ...want]));
    // a snapshot with no recorded author (created_by null) is the owners' alone
    expect([manage(access(l.id, U.direct!), null), manage(access(l.id, U.coowner!), null)]).toEqual([403, 200]);
  });
});
