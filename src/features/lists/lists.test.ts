import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";
import { addMods, itemsOf, makeList, seedMods, wid } from "../../../test/lists-kit";

let t: TestApp;
let owner: TestUser;
let other: TestUser;
const A = wid(1),
  B = wid(2),
  C = wid(3),
  D = wid(4),
  UNKNOWN = "0123456789ABCDEF";

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.createUser({ display_name: "Owner" });
  other = await t.createUser({ display_name: "Other" });
  seedMods(t, [
    { id: A, name: "Alpha", version: "1.1.0", versions: ["1.0.0", "1.1.0"], size: 100, deps: [B] },
    { id: B, name: "Bravo", version: "2.0.0", size: 200, deps: [C] },
    { id: C, name: "Charlie", version: "3.0.0", size: 300, deps: [A] }, // cycle A → B → C → A
    { id: D, name: "Delta", version: "4.0.0", size: 400, updatedAt: Date.UTC(2020, 0, 1) },
  ]);
});
afterAll(() => t.close());

const jobsFor = (id: string) =>
  t.deps.sqlite.query("SELECT type, payload, dedupe_key FROM jobs WHERE type = 'scrape.detail' AND dedupe_key = ?").all(`scrape:${id}`) as { payload: string }[];

describe("lists CRUD", () => {
  test("create returns id and both tokens; 401 without credentials; 400 on a bad name", async () => {
    const r = await t.req("POST", "/api/v1/lists", { user: owner, body: { name: "  Ops night ", description: "d", is_public: true } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["id", "share_token", "suggestion_token"]);
    expect(r.body.share_token).toMatch(/^[0-9a-f-]{36}$/);
    expect((await t.req("POST", "/api/v1/lists", { body: { name: "x" } })).status).toBe(401);
    const bad = await t.req("POST", "/api/v1/lists", { user: owner, body: { name: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain("name");
  });

  test("detail is flat with items, tags, dependency_tree, missing_dependencies", async () => {
    const l = await makeList(t, owner, { name: "Detail" });
    await addMods(t, owner, l.id, [A, D]);
    const r = await t.req("GET", `/api/v1/lists/${l.id}`, { user: owner });
    expect(r.status).toBe(200);
    const d = r.body;
    for (const k of ["id", "name", "description", "is_public", "owner_id", "share_token", "suggestion_token", "require_deploy_approval", "community_id", "folder_id", "max_mod_age_days", "mod_count", "total_size_bytes", "created_at", "updated_at", "items", "tags", "dependency_tree", "missing_dependencies"])
      expect(d).toHaveProperty(k);
    expect(d.mod_count).toBe(2);
    expect(d.total_size_bytes).toBe(500);
    expect(d.items[0]).toEqual({
      workshop_id: A,
      name: "Alpha",
      version: "1.1.0",
      pinned_version: null,
      size_bytes: 100,
      image_url: null,
      position: 0,
      added_at: new Date(t.clock.now()).toISOString(),
      added_by: { user_id: owner.id, display_name: "Owner" },
      mod_updated_at: expect.any(String),
      too_old: false,
      required: true,
      required_stated: null,
    });
    // The age rule's clock: Delta's newest version dates from 2020.
    expect(d.items[1].mod_updated_at).toBe("2020-01-01T00:00:00.000Z");
    // A → B → C → (A cut)
    expect(d.dependency_tree[0]).toEqual({
      workshop_id: A,
      name: "Alpha",
      dependencies: [{ workshop_id: B, name: "Bravo", dependencies: [{ workshop_id: C, name: "Charlie", dependencies: [{ workshop_id: A, name: "Alpha", dependencies: [] }] }] }],
    });
    expect(d.dependency_tree[1]).toEqual({ workshop_id: D, name: "Delta", dependencies: [] });
    expect(d.missing_dependencies).toEqual([
      { workshop_id: B, name: "Bravo", required_by: [A] },
      { workshop_id: C, name: "Charlie", required_by: [B] },
    ]);
  });

  test("private lists: 404 for strangers and anonymous, readable with ?share=, tokens hidden from non-owners", async () => {
    const l = await makeList(t, owner, { name: "Private" });
    expect((await t.req("GET", `/api/v1/lists/${l.id}`)).status).toBe(404);
    const s = await t.req("GET", `/api/v1/lists/${l.id}`, { user: other });
    expect(s).toMatchObject({ status: 404, body: { error: "list not found" } });
    const shared = await t.req("GET", `/api/v1/lists/${l.id}?share=${l.share_token}`);
    expect(shared.status).toBe(200);
    expect(shared.body.share_token).toBeUndefined();
    expect(shared.body.suggestion_token).toBeUndefined();
    for (const p of ["versions", "versions/live", "export", "export/game", "tags", "check"])
      expect((await t.req("GET", `/api/v1/lists/${l.id}/${p}?share=${l.share_token}`)).status).toBe(200);
    expect((await t.req("GET", `/api/v1/lists/${l.id}/export?share=wrong`)).status).toBe(404);
    // share is read-only
    expect((await t.req("POST", `/api/v1/lists/${l.id}/mods?share=${l.share_token}`, { user: other, body: { workshop_id: A } })).status).toBe(403);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/mods?share=${l.share_token}`, { body: { workshop_id: A } })).status).toBe(401);
  });

  test("share-token and suggestion-token reset: old share token stops working; owner only", async () => {
    const l = await makeList(t, owner);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/share-token/reset`, { user: other })).status).toBe(404);
    const r = await t.req("POST", `/api/v1/lists/${l.id}/share-token/reset`, { user: owner });
    expect(r.status).toBe(200);
    expect(r.body.share_token).not.toBe(l.share_token);
    expect((await t.req("GET", `/api/v1/lists/${l.id}?share=${l.share_token}`)).status).toBe(404);
    expect((await t.req("GET", `/api/v1/lists/${l.id}?share=${r.body.share_token}`)).status).toBe(200);
    const s = await t.req("POST", `/api/v1/lists/${l.id}/suggestion-token/reset`, { user: owner });
    expect(s.status).toBe(200);
    expect(s.body.suggestion_token).not.toBe(l.suggestion_token);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/share-token/reset`)).status).toBe(401);
  });

  test("public listing, mine (with roles), update, visibility", async () => {
    const u = await t.createUser();
    const pub = await makeList(t, u, { name: "Public one", is_public: true });
    const priv = await makeList(t, u, { name: "Private one" });
    const list = await t.req("GET", "/api/v1/lists?public=1");
    expect(list.status).toBe(200);
    const ids = list.body.map((x: any) => x.id);
    expect(ids).toContain(pub.id);
    expect(ids).not.toContain(priv.id);
    expect(list.body.find((x: any) => x.id === pub.id).share_token).toBeUndefined();

    const mine = await t.req("GET", "/api/v1/lists/mine", { user: u });
    expect(mine.body.map((x: any) => x.id).sort()).toEqual([pub.id, priv.id].sort());
    expect(mine.body.every((x: any) => x.role === "owner")).toBe(true);
    expect((await t.req("GET", "/api/v1/lists/mine")).status).toBe(401);

    expect((await t.req("PUT", `/api/v1/lists/${priv.id}`, { user: other, body: { name: "x" } })).status).toBe(404);
    const up = await t.req("PUT", `/api/v1/lists/${priv.id}`, { user: u, body: { name: "Renamed", description: "new", visibility: "public", max_mod_age_days: 30 } });
    expect(up.status).toBe(204);
    const d = await t.req("GET", `/api/v1/lists/${priv.id}`);
    expect(d.body).toMatchObject({ name: "Renamed", description: "new", is_public: true, max_mod_age_days: 30 });
    expect((await t.req("PUT", `/api/v1/lists/${priv.id}`, { user: u, body: { is_public: "yes" } })).status).toBe(400);
    // a public list is readable but not writable by others
    expect((await t.req("PUT", `/api/v1/lists/${priv.id}`, { user: other, body: { name: "x" } })).status).toBe(403);
  });

  test("delete: primary only (co-owner 403), removes items, snapshots and audit", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A]);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/versions`, { user: owner, body: {} })).status).toBe(200);
    t.deps.sqlite.query("INSERT INTO list_owners (list_id, user_id, added_at) VALUES (?, ?, 0)").run(l.id, other.id);
    expect((await t.req("DELETE", `/api/v1/lists/${l.id}`, { user: other })).status).toBe(403);
    expect((await t.req("DELETE", `/api/v1/lists/${l.id}`)).status).toBe(401);
    expect((await t.req("DELETE", `/api/v1/lists/${l.id}`, { user: owner })).status).toBe(204);
    expect((await t.req("GET", `/api/v1/lists/${l.id}`, { user: owner })).status).toBe(404);
    for (const table of ["list_items", "list_snapshots", "list_audit", "list_owners"])
      expect((t.deps.sqlite.query(`SELECT COUNT(*) AS n FROM ${table} WHERE list_id = ?`).get(l.id) as any).n).toBe(0);
  });

  test("co-owner may update; mine shows the role", async () => {
    const l = await makeList(t, owner, { name: "Shared mgmt" });
    const co = await t.createUser();
    t.deps.sqlite.query("INSERT INTO list_owners (list_id, user_id, added_at) VALUES (?, ?, 0)").run(l.id, co.id);
    expect((await t.req("PUT", `/api/v1/lists/${l.id}`, { user: co, body: { description: "by co-owner" } })).status).toBe(204);
    const mine = await t.req("GET", "/api/v1/lists/mine", { user: co });
    expect(mine.body).toHaveLength(1);
    expect(mine.body[0]).toMatchObject({ id: l.id, role: "co_owner" });
    expect(mine.body[0].share_token).toBe(l.share_token);
  });

  test("community and folder assignment", async () => {
    const l = await makeList(t, owner);
    const f = await t.req("POST", "/api/v1/folders", { user: owner, body: { name: "Ops" } });
    const c = await t.req("POST", "/api/v1/communities", { user: owner, body: { name: "Task Force", description: "" } });
    expect((await t.req("PATCH", `/api/v1/lists/${l.id}/folder`, { user: owner, body: { folder_id: f.body.id } })).status).toBe(204);
    expect((await t.req("PATCH", `/api/v1/lists/${l.id}/community`, { user: owner, body: { community_id: c.body.id } })).status).toBe(204);
    let d = await t.req("GET", `/api/v1/lists/${l.id}`, { user: owner });
    expect(d.body).toMatchObject({ folder_id: f.body.id, community_id: c.body.id });
    // somebody else's folder / community is not found
    const f2 = await t.req("POST", "/api/v1/folders", { user: other, body: { name: "Theirs" } });
    expect((await t.req("PATCH", `/api/v1/lists/${l.id}/folder`, { user: owner, body: { folder_id: f2.body.id } })).status).toBe(404);
    expect((await t.req("PATCH", `/api/v1/lists/${l.id}/community`, { user: owner, body: { community_id: "not-a-uuid" } })).status).toBe(400);
    expect((await t.req("PATCH", `/api/v1/lists/${l.id}/folder`, { user: other, body: { folder_id: f2.body.id } })).status).toBe(404);
    // null unassigns
    expect((await t.req("PATCH", `/api/v1/lists/${l.id}/folder`, { user: owner, body: { folder_id: null } })).status).toBe(204);
    d = await t.req("GET", `/api/v1/lists/${l.id}`, { user: owner });
    expect(d.body.folder_id).toBeNull();
  });

  test("pins toggle and list", async () => {
    const l = await makeList(t, other, { is_public: true, name: "Pin me" });
    expect((await t.req("POST", `/api/v1/lists/${l.id}/pin`, { user: owner })).body).toEqual({ pinned: true });
    expect((await t.req("GET", "/api/v1/lists/pins", { user: owner })).body.map((x: any) => x.id)).toEqual([l.id]);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/pin`, { user: owner })).body).toEqual({ pinned: false });
    expect((await t.req("GET", "/api/v1/lists/pins", { user: owner })).body).toEqual([]);
    const priv = await makeList(t, other);
    expect((await t.req("POST", `/api/v1/lists/${priv.id}/pin`, { user: owner })).status).toBe(404);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/pin`)).status).toBe(401);
  });
});

