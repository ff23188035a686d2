// Groups, collaborators and co-owners through the real app: adding people by search, the
// group roles (primary vs co-owner), per-list overrides with effective flags, and access that
// ends the moment a group is deleted or taken off a list.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";

const MOD = "AAAAAAAAAAAAAAAA";
const MOD2 = "BBBBBBBBBBBBBBBB";

let t: TestApp;
let owner: TestUser, coGroup: TestUser, member: TestUser, other: TestUser, twinA: TestUser, twinB: TestUser, stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ display_name: "Owner", email: "owner@example.com" });
  coGroup = await t.createUser({ display_name: "Group Helper", email: "helper@example.com" });
  member = await t.createUser({ display_name: "Member", email: "member@example.com" });
  other = await t.createUser({ display_name: "Other", email: "other@example.com" });
  twinA = await t.createUser({ display_name: "Twin", email: "twin-a@example.com" });
  twinB = await t.createUser({ display_name: "twin", email: "twin-b@example.com" });
  stranger = await t.createUser({ display_name: "Stranger", email: "stranger@example.com" });
});
afterAll(() => t.close());

async function privateList(name = "Private") {
  const r = await t.req("POST", "/api/v1/lists", { user: owner, body: { name, is_public: false } });
  expect(r.status).toBe(200);
  return r.body.id as string;
}

