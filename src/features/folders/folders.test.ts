import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";
import { makeList } from "../../../test/lists-kit";
import { slugify, uniqueSlug } from "../communities/slug";

let t: TestApp;
let a: TestUser;
let b: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  a = await t.createUser();
  b = await t.createUser();
});
afterAll(() => t.close());

describe("slug", () => {
  test("slugify and uniqueness", () => {
    expect(slugify("  Task Force Ärmel / 21st!! ")).toBe("task-force-armel-21st");
    expect(slugify("§§§")).toBe("community");
    const taken = new Set(["ops", "ops-2"]);
    expect(uniqueSlug("Ops", (s) => taken.has(s))).toBe("ops-3");
  });
});

test("folders: create, list own with counts, delete keeps lists", async () => {
  const f = await t.req("POST", "/api/v1/folders", { user: a, body: { name: " Events " } });
  expect(f.status).toBe(200);
  expect(f.body).toMatchObject({ name: "Events", list_count: 0 });
  expect((await t.req("POST", "/api/v1/folders", { user: a, body: { name: "" } })).status).toBe(400);
  expect((await t.req("GET", "/api/v1/folders")).status).toBe(401);
  const l = await makeList(t, a);
  await t.req("PATCH", `/api/v1/lists/${l.id}/folder`, { user: a, body: { folder_id: f.body.id } });
  expect((await t.req("GET", "/api/v1/folders", { user: a })).body).toEqual([{ ...f.body, list_count: 1 }]);
  expect((await t.req("GET", "/api/v1/folders", { user: b })).body).toEqual([]);
  expect((await t.req("DELETE", `/api/v1/folders/${f.body.id}`, { user: b })).status).toBe(404);
  expect((await t.req("DELETE", `/api/v1/folders/${f.body.id}`, { user: a })).status).toBe(204);
  expect((await t.req("GET", `/api/v1/lists/${l.id}`, { user: a })).body.folder_id).toBeNull();
});

test("communities: create with a unique slug, list the caller's", async () => {
  const c1 = await t.req("POST", "/api/v1/communities", { user: a, body: { name: "Task Force 21", description: "we play" } });
  expect(c1.status).toBe(200);
  expect(c1.body).toMatchObject({ name: "Task Force 21", slug: "task-force-21", description: "we play", owner_id: a.id, role: "owner" });
  expect(c1.body.community_id).toBe(c1.body.id);
  const c2 = await t.req("POST", "/api/v1/communities", { user: b, body: { name: "Task-Force 21" } });
  expect(c2.body.slug).toBe("task-force-21-2");
  expect((await t.req("GET", "/api/v1/communities", { user: a })).body.map((c: any) => c.id)).toEqual([c1.body.id]);
  expect((await t.req("GET", "/api/v1/communities", { user: b })).body.map((c: any) => c.slug)).toEqual(["task-force-21-2"]);
  expect((await t.req("POST", "/api/v1/communities", { body: { name: "x" } })).status).toBe(401);
  expect((await t.req("POST", "/api/v1/communities", { user: a, body: { name: "x".repeat(101) } })).status).toBe(400);
});