describe("mods in a list", () => {
  test("add known and unknown mods; unknown queues a detail scrape; duplicate 409; bad id 400", async () => {
    const l = await makeList(t, owner);
    const r = await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: A.toLowerCase() } });
    expect(r.status).toBe(200);
    expect(r.body.added).toEqual([{ workshop_id: A, name: "Alpha", in_catalog: true }]);
    const u = await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: UNKNOWN } });
    expect(u.status).toBe(200);
    expect(u.body.added[0].in_catalog).toBe(false);
    const jobs = jobsFor(UNKNOWN);
    expect(jobs).toHaveLength(1);
    expect(JSON.parse(jobs[0].payload)).toEqual({ workshop_id: UNKNOWN });
    expect(jobsFor(A)).toHaveLength(0);
    const dup = await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: A } });
    expect(dup.status).toBe(409);
    const bad = await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: "XYZ" } });
    expect(bad).toMatchObject({ status: 400, body: { error: "invalid workshop ID" } });
    expect(itemsOf(t, l.id)).toEqual([
      [A, null],
      [UNKNOWN, null],
    ]);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: other, body: { workshop_id: B } })).status).toBe(404);
  });

  test("with_dependencies adds the missing transitive dependencies, one audit entry each", async () => {
    const l = await makeList(t, owner);
    const r = await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: A, with_dependencies: true } });
    expect(r.status).toBe(200);
    expect(r.body.added.map((x: any) => x.workshop_id)).toEqual([A, B, C]);
    const audit = await t.req("GET", `/api/v1/lists/${l.id}/audit`, { user: owner });
    expect(audit.body.map((e: any) => [e.action, e.workshop_id])).toEqual([
      ["add_mod", C],
      ["add_mod", B],
      ["add_mod", A],
    ]);
    const d = await t.req("GET", `/api/v1/lists/${l.id}`, { user: owner });
    expect(d.body.missing_dependencies).toEqual([]);
  });

  test("1000-mod limit → 409 with the spec's message", async () => {
    const l = await makeList(t, owner);
    const ins = t.deps.sqlite.query("INSERT INTO list_items (list_id, workshop_id, name, position, added_at) VALUES (?, ?, '', ?, 0)");
    t.deps.sqlite.transaction(() => {
      for (let i = 0; i < 1000; i++) ins.run(l.id, (0x1000000 + i).toString(16).toUpperCase().padStart(16, "0"), i);
    })();
    const r = await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: A } });
    expect(r).toMatchObject({ status: 409, body: { error: "maximum number of mods (1000) reached", code: "list_full" } });
  });

  test("max_mod_age_days → 422 for an old mod, fine for a recent one", async () => {
    const l = await makeList(t, owner, { max_mod_age_days: 365 });
    const r = await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: D } });
    expect(r).toMatchObject({ status: 422, body: { error: "Mod age exceeds list limits", code: "mod_too_old" } });
    expect((await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: A } })).status).toBe(200);
    expect(itemsOf(t, l.id)).toEqual([[A, null]]);
  });

  test("too_old on each item follows the list's age rule as the server applies it", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A, D, UNKNOWN]);
    const tooOld = async () => Object.fromEntries((await t.req("GET", `/api/v1/lists/${l.id}`, { user: owner })).body.items.map((i: any) => [i.workshop_id, i.too_old]));
    expect(await tooOld()).toEqual({ [A]: false, [D]: false, [UNKNOWN]: false }); // no limit
    expect((await t.req("PUT", `/api/v1/lists/${l.id}`, { user: owner, body: { max_mod_age_days: 365 } })).status).toBe(204);
    // D's latest version is from 2020; the catalog lacks UNKNOWN, so the rule cannot judge it
    expect(await tooOld()).toEqual({ [A]: false, [D]: true, [UNKNOWN]: false });
    // the same rule refuses adding D again
    await t.req("DELETE", `/api/v1/lists/${l.id}/mods/${D}`, { user: owner });
    expect((await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: D } })).status).toBe(422);
  });

  test("DELETE of a mod names its audit entry in x-audit-entry-id; reverting that entry puts the mod back", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A, B]);
    await t.req("PUT", `/api/v1/lists/${l.id}/mods/${A}/version`, { user: owner, body: { version: "1.0.0" } });
    const res = await t.req("DELETE", `/api/v1/lists/${l.id}/mods/${A}`, { user: owner });
    expect(res.status).toBe(204);
    const entry = res.headers.get("x-audit-entry-id");
    const log = (await t.req("GET", `/api/v1/lists/${l.id}/audit`, { user: owner })).body;
    expect(log[0]).toMatchObject({ id: entry, action: "remove_mod", workshop_id: A });
    expect((await t.req("POST", `/api/v1/lists/${l.id}/audit/${entry}/revert`, { user: owner })).status).toBe(200);
    expect(itemsOf(t, l.id)).toEqual([
      [B, null],
      [A, "1.0.0"],
    ]);
  });

  test("error codes: list_full, mod_in_list, invalid_workshop_id, mod_not_found, unauthorized", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A]);
    expect(await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: A } })).toMatchObject({ status: 409, body: { code: "mod_in_list" } });
    expect(await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: owner, body: { workshop_id: "XYZ" } })).toMatchObject({ status: 400, body: { error: "invalid workshop ID", code: "invalid_workshop_id" } });
    expect(await t.req("GET", "/api/v1/mods/XYZ")).toMatchObject({ status: 400, body: { code: "invalid_workshop_id" } });
    expect(await t.req("GET", `/api/v1/mods/${UNKNOWN}`)).toMatchObject({ status: 404, body: { error: "mod not found", code: "mod_not_found" } });
    expect(await t.req("POST", `/api/v1/lists/${l.id}/mods`, { body: { workshop_id: B } })).toMatchObject({ status: 401, body: { code: "unauthorized" } });
    // an error without a code keeps the plain {error} body
    const nf = await t.req("DELETE", `/api/v1/lists/${l.id}/mods/${B}`, { user: owner });
    expect(nf).toMatchObject({ status: 404 });
    expect(nf.body).toEqual({ error: "mod not in list", code: "list.mod_not_in_list" });
  });

  test("remove, pin/unpin version (must exist), reorder (permutation), rescrape", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A, B, UNKNOWN]);
    expect((await t.req("PUT", `/api/v1/lists/${l.id}/mods/${A}/version`, { user: owner, body: { version: "1.0.0" } })).status).toBe(204);
    const nope = await t.req("PUT", `/api/v1/lists/${l.id}/mods/${A}/version`, { user: owner, body: { version: "9.9.9" } });
    expect(nope.status).toBe(400);
    expect(nope.body.error).toContain("9.9.9");
    // the catalog does not know UNKNOWN's versions: any version may be pinned
    expect((await t.req("PUT", `/api/v1/lists/${l.id}/mods/${UNKNOWN}/version`, { user: owner, body: { version: "0.1" } })).status).toBe(204);
    expect((await t.req("PUT", `/api/v1/lists/${l.id}/mods/${D}/version`, { user: owner, body: { version: "4.0.0" } })).status).toBe(404);
    expect(itemsOf(t, l.id)).toEqual([
      [A, "1.0.0"],
      [B, null],
      [UNKNOWN, "0.1"],
    ]);
    expect((await t.req("PUT", `/api/v1/lists/${l.id}/mods/${UNKNOWN}/version`, { user: owner, body: { version: null } })).status).toBe(204);

    const bad = await t.req("POST", `/api/v1/lists/${l.id}/mods/reorder`, { user: owner, body: { order: [B, A] } });
    expect(bad.status).toBe(400);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/mods/reorder`, { user: owner, body: { order: [B, A, A] } })).status).toBe(400);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/mods/reorder`, { user: owner, body: { order: [B, A, D] } })).status).toBe(400);
    const ok = await t.req("POST", `/api/v1/lists/${l.id}/mods/reorder`, { user: owner, body: { order: [UNKNOWN, B, A] } });
    expect(ok).toMatchObject({ status: 200, body: { ok: true } });
    expect(itemsOf(t, l.id).map((x) => x[0])).toEqual([UNKNOWN, B, A]);

    expect((await t.req("DELETE", `/api/v1/lists/${l.id}/mods/${B}`, { user: owner })).status).toBe(204);
    expect((await t.req("DELETE", `/api/v1/lists/${l.id}/mods/${B}`, { user: owner })).status).toBe(404);
    expect(itemsOf(t, l.id).map((x) => x[0])).toEqual([UNKNOWN, A]);

    const before = (t.deps.sqlite.query("SELECT COUNT(*) AS n FROM jobs WHERE type = 'scrape.detail' AND status = 'queued'").get() as any).n;
    const rs = await t.req("POST", `/api/v1/lists/${l.id}/rescrape`, { user: owner });
    expect(rs.status).toBe(200);
    expect(rs.body.queued).toBe(2);
    const after = (t.deps.sqlite.query("SELECT COUNT(*) AS n FROM jobs WHERE type = 'scrape.detail' AND status = 'queued'").get() as any).n;
    // UNKNOWN's scrape was already queued (deduplicated); A gets a new one.
    expect(after - before).toBe(1);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/rescrape`, { user: other })).status).toBe(404);
  });

  test("collaborator rights: can_add without can_remove", async () => {
    const l = await makeList(t, owner);
    const collab = await t.createUser();
    t.deps.sqlite.query("INSERT INTO list_collaborators (list_id, user_id, can_add, can_remove, can_deploy, added_at) VALUES (?, ?, 1, 0, 0, 0)").run(l.id, collab.id);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/mods`, { user: collab, body: { workshop_id: A } })).status).toBe(200);
    expect((await t.req("DELETE", `/api/v1/lists/${l.id}/mods/${A}`, { user: collab })).status).toBe(403);
    expect((await t.req("GET", `/api/v1/lists/${l.id}/audit`, { user: collab })).status).toBe(200);
    expect((await t.req("PUT", `/api/v1/lists/${l.id}`, { user: collab, body: { name: "no" } })).status).toBe(403);
    expect((await t.req("GET", `/api/v1/lists/${l.id}/audit`, { user: other })).status).toBe(404);
  });
});

