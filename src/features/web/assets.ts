// Where the web app's files come from. The compiled binary: files embedded by scripts/build.ts
// (`Bun.embeddedFiles`, names `loadout-web/gz/<path>.gz` and `loadout-web/br/<path>.br`). From source (npm start, tests):
// Bun's HTML bundler builds the app in memory on first use, once per process.
import { buildWebBundle, compress, contentTypeOf, type WebAsset } from "./bundle";
import { embeddedFiles, isCompiled } from "../../shared/compiled";

export const EMBED_PREFIX = "loadout-web/";

export interface LoadedAsset {
  type: string;
  gz: Uint8Array;
  br: Uint8Array;
  /** The raw bytes, decompressed on first need (a client that takes neither gzip nor brotli). */
  raw?: Uint8Array;
}


async function fromEmbedded(): Promise<Map<string, LoadedAsset>> {
  const files = new Map<string, Partial<LoadedAsset>>();
  for (const f of embeddedFiles()) {
    const at = f.name.indexOf(EMBED_PREFIX);
    if (at < 0) continue;
    // "gz/<path>.gz" or "br/<path>.br" (one folder per encoding keeps the names apart)
    const rest = f.name.slice(at + EMBED_PREFIX.length);
    const enc = rest.slice(0, 2);
    if ((enc !== "gz" && enc !== "br") || !rest.endsWith(`.${enc}`)) continue;
    const path = "/" + rest.slice(3, -3);
    const entry = files.get(path) ?? { type: contentTypeOf(path) };
    entry[enc] = new Uint8Array(await f.arrayBuffer());
    files.set(path, entry);
  }
  const out = new Map<string, LoadedAsset>();
  for (const [p, e] of files) if (e.gz && e.br) out.set(p, e as LoadedAsset);
  return out;
}

async function fromSource(): Promise<Map<string, LoadedAsset>> {
  const out = new Map<string, LoadedAsset>();
  for (const { path, bytes } of await buildWebBundle()) {
    const a: WebAsset = compress(path, bytes);
    out.set(path, { type: a.type, gz: a.gz, br: a.br, raw: bytes });
  }
  return out;
}

let loading: Promise<Map<string, LoadedAsset>> | null = null;
/**
 * The app's files by URL path ("/index.html", "/assets/…"), loaded once per process. `serve`
 * starts loading them right after listen (server.ts), so the first page does not wait for them.
 */
export function webAssets(): Promise<Map<string, LoadedAsset>> {
  loading ??= (isCompiled() ? fromEmbedded() : fromSource()).catch((e) => {
    loading = null;
    throw e;
  });
  return loading;
}
