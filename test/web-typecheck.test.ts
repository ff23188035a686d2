// The web app is its own TypeScript project (DOM typings; src/web/tsconfig.json). It imports
// the API's response types from the features' zod models, so a changed API breaks this check.
import { expect, test } from "bun:test";
import { join } from "node:path";

test("src/web type-checks against the API's own types", () => {
  const root = join(import.meta.dir, "..");
  const r = Bun.spawnSync([join(root, "node_modules/.bin/tsc"), "--noEmit", "-p", "src/web"], { cwd: root, stdout: "pipe", stderr: "pipe" });
  expect({ code: r.exitCode, out: r.stdout.toString() + r.stderr.toString() }).toEqual({ code: 0, out: "" });
}, 120_000);