describe("snapshots", () => {
  test("create, list newest first, live, one, patch, delete", async () => {
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A, UNKNOWN]);
    await t.req("PUT", `/api/v1/lists/${l.id}/mods/${A}/version`, { user: owner, body: { version: "1.0.0" } });
    const s1 = await t.req("POST", `/api/v1/lists/${l.id}/versions`, { user: owner, body: { version_name: "v1", tag: "stable", notes: "first", is_release: true } });
    expect(s1.status).toBe(200);
    expect(s1.body).toMatchObject({ list_id: l.id, version_name: "v1", tag: "stable", notes: "first", is_release: true, created_by: owner.id });
    expect(s1.body.snapshot_json).toEqual([
      { modId: A, name: "Alpha", version: "1.0.0" },
      { modId: UNKNOWN, name: UNKNOWN, version: "" },
    ]);
    t.clock.advance(1000);
    await addMods(t, owner, l.id, [B]);
    const s2 = await t.req("POST", `/api/v1/lists/${l.id}/versions`, { user: owner });
    expect(s2.status).toBe(200);
    expect(s2.body.version_name).toBeNull();
    const all = await t.req("GET", `/api/v1/lists/${l.id}/versions`, { user: owner });
    expect(all.body.map((s: any) => s.id)).toEqual([s2.body.id, s1.body.id]);
    const live = await t.req("GET", `/api/v1/lists/${l.id}/versions/live`, { user: owner });
    expect(live.body.snapshot_json.map((x: any) => x.modId)).toEqual([A, UNKNOWN, B]);
    expect(live.body.snapshot_json[2]).toEqual({ modId: B, name: "Bravo", version: "2.0.0" });
    const one = await t.req("GET", `/api/v1/lists/${l.id}/versions/${s1.body.id}`, { user: owner });
    expect(one.body).toEqual(s1.body);
    const p = await t.req("PATCH", `/api/v1/lists/${l.id}/versions/${s1.body.id}`, { user: owner, body: { notes: "edited", is_release: false } });
    expect(p.body).toMatchObject({ notes: "edited", is_release: false, version_name: "v1" });
    expect((await t.req("POST", `/api/v1/lists/${l.id}/versions`, { user: other, body: {} })).status).toBe(404);
    expect((await t.req("DELETE", `/api/v1/lists/${l.id}/versions/${s1.body.id}`, { user: owner })).status).toBe(204);
    expect((await t.req("GET", `/api/v1/lists/${l.id}/versions/${s1.body.id}`, { user: owner })).status).toBe(404);
    expect((await t.req("DELETE", `/api/v1/lists/${l.id}/versions/${s1.body.id}`, { user: owner })).status).toBe(404);
  });
});