describe("adding people by search", () => {
  test("collaborators: e-mail or display name, unknown 404, ambiguous 409, duplicate 409", async () => {
    const id = await privateList();
    const url = `/api/v1/lists/${id}/collaborators`;
    const byMail = await t.req("POST", url, { user: owner, body: { search: "  MEMBER@example.com " } });
    expect(byMail.status).toBe(200);
    expect(byMail.body).toMatchObject({ user_id: member.id, display_name: "Member", can_add: true, can_remove: false, can_deploy: false });
    expect(typeof byMail.body.added_at).toBe("string");
    const byName = await t.req("POST", url, { user: owner, body: { search: "other", can_remove: true } });
    expect(byName.status).toBe(200);
    expect(byName.body).toMatchObject({ user_id: other.id, can_add: true, can_remove: true });

    const unknown = await t.req("POST", url, { user: owner, body: { search: "Nobody At All" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("user not found");
    const ambiguous = await t.req("POST", url, { user: owner, body: { search: "Twin" } });
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body.error).toBe(`several users are named "Twin": use their e-mail address`);
    expect((await t.req("POST", url, { user: owner, body: { search: "twin-b@example.com" } })).status).toBe(200);
    const dup = await t.req("POST", url, { user: owner, body: { search: "Member" } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe("user is already a collaborator");
    expect((await t.req("POST", url, { user: owner, body: { search: "Owner" } })).status).toBe(409);
    const empty = await t.req("POST", url, { user: owner, body: { search: "  " } });
    expect(empty.status).toBe(400);

    const list = await t.req("GET", url, { user: member });
    expect(list.status).toBe(200);
    expect(list.body.collaborators.map((c: any) => c.user_id)).toEqual([member.id, other.id, twinB.id]);

    const upd = await t.req("PUT", `${url}/${member.id}/permissions`, { user: owner, body: { can_deploy: true } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ can_add: true, can_remove: false, can_deploy: true });
    expect((await t.req("PUT", `${url}/${stranger.id}/permissions`, { user: owner, body: { can_add: true } })).status).toBe(404);
    expect((await t.req("DELETE", `${url}/${twinB.id}`, { user: owner })).status).toBe(204);
    expect((await t.req("DELETE", `${url}/${twinB.id}`, { user: owner })).status).toBe(404);
    expect((await t.req("GET", `/api/v1/lists/${id}`, { user: twinB })).status).toBe(404);
  });

  test("flag changes take effect on the next request", async () => {
    const id = await privateList();
    await t.req("POST", `/api/v1/lists/${id}/collaborators`, { user: owner, body: { search: "Member", can_add: false } });
    expect((await t.req("POST", `/api/v1/lists/${id}/mods`, { user: member, body: { workshop_id: MOD } })).status).toBe(403);
    await t.req("PUT", `/api/v1/lists/${id}/collaborators/${member.id}/permissions`, { user: owner, body: { can_add: true } });
    expect((await t.req("POST", `/api/v1/lists/${id}/mods`, { user: member, body: { workshop_id: MOD } })).status).toBe(200);
  });

  test("co-owners of a list: primary adds and removes; co-owner lists them but cannot manage them", async () => {
    const id = await privateList();
    const url = `/api/v1/lists/${id}/owners`;
    const add = await t.req("POST", url, { user: owner, body: { search: "helper@example.com" } });
    expect(add.status).toBe(200);
    expect(add.body).toMatchObject({ user_id: coGroup.id, display_name: "Group Helper" });
    expect((await t.req("POST", url, { user: owner, body: { search: "Group Helper" } })).status).toBe(409);
    expect((await t.req("POST", url, { user: owner, body: { search: "Owner" } })).status).toBe(409);
    const got = await t.req("GET", url, { user: coGroup });
    expect(got.status).toBe(200);
    expect(got.body.owners).toEqual([{ user_id: coGroup.id, display_name: "Group Helper", added_at: add.body.added_at }]);
    expect((await t.req("POST", url, { user: coGroup, body: { search: "Member" } })).status).toBe(403);
    expect((await t.req("DELETE", `${url}/${coGroup.id}`, { user: coGroup })).status).toBe(403);
    // a co-owner manages collaborators
    expect((await t.req("POST", `/api/v1/lists/${id}/collaborators`, { user: coGroup, body: { search: "Member" } })).status).toBe(200);
    expect((await t.req("DELETE", `${url}/${coGroup.id}`, { user: owner })).status).toBe(204);
    expect((await t.req("DELETE", `${url}/${coGroup.id}`, { user: owner })).status).toBe(404);
    expect((await t.req("GET", url, { user: coGroup })).status).toBe(404);
  });
});

describe("groups", () => {
  let groupId: string;

  test("create; GET /groups shows primary-owned and co-owned groups with is_primary_owner", async () => {
    const r = await t.req("POST", "/api/v1/groups", { user: owner, body: { name: "Mod team", description: "helpers", can_add: true } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: "Mod team", description: "helpers", can_add: true, can_remove: false, can_deploy: false, is_primary_owner: true, member_count: 0 });
    groupId = r.body.id;
    const bad = await t.req("POST", "/api/v1/groups", { user: owner, body: { name: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("name: must be 1 to 100 characters");
    expect((await t.req("POST", "/api/v1/groups", { body: { name: "x" } })).status).toBe(401);

    expect((await t.req("POST", `/api/v1/groups/${groupId}/owners`, { user: owner, body: { search: "Group Helper" } })).status).toBe(200);
    const mine = await t.req("GET", "/api/v1/groups", { user: owner });
    expect(mine.body.groups.map((g: any) => [g.id, g.is_primary_owner])).toEqual([[groupId, true]]);
    const theirs = await t.req("GET", "/api/v1/groups", { user: coGroup });
    expect(theirs.body.groups.map((g: any) => [g.id, g.is_primary_owner])).toEqual([[groupId, false]]);
    expect((await t.req("GET", "/api/v1/groups", { user: stranger })).body.groups).toEqual([]);
  });

  test("co-owners manage members; only the primary renames, deletes or manages co-owners", async () => {
    const g = `/api/v1/groups/${groupId}`;
    const add = await t.req("POST", `${g}/members`, { user: coGroup, body: { search: "Member" } });
    expect(add.status).toBe(200);
    expect(add.body).toMatchObject({ user_id: member.id, display_name: "Member" });
    expect((await t.req("POST", `${g}/members`, { user: owner, body: { search: "member@example.com" } })).status).toBe(409);
    expect((await t.req("POST", `${g}/members`, { user: coGroup, body: { search: "Other" } })).status).toBe(200);
    expect((await t.req("DELETE", `${g}/members/${other.id}`, { user: coGroup })).status).toBe(204);
    expect((await t.req("DELETE", `${g}/members/${other.id}`, { user: coGroup })).status).toBe(404);
    const members = await t.req("GET", `${g}/members`, { user: coGroup });
    expect(members.body.members.map((x: any) => x.user_id)).toEqual([member.id]);
    const owners = await t.req("GET", `${g}/owners`, { user: coGroup });
    expect(owners.body.owners.map((x: any) => x.user_id)).toEqual([coGroup.id]);

    expect((await t.req("PUT", g, { user: coGroup, body: { name: "Renamed" } })).status).toBe(403);
    expect((await t.req("DELETE", g, { user: coGroup })).status).toBe(403);
    expect((await t.req("POST", `${g}/owners`, { user: coGroup, body: { search: "Other" } })).status).toBe(403);
    expect((await t.req("DELETE", `${g}/owners/${coGroup.id}`, { user: coGroup })).status).toBe(403);
    expect((await t.req("POST", `${g}/assign_community`, { user: coGroup, body: { community_id: "" } })).status).toBe(403);
    // a member knows the group (it grants them rights) but may not manage it: 403 (spec rule
    // 7); a stranger does not see it at all: 404
    for (const [who, status] of [[member, 403], [stranger, 404]] as const) {
      expect((await t.req("GET", `${g}/members`, { user: who })).status).toBe(status);
      expect((await t.req("PUT", g, { user: who, body: { name: "x" } })).status).toBe(status);
    }
    expect((await t.req("GET", `${g}/members`)).status).toBe(401);

    expect((await t.req("PUT", g, { user: owner, body: { name: "Renamed", can_remove: true } })).status).toBe(204);
    const one = await t.req("GET", g, { user: coGroup });
    expect(one.body).toMatchObject({ name: "Renamed", description: "helpers", can_add: true, can_remove: true, member_count: 1, is_primary_owner: false });
    await t.req("PUT", g, { user: owner, body: { can_remove: false } });
    expect((await t.req("POST", `${g}/owners`, { user: owner, body: { search: "Owner" } })).status).toBe(409);
    expect((await t.req("POST", `${g}/owners`, { user: owner, body: { search: "Group Helper" } })).status).toBe(409);
  });

  test("a plain member knows the group: managing it is 403 no permission; a stranger gets 404", async () => {
    const g = await t.req("POST", "/api/v1/groups", { user: owner, body: { name: "Known to members", can_add: true } });
    expect((await t.req("POST", `/api/v1/groups/${g.body.id}/members`, { user: owner, body: { search: "member@example.com" } })).status).toBe(200);
    for (const [method, path, body] of [
      ["POST", `/api/v1/groups/${g.body.id}/members`, { search: "other@example.com" }],
      ["GET", `/api/v1/groups/${g.body.id}/members`, undefined],
      ["PUT", `/api/v1/groups/${g.body.id}`, { name: "Renamed" }],
      ["DELETE", `/api/v1/groups/${g.body.id}`, undefined],
    ] as const) {
      const asMember = await t.req(method, path, { user: member, body });
      expect({ method, path, status: asMember.status, body: asMember.body }).toEqual({ method, path, status: 403, body: { error: "no permission", code: "group.forbidden" } });
      const asStranger = await t.req(method, path, { user: stranger, body });
      expect({ method, path, status: asStranger.status }).toEqual({ method, path, status: 404 });
    }
    const members = await t.req("GET", `/api/v1/groups/${g.body.id}/members`, { user: owner });
    expect(members.body.members.map((m: any) => m.user_id)).toEqual([member.id]);
  });

  test("assign to a community the caller belongs to", async () => {
    const c = await t.req("POST", "/api/v1/communities", { user: owner, body: { name: "Unit", description: "" } });
    const g = `/api/v1/groups/${groupId}/assign_community`;
    expect(c.status).toBe(200);
    const cid = c.body.community_id ?? c.body.id;
    const r = await t.req("POST", g, { user: owner, body: { community_id: cid } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, community_id: cid });
    expect((await t.req("GET", `/api/v1/groups/${groupId}`, { user: owner })).body.community_id).toBe(cid);
    // a community the caller does not belong to is not found
    const theirs = await t.req("POST", "/api/v1/communities", { user: stranger, body: { name: "Theirs", description: "" } });
    expect(theirs.status).toBe(200);
    const foreign = await t.req("POST", g, { user: owner, body: { community_id: theirs.body.community_id ?? theirs.body.id } });
    expect(foreign.status).toBe(404);
    const unknown = await t.req("POST", g, { user: owner, body: { community_id: "01234567-89ab-7def-8123-456789abcdef" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("community not found");
    expect((await t.req("POST", g, { user: owner, body: { community_id: "nope" } })).status).toBe(400);
    const un = await t.req("POST", g, { user: owner, body: { community_id: "" } });
    expect(un.body).toEqual({ ok: true, community_id: null });
  });

  test("on a list: effective flags, overrides, null resets, and access computed live", async () => {
    const id = await privateList("Grouped");
    const lg = `/api/v1/lists/${id}/groups`;
    expect((await t.req("GET", `/api/v1/lists/${id}`, { user: member })).status).toBe(404);

    const a = await t.req("POST", lg, { user: owner, body: { group_id: groupId } });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      group_id: groupId,
      can_add: true,
      can_remove: false,
      can_deploy: false,
      overrides: { can_add: null, can_remove: null, can_deploy: null },
      defaults: { can_add: true, can_remove: false, can_deploy: false },
      member_count: 1,
    });
    expect((await t.req("POST", lg, { user: owner, body: { group_id: groupId } })).status).toBe(409);
    // someone else's group cannot be assigned (or probed)
    const foreign = await t.req("POST", "/api/v1/groups", { user: stranger, body: { name: "Foreign", can_add: true } });
    const f = await t.req("POST", lg, { user: owner, body: { group_id: foreign.body.id } });
    expect(f.status).toBe(404);
    expect(f.body.error).toBe("group not found");

    // inherited: member sees the list and may add
    expect((await t.req("GET", `/api/v1/lists/${id}`, { user: member })).status).toBe(200);
    expect((await t.req("POST", `/api/v1/lists/${id}/mods`, { user: member, body: { workshop_id: MOD } })).status).toBe(200);
    expect((await t.req("DELETE", `/api/v1/lists/${id}/mods/${MOD}`, { user: member })).status).toBe(403);

    // override: add off, remove on
    const p = await t.req("PATCH", `${lg}/${groupId}`, { user: owner, body: { can_add: false, can_remove: true } });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ can_add: false, can_remove: true, overrides: { can_add: false, can_remove: true, can_deploy: null } });
    expect((await t.req("POST", `/api/v1/lists/${id}/mods`, { user: member, body: { workshop_id: MOD2 } })).status).toBe(403);
    expect((await t.req("DELETE", `/api/v1/lists/${id}/mods/${MOD}`, { user: member })).status).toBe(204);

    // null resets add to the default; absent remove stays overridden
    const reset = await t.req("PATCH", `${lg}/${groupId}`, { user: owner, body: { can_add: null } });
    expect(reset.body).toMatchObject({ can_add: true, can_remove: true, overrides: { can_add: null, can_remove: true, can_deploy: null } });
    const listed = await t.req("GET", lg, { user: owner });
    expect(listed.body.groups).toEqual([reset.body]);

    // a group default changed later flows through inherited flags at once
    await t.req("PUT", `/api/v1/groups/${groupId}`, { user: owner, body: { can_add: false } });
    expect((await t.req("GET", lg, { user: owner })).body.groups[0].can_add).toBe(false);
    expect((await t.req("POST", `/api/v1/lists/${id}/mods`, { user: member, body: { workshop_id: MOD2 } })).status).toBe(403);
    await t.req("PUT", `/api/v1/groups/${groupId}`, { user: owner, body: { can_add: true } });

    // removing a member ends their access; adding back restores it
    await t.req("DELETE", `/api/v1/groups/${groupId}/members/${member.id}`, { user: owner });
    expect((await t.req("GET", `/api/v1/lists/${id}`, { user: member })).status).toBe(404);
    await t.req("POST", `/api/v1/groups/${groupId}/members`, { user: owner, body: { search: "Member" } });
    expect((await t.req("GET", `/api/v1/lists/${id}`, { user: member })).status).toBe(200);

    // removing the group from the list ends the access it gave, at once
    expect((await t.req("DELETE", `${lg}/${groupId}`, { user: owner })).status).toBe(204);
    expect((await t.req("DELETE", `${lg}/${groupId}`, { user: owner })).status).toBe(404);
    expect((await t.req("GET", `/api/v1/lists/${id}`, { user: member })).status).toBe(404);
    expect((await t.req("POST", `/api/v1/lists/${id}/mods`, { user: member, body: { workshop_id: MOD2 } })).status).toBe(404);
  });

  test("deleting a group ends the access it gave on every list, at once", async () => {
    const l1 = await privateList("One");
    const l2 = await privateList("Two");
    for (const id of [l1, l2]) expect((await t.req("POST", `/api/v1/lists/${id}/groups`, { user: owner, body: { group_id: groupId } })).status).toBe(200);
    for (const id of [l1, l2]) expect((await t.req("GET", `/api/v1/lists/${id}/audit`, { user: member })).status).toBe(200);
    expect((await t.req("DELETE", `/api/v1/groups/${groupId}`, { user: owner })).status).toBe(204);
    for (const id of [l1, l2]) {
      expect((await t.req("GET", `/api/v1/lists/${id}`, { user: member })).status).toBe(404);
      expect((await t.req("GET", `/api/v1/lists/${id}/groups`, { user: owner })).body.groups).toEqual([]);
    }
    expect((await t.req("GET", "/api/v1/groups", { user: coGroup })).body.groups).toEqual([]);
    expect((await t.req("DELETE", `/api/v1/groups/${groupId}`, { user: owner })).status).toBe(404);
  });
});
