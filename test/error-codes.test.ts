// Error codes: the table in docs/architecture.md ("Errors") is ERROR_CODES, every listed code is
// one the service answers, and the early answers of shared/http.ts carry theirs too. That every
// error answer a test meets carries a listed code with its status is checked by test/helpers.ts
// (`assertErrorCode`, on every `req`).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ERROR_CODES, type ErrorCode } from "../src/shared/errors";
import { createTestApp, type TestApp } from "./helpers";

const ROOT = join(import.meta.dir, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === "web" ? [] : sourceFiles(p);
    return p.endsWith(".ts") && !p.endsWith(".test.ts") ? [p] : [];
  });
}

describe("error codes", () => {
  test("the docs' Errors table is ERROR_CODES: every code, its status and meaning, in order", () => {
    const md = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
    const section = md.slice(md.indexOf("### Errors ("), md.indexOf("\n### ", md.indexOf("### Errors (") + 1));
    const rows = [...section.matchAll(/^\| `([^`]+)` \| (\d{3}) \| (.+) \|$/gm)].map((m) => [m[1], Number(m[2]), m[3]]);
    expect(rows).toEqual(Object.entries(ERROR_CODES).map(([code, e]) => [code, e.status, e.meaning]));
  });

  test("every listed code is answered somewhere in the service (no dead entries), every status a 4xx or 5xx", () => {
    const text = sourceFiles(join(ROOT, "src"))
      .filter((p) => !p.endsWith(join("shared", "errors.ts")))
      .map((p) => readFileSync(p, "utf8"))
      .join("\n");
    const unused = Object.keys(ERROR_CODES).filter((code) => !text.includes(`"${code}"`));
    expect(unused).toEqual([]);
    for (const e of Object.values(ERROR_CODES)) expect(e.status >= 400 && e.status < 600).toBe(true);
  });

  test("codes are namespaced lower-case words; only the seven older ones and `internal` have no namespace", () => {
    const bare = Object.keys(ERROR_CODES).filter((c) => !c.includes("."));
    expect(bare).toEqual(["unauthorized", "invalid_credentials", "invalid_workshop_id", "mod_not_found", "list_full", "mod_in_list", "mod_too_old", "internal"]);
    for (const c of Object.keys(ERROR_CODES)) expect(c).toMatch(/^[a-z0-9_]+(\.[a-z0-9_]+)?$/);
  });

  describe("answers", () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    const codeOf = async (method: string, path: string, init: RequestInit = {}) => {
      const res = await t.app.handle(new Request(`http://localhost${path}`, { method, ...init }));
      const body = (await res.json()) as { error: string; code: ErrorCode };
      return { status: res.status, code: body.code, error: body.error };
    };

    test("the early answers and the framework's own carry codes with their statuses", async () => {
      const user = await t.createUser();
      const auth = { authorization: `Bearer ${user.token}` };
      expect(await codeOf("GET", "/api/v1/no-such-route")).toEqual({ status: 404, code: "request.route_not_found", error: "not found" });
      expect(await codeOf("GET", "/api/v1/auth/me")).toEqual({ status: 401, code: "unauthorized", error: "unauthorized" });
      expect(await codeOf("POST", "/api/v1/lists", { headers: { ...auth, "content-type": "application/json" }, body: "{" })).toEqual({ status: 400, code: "request.invalid_json", error: "invalid JSON" });
      expect(await codeOf("POST", "/api/v1/lists", { headers: { ...auth, "content-type": "text/plain" }, body: "x" })).toEqual({
        status: 415,
        code: "request.unsupported_media_type",
        error: "content type must be application/json",
      });
      expect(await codeOf("POST", "/api/v1/lists", { headers: { ...auth, "content-type": "application/json", "content-length": String(10 * 1024 * 1024) }, body: "{}" })).toEqual({
        status: 413,
        code: "request.too_large",
        error: "request body too large",
      });
      expect(await codeOf("GET", "/api/v1/mods", { headers: { "x-big": "a".repeat(20_000) } })).toEqual({ status: 431, code: "request.headers_too_large", error: "request headers too large" });
      expect(await codeOf("GET", "/api/v1/mods/XYZ")).toMatchObject({ status: 400, code: "invalid_workshop_id" });
      expect(await codeOf("GET", "/api/v1/mods/0123456789ABCDEF")).toMatchObject({ status: 404, code: "mod_not_found" });
      expect(await codeOf("GET", "/api/v1/lists/999999", { headers: auth })).toMatchObject({ status: 404, code: "list.not_found" });
    });

    test("a request schema's refusal names the field and carries request.invalid", async () => {
      const user = await t.createUser();
      const r = await t.req("POST", "/api/v1/lists", { user, body: { name: 7 } });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("request.invalid");
      expect(r.body.error).toContain("name");
    });
  });
});