describe("check", () => {
  test("reports missing dependencies, vanished pins, unavailable mods, game version mismatch, size", async () => {
    const E = wid(5),
      F = wid(6),
      G = wid(7);
    seedMods(t, [
      { id: E, name: "Echo", version: "1.0", gameVersion: "1.2.0", size: 10, state: "private" },
      { id: F, name: "Foxtrot", version: "1.0", gameVersion: "1.2.0", size: 20 },
      { id: G, name: "Golf", version: "1.0", gameVersion: "1.1.0", size: 30 },
    ]);
    const l = await makeList(t, owner);
    await addMods(t, owner, l.id, [A, E, F, G]);
    t.deps.sqlite.query("UPDATE list_items SET pinned_version = '0.0.1' WHERE list_id = ? AND workshop_id = ?").run(l.id, F);
    const r = await t.req("GET", `/api/v1/lists/${l.id}/check`, { user: owner });
    expect(r.status).toBe(200);
    // A list alone never stops a deploy (only a server's pre-flight can): warnings, nothing blocks.
    expect(r.body.ok).toBe(true);
    expect(r.body.findings.every((f: any) => f.blocks_deploy === false && f.severity !== "error")).toBe(true);
    const kinds = r.body.findings.map((f: any) => `${f.kind}:${f.severity}:${f.mods[0]}`);
    expect(kinds).toContain(`missing_dependency:warning:${B}`);
    expect(kinds).toContain(`missing_dependency:warning:${C}`);
    expect(kinds).toContain(`pinned_version_missing:warning:${F}`);
    expect(kinds).toContain(`mod_unavailable:warning:${E}`);
    expect(kinds).toContain(`game_version_mismatch:warning:${G}`);
    // Mods by name (their ids in `mods`); a fix says what it adds, its own missing dependencies included.
    const missing = r.body.findings.filter((f: any) => f.kind === "missing_dependency");
    expect(missing).toEqual([
      {
        kind: "missing_dependency",
        severity: "warning",
        blocks_deploy: false,
        message: "Bravo is required by Alpha but not in the list",
        mods: [B, A],
        fix: { action: "add_mod", label: "Add Bravo and 1 more", workshop_id: B, adds: [B, C] },
      },
      {
        kind: "missing_dependency",
        severity: "warning",
        blocks_deploy: false,
        message: "Charlie is required by Bravo but not in the list",
        mods: [C, B],
        fix: { action: "add_mod", label: "Add Charlie", workshop_id: C, adds: [C] },
      },
    ]);
    expect(r.body.findings.map((f: any) => f.message).join(" ")).not.toMatch(/[0-9A-F]{16}/);
    expect(r.body.findings.find((f: any) => f.kind === "game_version_mismatch").message).toBe("Golf targets game version 1.1.0; most of the list targets 1.2.0");
    expect(r.body.total_size_bytes).toBe(100 + 10 + 20 + 30);
    expect(r.body.total_download_size_bytes).toBe(100 + 10 + 20 + 30 + 200 + 300);
  });
});

