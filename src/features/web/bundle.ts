// The web app's bundle: Bun's own HTML bundler (src/web/index.html and everything it imports),
// minified, split per route, with content-hashed names under /assets/, each file precompressed
// with gzip and brotli. From source the bundle is built in memory on first use; the compiled
// binary carries the compressed files (scripts/build.ts embeds them; see assets.ts).
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { join } from "node:path";

export interface WebAsset {
  /** URL path, e.g. "/index.html" or "/assets/main-3f9a1c.js". */
  path: string;
  type: string;
  gz: Uint8Array;
  br: Uint8Array;
}

export const WEB_ROOT = join(import.meta.dir, "../../web");

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  woff2: "font/woff2",
  json: "application/json",
  map: "application/json",
};

export const contentTypeOf = (path: string) => TYPES[path.slice(path.lastIndexOf(".") + 1)] ?? "application/octet-stream";

export function compress(path: string, bytes: Uint8Array): WebAsset {
  return {
    path,
    type: contentTypeOf(path),
    gz: gzipSync(bytes, { level: 9 }),
    br: brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
  };
}

/** Where the build's chunk manifest is kept with the files (not served: pages read it, preload.ts). */
export const CHUNKS_PATH = "/chunks.json";

/** V8's explicit compile hint: every function of the file is compiled eagerly, off the main thread. */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

/** The manifest's key of what index.html loads (its stylesheets, then its script). */
export const INDEX_KEY = "index.html";

/** For each module of src/web that is in a chunk of its own (a page, a tab, what they import): the files a page that shows it needs, its chunk first, then the chunks it imports, all of them (the first page's chunk left out: the HTML loads it). */
export type ChunkManifest = Record<string, string[]>;

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown>; imports?: { path: string; kind: string }[] }>;
}

/**
 * The chunk manifest from Bun's metafile: every module (by its path under src/web) of a chunk that
 * something loads lazily, with that chunk and the chunks it imports statically, transitively.
 */
export function chunkManifest(meta: Metafile, entry: string): ChunkManifest {
  const url = (out: string) => "/" + out.replace(/^\.\//, "");
  const lazy = new Set<string>();
  for (const o of Object.values(meta.outputs)) for (const i of o.imports ?? []) if (i.kind === "dynamic-import") lazy.add(url(i.path));
  const closure = (out: string, seen: string[]) => {
    if (out === entry || seen.includes(out)) return seen;
    seen.push(out);
    for (const i of meta.outputs["." + out]?.imports ?? []) if (i.kind === "import-statement") closure(url(i.path), seen);
    return seen;
  };
  const manifest: ChunkManifest = {};
  for (const [out, o] of Object.entries(meta.outputs)) {
    if (!out.endsWith(".js") || !lazy.has(url(out))) continue;
    const files = closure(url(out), []);
    for (const input of Object.keys(o.inputs)) if (input.startsWith("src/web/")) manifest[input.slice("src/web/".length)] = files;
  }
  return manifest;
}

/** Builds the app (a few hundred ms); the result is plain bytes per URL path, with the chunk manifest at CHUNKS_PATH. */
export async function buildWebBundle(): Promise<{ path: string; bytes: Uint8Array }[]> {
  const result = await Bun.build({
    entrypoints: [join(WEB_ROOT, "index.html")],
    target: "browser",
    minify: true,
    splitting: true,
    sourcemap: "none",
    publicPath: "/",
    metafile: true,
    naming: { entry: "[name].[ext]", chunk: "assets/[name]-[hash].[ext]", asset: "assets/[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
  });
  if (!result.success) throw new Error(`web build failed: ${result.logs.map(String).join("\n")}`);
  const out: { path: string; bytes: Uint8Array }[] = [];
  for (const o of result.outputs) {
    const rel = o.path.replace(/^\.\//, "").replace(/^.*?(assets\/|index\.html$)/, "$1");
    out.push({ path: "/" + rel, bytes: new Uint8Array(await o.arrayBuffer()) });
  }
  const html = new TextDecoder().decode(out.find((f) => f.path === "/index.html")!.bytes);
  const entry = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? "";
  // The first chunk is compiled whole while it downloads (V8's explicit compile hint, on a
  // background thread) instead of function by function on the main thread as it first runs them.
  const first = out.find((f) => f.path === entry);
  if (first) first.bytes = new Uint8Array([...new TextEncoder().encode(COMPILE_HINT), ...first.bytes]);
  const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="(\/assets\/[^"]+\.css)"/g)].map((m) => m[1]!);
  const meta = (typeof result.metafile === "string" ? JSON.parse(result.metafile) : result.metafile) as Metafile;
  const manifest = chunkManifest(meta, entry);
  // What index.html itself loads: named first in every page's preloads (preload.ts), so those
  // requests go out before the page's own, however many it has.
  manifest[INDEX_KEY] = [...styles, entry];
  out.push({ path: CHUNKS_PATH, bytes: new TextEncoder().encode(JSON.stringify(manifest)) });
  return out;
}
