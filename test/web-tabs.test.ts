// The pages whose tabs are one file each (src/web/lists/list/, src/web/catalog/mod/,
// src/web/deploy/server/): every tab file is named by its line in the folder's tabs.ts and every
// line names a tab file that exists, under its own id; no other file imports a tab file (each
// stays its own chunk, loaded when the tab is first shown). Read as text: the tab files are React,
// which this project's typings do not compile (src/web has its own tsconfig, checked by
// web-typecheck.test.ts).
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const web = join(import.meta.dir, "../src/web");
const FOLDERS = ["lists/list", "catalog/mod", "deploy/server"];

/** The lines of a tabs.ts: `{ id: "…", …, load: () => import("./…") },`. */
function lines(folder: string) {
  const text = readFileSync(join(web, folder, "tabs.ts"), "utf8");
  const entries = text.split("\n").filter((l) => /^\s*\{ id: "/.test(l));
  return entries.map((l) => {
    const m = /^\s*\{ id: "([\w-]+)", label: "[^"]+",.* load: \(\) => import\("\.\/([\w-]+)"\) \},$/.exec(l);
    return { line: l.trim(), id: m?.[1], file: m?.[2] };
  });
}

/** Files in the folder that are tabs: their default export is the tab's component. */
const tabFiles = (folder: string) =>
  readdirSync(join(web, folder))
    .filter((f) => f.endsWith(".tsx") && /^export default function \w+\(/m.test(readFileSync(join(web, folder, f), "utf8")))
    .map((f) => f.replace(/\.tsx$/, ""));

/** Every file of the web app, with its static imports resolved to paths without extension. */
function staticImports() {
  const out: { from: string; to: string }[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name))
        for (const m of readFileSync(p, "utf8").matchAll(/^import (?!type )[^;]*? from "(\.[^"]+)";/gms))
          out.push({ from: relative(web, p), to: relative(web, resolve(dirname(p), m[1]!)) });
    }
  };
  walk(web);
  return out;
}

describe("tabs that are one file and one line", () => {
  for (const folder of FOLDERS)
    test(`${folder}: every tab file has its line in tabs.ts, every line its file`, () => {
      const registered = lines(folder);
      expect(registered.length).toBeGreaterThan(3);
      // every line has the one-line shape, and names the file of its own id
      for (const r of registered) expect({ line: r.line, file: r.file }).toEqual({ line: r.line, file: r.id });
      const ids = registered.map((r) => r.id!);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect({ id, exists: existsSync(join(web, folder, `${id}.tsx`)) }).toEqual({ id, exists: true });
      expect(tabFiles(folder).sort()).toEqual([...ids].sort());
    });

  test("no file imports a tab file but its tabs.ts (lazily), so each tab is its own chunk", () => {
    const tabs = new Set(FOLDERS.flatMap((f) => tabFiles(f).map((t) => `${f}/${t}`)));
    expect(tabs.size).toBeGreaterThan(5);
    expect(staticImports().filter((i) => tabs.has(i.to.replace(/\.tsx?$/, "")))).toEqual([]);
  });
});