describe("my_access on the list detail", () => {
  test("owner, add-only collaborator, share-link visitor and a stranger on a public list each see their own rights", async () => {
    const l = await makeList(t, owner, { name: "Rights", is_public: false });
    const collab = await t.createUser({ display_name: "Collab Add" });
    expect((await t.req("POST", `/api/v1/lists/${l.id}/collaborators`, { user: owner, body: { search: "Collab Add", can_add: true } })).status).toBe(200);
    const detail = (user?: TestUser, share?: string) => t.req("GET", `/api/v1/lists/${l.id}${share ? `?share=${share}` : ""}`, { user });
    const mine = await detail(owner);
    expect(mine.body.my_access).toEqual({ is_owner: true, is_primary: true, can_add: true, can_remove: true, can_deploy: true, can_import: true, via_share: false });
    expect((await detail(collab)).body.my_access).toEqual({ is_owner: false, is_primary: false, can_add: true, can_remove: false, can_deploy: false, can_import: false, via_share: false });
    expect((await detail(undefined, mine.body.share_token)).body.my_access).toEqual({ is_owner: false, is_primary: false, can_add: false, can_remove: false, can_deploy: false, can_import: false, via_share: true });
    // can_import says what the import route decides: the add-only collaborator is refused, and
    // once given can_remove too, both agree that the import is allowed
    expect((await t.req("POST", `/api/v1/lists/${l.id}/import-apply`, { user: collab, body: { mods: [] } })).status).toBe(403);
    expect((await t.req("PUT", `/api/v1/lists/${l.id}/collaborators/${collab.id}/permissions`, { user: owner, body: { can_add: true, can_remove: true, can_deploy: false } })).status).toBe(200);
    expect((await detail(collab)).body.my_access.can_import).toBe(true);
    expect((await t.req("POST", `/api/v1/lists/${l.id}/import-apply`, { user: collab, body: { mods: [] } })).status).toBe(200);
    await t.req("PUT", `/api/v1/lists/${l.id}`, { user: owner, body: { is_public: true } });
    expect((await detail(other)).body.my_access).toMatchObject({ is_owner: false, can_add: false, can_remove: false, via_share: false });
  });
});
