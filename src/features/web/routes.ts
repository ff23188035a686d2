// The web app at `/`: hashed assets under /assets/ (cached for a year), and index.html (never
// cached) for every page path, so deep links and reloads work. /api/*, /swagger*, /metrics and
// the metrics paths keep their meaning: this wildcard only answers what no other route does,
// and an unknown /api path is still the JSON 404. Pages carry a strict Content-Security-Policy.
// Page loads are not rate limited (isPageLoad in src/shared/rate-limit.ts). A page's response
// names what it loads next in a `Link` header (preload.ts).
import { Elysia } from "elysia";
import { gunzipSync } from "node:zlib";
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { isPagePath } from "../../shared/rate-limit";
import { webAssets, type LoadedAsset } from "./assets";
import { CHUNKS_PATH, type ChunkManifest } from "./bundle";
import { preloadLinks } from "./preload";

/** Workshop images come from its CDN (docs/web.md "Security"); nothing else is fetched from outside. */
export const WORKSHOP_IMAGE_HOSTS = ["https://ar-gcp-cdn.bistudio.com"];

export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  `img-src 'self' data: ${WORKSHOP_IMAGE_HOSTS.join(" ")}`,
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");


function send(asset: LoadedAsset, acceptEncoding: string, cacheControl: string, extra: Record<string, string> = {}): Response {
  const headers: Record<string, string> = { "content-type": asset.type, "cache-control": cacheControl, vary: "Accept-Encoding", ...extra };
  if (/\bbr\b/.test(acceptEncoding)) return new Response(asset.br, { headers: { ...headers, "content-encoding": "br" } });
  if (/\bgzip\b/.test(acceptEncoding)) return new Response(asset.gz, { headers: { ...headers, "content-encoding": "gzip" } });
  asset.raw ??= gunzipSync(asset.gz);
  return new Response(asset.raw, { headers });
}

let manifest: ChunkManifest | null = null;
/** The build's chunk manifest (read once; an app built without one preloads nothing). */
async function chunks(): Promise<ChunkManifest> {
  if (manifest) return manifest;
  const a = (await webAssets()).get(CHUNKS_PATH);
  manifest = a ? (JSON.parse(new TextDecoder().decode((a.raw ??= gunzipSync(a.gz)))) as ChunkManifest) : {};
  return manifest;
}

export const webRoutes = (_deps: Deps) =>
  new Elysia({ tags: ["web"] })
    .get(
      "/assets/*",
      async ({ path, request }) => {
        const asset = (await webAssets()).get(path);
        if (!asset) throw new AppError("request.route_not_found", "not found");
        return send(asset, request.headers.get("accept-encoding") ?? "", "public, max-age=31536000, immutable");
      },
      { detail: { hide: true } },
    )
    .get(
      "/*",
      async ({ path, request }) => {
        if (!isPagePath(path)) throw new AppError("request.route_not_found", "not found");
        const index = (await webAssets()).get("/index.html");
        if (!index) throw new AppError("request.route_not_found", "not found");
        // What this page loads next, announced now (preload.ts): its chunks and first API answers.
        const link = preloadLinks(await chunks(), path, new URL(request.url).searchParams);
        return send(index, request.headers.get("accept-encoding") ?? "", "no-cache", { "content-security-policy": PAGE_CSP, ...(link ? { link } : {}) });
      },
      { detail: { hide: true } },
    );
