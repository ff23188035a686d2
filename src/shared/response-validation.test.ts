import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { z } from "zod";
import { createTestApp } from "../../test/helpers";
import { applyResponseValidation, DOCUMENTED } from "./response-validation";

const out = z.object({ id: z.string(), tags: z.array(z.object({ name: z.string() })), note: z.string().optional() });

function app(mode: "off" | "strict", body: unknown) {
  const a = new Elysia({ normalize: true }).get("/x", (() => body) as any, { response: { 200: out } });
  applyResponseValidation(a as any, mode);
  return a;
}
const get = async (a: ReturnType<typeof app>) => {
  const r = await a.handle(new Request("http://localhost/x"));
  return { status: r.status, text: await r.text() };
};

describe("response schemas", () => {
  test("strict: a key the schema does not name fails, at any depth; a conforming answer passes unchanged", async () => {
    expect((await get(app("strict", { id: "a", tags: [{ name: "t" }] }))).status).toBe(200);
    expect((await get(app("strict", { id: "a", tags: [], secret: "s" }))).status).not.toBe(200);
    expect((await get(app("strict", { id: "a", tags: [{ name: "t", owner_id: "u" }] }))).status).not.toBe(200);
    expect((await get(app("strict", { id: 1, tags: [] }))).status).not.toBe(200);
    // a value the schema would change (a transform) fails too: production would not change it
    const tr = new Elysia({ normalize: true }).get("/x", (() => ({ n: "5" })) as any, { response: { 200: z.object({ n: z.string().transform((v) => Number(v)) }) } });
    applyResponseValidation(tr as any, "strict");
    expect((await tr.handle(new Request("http://localhost/x"))).status).not.toBe(200);
    // undefined values are not keys on the wire
    expect((await get(app("strict", { id: "a", tags: [], note: undefined }))).status).toBe(200);
  });

  test("off: nothing is checked or stripped (handlers build their answers field by field)", async () => {
    const r = await get(app("off", { id: "a", tags: [], extra: 1 }));
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ id: "a", tags: [], extra: 1 });
  });

  test("in the composed app every route's response schemas are swapped, and the swap is what runs", async () => {
    const t = await createTestApp();
    try {
      const routes = t.app.routes as { method: string; path: string; hooks?: { response?: Record<string, any> } }[];
      const withSchemas = routes.filter((r) => r.hooks?.response && Object.keys(r.hooks.response).some((k) => /^\d+$/.test(k)));
      expect(withSchemas.length).toBeGreaterThan(100);
      for (const r of withSchemas) for (const [k, v] of Object.entries(r.hooks!.response!)) if (/^\d+$/.test(k)) expect(DOCUMENTED in v).toBe(true);
      // Narrow /api/v1/health's schema before its first request: the route now answers 500, so
      // the validator in use is the one in the route's record (this is how strict mode bites).
      const health = routes.find((r) => r.method === "GET" && r.path === "/api/v1/health")!;
      health.hooks!.response![200] = undefined;
      const narrow = new Elysia().get("/h", (() => ({})) as any, { response: { 200: z.object({ status: z.string() }) } });
      applyResponseValidation(narrow as any, "strict");
      health.hooks!.response![200] = (narrow.routes[0] as any).hooks.response[200];
      expect((await t.req("GET", "/api/v1/health")).status).toBe(500);
    } finally {
      t.close();
    }
  });

  test("the test app validates strictly; the OpenAPI document still shows every response schema", async () => {
    const t = await createTestApp();
    try {
      expect(t.deps.config.LOADOUT_RESPONSE_VALIDATION).toBe("strict");
      const doc = JSON.parse((await t.req("GET", "/swagger/json")).text);
      const ok = doc.paths["/api/v1/mods/"].get.responses["200"].content["application/json"].schema;
      expect(ok.type).toBe("object");
      expect(JSON.stringify(ok.properties.mods)).toContain("workshop_id");
      expect(doc.paths["/api/v1/lists/{id}"].get.responses["404"].content["application/json"].schema.properties.error.type).toBe("string");
    } finally {
      t.close();
    }
  });
});
