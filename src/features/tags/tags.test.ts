import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp, type TestUser } from "../../../test/helpers";
import { makeList } from "../../../test/lists-kit";

let t: TestApp;
let a: TestUser;
let b: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  a = await t.createUser();
  b = await t.createUser();
});
afterAll(() => t.close());

test("create (colour validated), mine, global, delete", async () => {
  const r = await t.req("POST", "/api/v1/tags/mine", { user: a, body: { name: "Milsim", color: "#1A2b3C" } });
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ name: "Milsim", color: "#1a2b3c", owner_id: a.id });
  for (const color of ["red", "#12345", "#1234567", "123456", "#gggggg"]) {
    const bad = await t.req("POST", "/api/v1/tags/mine", { user: a, body: { name: "x", color } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toStartWith("color:");
  }
  expect((await t.req("POST", "/api/v1/tags/mine", { user: a, body: { name: "milsim", color: "#000000" } })).status).toBe(409);
  expect((await t.req("POST", "/api/v1/tags/mine", { body: { name: "x", color: "#000000" } })).status).toBe(401);
  const other = await t.req("POST", "/api/v1/tags/mine", { user: b, body: { name: "PvP", color: "#ff0000" } });
  expect((await t.req("GET", "/api/v1/tags/mine", { user: a })).body.map((x: any) => x.id)).toEqual([r.body.id]);
  const all = await t.req("GET", "/api/v1/tags");
  expect(all.status).toBe(200);
  expect(all.body.map((x: any) => x.id).sort()).toEqual([r.body.id, other.body.id].sort());
  expect((await t.req("DELETE", `/api/v1/tags/mine/${other.body.id}`, { user: a })).status).toBe(404);
  expect((await t.req("DELETE", `/api/v1/tags/mine/${other.body.id}`, { user: b })).status).toBe(204);
  expect((await t.req("GET", "/api/v1/tags")).body).toHaveLength(1);
});

test("assign to lists (owner), list tags (public / share), remove", async () => {
  const tag = (await t.req("POST", "/api/v1/tags/mine", { user: a, body: { name: "Coop", color: "#00ff00" } })).body;
  const l = await makeList(t, a);
  expect((await t.req("POST", `/api/v1/lists/${l.id}/tags`, { user: b, body: { tag_id: tag.id } })).status).toBe(404);
  const r = await t.req("POST", `/api/v1/lists/${l.id}/tags`, { user: a, body: { tag_id: tag.id } });
  expect(r).toMatchObject({ status: 200, body: { id: tag.id, name: "Coop", color: "#00ff00" } });
  expect((await t.req("POST", `/api/v1/lists/${l.id}/tags`, { user: a, body: { tag_id: tag.id } })).status).toBe(409);
  expect((await t.req("POST", `/api/v1/lists/${l.id}/tags`, { user: a, body: { tag_id: "01a200af-7b5e-76ab-93f5-2e250c73df89" } })).status).toBe(404);
  expect((await t.req("GET", `/api/v1/lists/${l.id}/tags`)).status).toBe(404);
  expect((await t.req("GET", `/api/v1/lists/${l.id}/tags?share=${l.share_token}`)).body).toEqual([{ id: tag.id, name: "Coop", color: "#00ff00" }]);
  expect((await t.req("GET", `/api/v1/lists/${l.id}`, { user: a })).body.tags).toEqual([{ id: tag.id, name: "Coop", color: "#00ff00" }]);
  // The lists pages show and filter by tag from the summaries alone.
  const mine = (await t.req("GET", "/api/v1/lists/mine", { user: a })).body as { id: string; tags: unknown[] }[];
  expect(mine.find((x) => x.id === l.id)!.tags).toEqual([{ id: tag.id, name: "Coop", color: "#00ff00" }]);
  expect(mine.filter((x) => x.id !== l.id).every((x) => Array.isArray(x.tags) && x.tags.length === 0)).toBe(true);
  expect((await t.req("DELETE", `/api/v1/lists/${l.id}/tags/${tag.id}`, { user: a })).status).toBe(204);
  expect((await t.req("DELETE", `/api/v1/lists/${l.id}/tags/${tag.id}`, { user: a })).status).toBe(404);
  expect((await t.req("GET", `/api/v1/lists/${l.id}/tags`, { user: a })).body).toEqual([]);
});
