// A page's response names what the page loads next (src/features/web/preload.ts): the HTML's own
// files first, then the page's and its tab's chunks from the build's chunk manifest, then the
// first API answers of the public pages, exactly as the page asks for them (the browser test
// checks that the page's fetch uses them: test/e2e/web-accounts.test.ts). Every page module named
// here is in the manifest, so a renamed page file fails this test instead of preloading nothing.
import { beforeAll, describe, expect, test } from "bun:test";
import { buildWebBundle, CHUNKS_PATH, INDEX_KEY, type ChunkManifest } from "../src/features/web/bundle";
import { pageNeeds, preloadLinks, CATALOG_PAGE_SIZE } from "../src/features/web/preload";
import { PAGE_SIZE } from "../src/web/catalog/catalog.search";

let manifest: ChunkManifest;
beforeAll(async () => {
  const files = await buildWebBundle();
  manifest = JSON.parse(new TextDecoder().decode(files.find((f) => f.path === CHUNKS_PATH)!.bytes));
  // Every file the manifest names is a file of the build.
  const paths = new Set(files.map((f) => f.path));
  expect(Object.values(manifest).flat().filter((p) => !paths.has(p))).toEqual([]);
}, 60_000);

const links = (path: string, query = "") => preloadLinks(manifest, path, new URLSearchParams(query))!.split(", ");
const ID = "A000000000000001";

describe("page preloads", () => {
  test("what index.html loads comes first; then the page's chunk and the ones it imports; then its first API answers", () => {
    const l = links("/mods");
    const [css, entry] = manifest[INDEX_KEY]!;
    expect(l.slice(0, 2)).toEqual([`<${css}>; rel=preload; as=style; crossorigin=anonymous`, `<${entry}>; rel=modulepreload`]);
    const page = manifest["catalog/catalog.page.tsx"]!;
    expect(page[0]).toMatch(/^\/assets\/catalog\.page-[a-z0-9]+\.js$/);
    expect(l.slice(2, 2 + page.length)).toEqual(page.map((f) => `<${f}>; rel=modulepreload`));
    expect(l.at(-1)).toBe(`</api/v1/mods?page=1&limit=${PAGE_SIZE}>; rel=preload; as=fetch; crossorigin=anonymous`);
    expect(PAGE_SIZE).toBe(CATALOG_PAGE_SIZE);
    // A filtered catalog: its chunks, no answer (it differs by filter).
    expect(links("/mods", "q=tank").filter((x) => x.includes("/api/"))).toEqual([]);
  });

  test("a mod page: its chunk, its tab's, the mod and what the tab reads first; an unknown tab adds no chunk", () => {
    const deps = links(`/mods/${ID}`, "tab=dependencies");
    expect(deps.some((x) => /\/assets\/mod\.page-/.test(x))).toBe(true);
    expect(deps.some((x) => /\/assets\/dependencies-/.test(x))).toBe(true);
    expect(deps.filter((x) => x.includes("/api/"))).toEqual([`</api/v1/mods/${ID}>; rel=preload; as=fetch; crossorigin=anonymous`, `</api/v1/mods/${ID}/deps>; rel=preload; as=fetch; crossorigin=anonymous`]);
    expect(links(`/mods/${ID}`).filter((x) => x.includes("/api/"))).toEqual([`</api/v1/mods/${ID}>; rel=preload; as=fetch; crossorigin=anonymous`, `</api/v1/mods/${ID}/stats>; rel=preload; as=fetch; crossorigin=anonymous`]);
    expect(links(`/mods/${ID}`, "tab=nope").filter((x) => /\/assets\/nope-/.test(x) || x.includes("/stats"))).toEqual([]);
    // Not a workshop id: no answer to ask for.
    expect(preloadLinks(manifest, "/mods/not-an-id", new URLSearchParams())).toBeNull();
  });

  test("every page module named is in the manifest", () => {
    const paths = ["/", "/mods", `/mods/${ID}`, "/lists", "/lists/x", "/lists/x/suggest", "/live", "/live/x", "/stats", "/communities/x", "/sign-in", "/register", "/settings", "/notifications", "/admin", "/groups", "/my-servers", "/my-servers/x"];
    const missing = paths.flatMap((p) => pageNeeds(p, new URLSearchParams()).modules.filter((m) => !manifest[m]).map((m) => `${p}: ${m}`));
    expect(missing).toEqual([]);
    for (const t of ["overview", "versions", "dependencies", "scenarios", "screenshots", "items", "usage"]) expect(manifest[`catalog/mod/${t}.tsx`]).toBeArray();
    expect(pageNeeds("/nowhere", new URLSearchParams())).toEqual({ modules: [], data: [] });
  });
});
