// Every endpoint row of the interface specification is routed: a request to it never gets
// the unknown-route answer (404 {error: "not found"}); resource-level 404s name the resource.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createTestApp, type TestApp } from "./helpers";

const SPEC_PATH = "shared/spec/interface-spec.md";
/**
 * The spec sits beside the repository (../shared). From a linked git worktree elsewhere, it sits
 * beside the main working tree instead (found from git's common directory).
 */
function specPath(): string {
  const beside = join(import.meta.dir, "../..", SPEC_PATH);
  if (existsSync(beside)) return beside;
  const git = Bun.spawnSync(["git", "rev-parse", "--path-format=absolute", "--git-common-dir"], { cwd: import.meta.dir });
  const common = git.success ? git.stdout.toString().trim() : "";
  const main = common ? join(dirname(common), "..", SPEC_PATH) : "";
  return main && existsSync(main) ? main : beside;
}
const SPEC = process.env.LOADOUT_SPEC ?? specPath();

function specEndpoints(): { method: string; path: string }[] {
  const text = readFileSync(SPEC, "utf8");
  const out: { method: string; path: string }[] = [];
  for (const line of text.split("\n")) {
    const m = /^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*(\/[^\s|]+)/.exec(line);
    if (m) out.push({ method: m[1]!, path: m[2]! });
  }
  return out;
}

const SAMPLE: Record<string, string> = {
  workshopID: "5965550F24A0C152",
  id: "01900000-0000-7000-8000-000000000000",
  slug: "no-such-community",
  community_id: "01900000-0000-7000-8000-000000000000",
};
const fill = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => SAMPLE[name] ?? "01900000-0000-7000-8000-000000000000");

describe("spec coverage", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  test("the specification is readable", () => {
    expect(existsSync(SPEC)).toBe(true);
    expect(specEndpoints().length).toBeGreaterThan(100);
  });

  test("every endpoint of the specification is routed", async () => {
    const admin = await t.createUser({ role: "admin" });
    const missing: string[] = [];
    for (const { method, path } of specEndpoints()) {
      const r = await t.req(method, fill(path), { user: admin, body: method === "GET" || method === "DELETE" ? undefined : {} });
      if (r.status === 404 && r.body?.error === "not found") missing.push(`${method} ${path}`);
    }
    expect(missing).toEqual([]);
  });
});
