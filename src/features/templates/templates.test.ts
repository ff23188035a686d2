import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";
import { addMods, itemsOf, makeList, seedMods, wid } from "../../../test/lists-kit";

let t: TestApp;
let a: TestUser;
let b: TestUser;
let admin: TestUser;
const A = wid(1),
  B = wid(2),
  C = wid(3);
beforeAll(async () => {
  t = await createTestApp();
  a = await t.createUser();
  b = await t.createUser();
  admin = await t.createUser({ role: "admin" });
  seedMods(t, [
    { id: A, name: "Alpha", version: "1.1.0", versions: ["1.0.0", "1.1.0"] },
    { id: B, name: "Bravo" },
    { id: C, name: "Charlie" },
  ]);
});
afterAll(() => t.close());

test("create from a list, list (public), import into a list, links, push, unlink, delete (admin)", async () => {
  const src = await makeList(t, a, { name: "Source" });
  await addMods(t, a, src.id, [A, B]);
  await t.req("PUT", `/api/v1/lists/${src.id}/mods/${A}/version`, { user: a, body: { version: "1.0.0" } });
  const tp = await t.req("POST", "/api/v1/templates", { user: a, body: { list_id: src.id, name: "Starter" } });
  expect(tp.status).toBe(200);
  expect(tp.body).toMatchObject({ name: "Starter", owner_id: a.id, source_list_id: src.id, mods: [{ workshop_id: A, name: "Alpha", version: "1.0.0" }, { workshop_id: B, name: "Bravo", version: null }] });
  expect((await t.req("POST", "/api/v1/templates", { user: b, body: { list_id: src.id, name: "Steal" } })).status).toBe(404);
  expect((await t.req("POST", "/api/v1/templates", { body: { list_id: src.id, name: "x" } })).status).toBe(401);
  const all = await t.req("GET", "/api/v1/templates");
  expect(all.status).toBe(200);
  expect(all.body.map((x: any) => x.id)).toEqual([tp.body.id]);

  const target = await makeList(t, b);
  await addMods(t, b, target.id, [C]);
  const imp = await t.req("POST", `/api/v1/lists/${target.id}/import-template/${tp.body.id}`, { user: b });
  expect(imp.body).toEqual({ ok: true, added: 2, removed: 0, version_changed: 0 });
  expect(itemsOf(t, target.id)).toEqual([
    [C, null],
    [A, "1.0.0"],
    [B, null],
  ]);
  const audit = await t.req("GET", `/api/v1/lists/${target.id}/audit`, { user: b });
  expect(audit.body[0].action).toBe("import");
  expect((await t.req("POST", `/api/v1/lists/${target.id}/import-template/${tp.body.id}`, { user: a })).status).toBe(404);
  const links = await t.req("GET", `/api/v1/lists/${target.id}/template-links`, { user: b });
  expect(links.body).toMatchObject([{ template_id: tp.body.id, name: "Starter", mod_count: 2 }]);

  // the source list moves on; pushing brings the new mod and pin to subscribers
  await t.req("PUT", `/api/v1/lists/${src.id}/mods/${A}/version`, { user: a, body: { version: "1.1.0" } });
  await t.req("DELETE", `/api/v1/lists/${target.id}/mods/${B}`, { user: b });
  expect((await t.req("POST", `/api/v1/templates/${tp.body.id}/push`, { user: b })).status).toBe(403);
  const push = await t.req("POST", `/api/v1/templates/${tp.body.id}/push`, { user: a });
  expect(push.status).toBe(200);
  expect(push.body).toEqual({ ok: true, lists: 1, results: [{ list_id: target.id, ok: true, added: 1, removed: 0, version_changed: 1 }] });
  expect(itemsOf(t, target.id)).toEqual([
    [C, null],
    [A, "1.1.0"],
    [B, null],
  ]);

  expect((await t.req("DELETE", `/api/v1/lists/${target.id}/template-links/${tp.body.id}`, { user: b })).status).toBe(204);
  expect((await t.req("DELETE", `/api/v1/lists/${target.id}/template-links/${tp.body.id}`, { user: b })).status).toBe(404);
  expect((await t.req("GET", `/api/v1/lists/${target.id}/template-links`, { user: b })).body).toEqual([]);

  expect((await t.req("DELETE", `/api/v1/templates/${tp.body.id}`, { user: a })).status).toBe(403);
  expect((await t.req("DELETE", `/api/v1/templates/${tp.body.id}`, { user: admin })).status).toBe(204);
  expect((await t.req("DELETE", `/api/v1/templates/${tp.body.id}`, { user: admin })).status).toBe(404);
  expect((await t.req("GET", "/api/v1/templates")).body).toEqual([]);
});
