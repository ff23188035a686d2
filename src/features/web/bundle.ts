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

/** Builds the app (a few hundred ms); the result is plain bytes per URL path. */
export async function buildWebBundle(): Promise<{ path: string; bytes: Uint8Array }[]> {
  const result = await Bun.build({
    entrypoints: [join(WEB_ROOT, "index.html")],
    target: "browser",
    minify: true,
    splitting: true,
    sourcemap: "none",
    publicPath: "/",
    naming: { entry: "[name].[ext]", chunk: "assets/[name]-[hash].[ext]", asset: "assets/[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
  });
  if (!result.success) throw new Error(`web build failed: ${result.logs.map(String).join("\n")}`);
  const out: { path: string; bytes: Uint8Array }[] = [];
  for (const o of result.outputs) {
    const rel = o.path.replace(/^\.\//, "").replace(/^.*?(assets\/|index\.html$)/, "$1");
    out.push({ path: "/" + rel, bytes: new Uint8Array(await o.arrayBuffer()) });
  }
  return out;
}
