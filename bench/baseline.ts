// The bare baseline of the benchmark: Bun.serve + bun:sqlite, nothing else in the request path.
//
//   bun bench/baseline.ts <database> <port>
//
// It answers the benchmark's hot endpoints with the same SQL and the same JSON as the service:
// it calls the features' repositories and their plain service functions (prepared bun:sqlite
// statements and the object-building code), so the body is byte-for-byte the service's (the
// benchmark checks that). What it leaves out is exactly what the ratio service/baseline
// measures: Elysia routing and hooks, zod validation of query, params and response, the auth
// plugin and list-access macros, the rate limiter, request ids, security headers and the
// per-request log line. Authenticated endpoints do the same API-key lookup (one indexed query).
import { openDatabase } from "../src/db/client";
import { loadConfig } from "../src/config";
import { sha256Hex } from "../src/shared/ids";
import * as catalog from "../src/features/catalog/service";
import * as live from "../src/features/live/service";
import * as modUsage from "../src/features/live/mod-usage";
import { serverMetrics, communityMetrics } from "../src/features/live/metrics";
import * as lists from "../src/features/lists/service";
import * as importer from "../src/features/lists/import";
import * as listMods from "../src/features/lists/mods";
import { exportItems } from "../src/features/lists/export";
import { resolveListAccess, requireListRight } from "../src/features/lists/access";
import { listItems } from "../src/features/lists/repository";
import { exportFragment, exportFileName, type ExportType } from "../src/features/lists/server-json-format";
import { unreadCount } from "../src/features/events/repository";
import { createProcessRegistry } from "../src/features/platform/routes";
import { warmDetails } from "../src/features/live/detail";
import { liveSnapshot } from "../src/features/live/snapshot";

const [dbPath, portArg] = process.argv.slice(2);
if (!dbPath || !portArg) {
  console.error("usage: bun bench/baseline.ts <database> <port>");
  process.exit(2);
}
const { db, sqlite } = openDatabase(dbPath);
const config = loadConfig({ LOADOUT_SCHEDULES: "off", LOADOUT_LOG_LEVEL: "error" });
const deps = { db, sqlite, config, clock: { now: () => Date.now() } } as any;
const registry = createProcessRegistry(deps);
const METRICS = "text/plain; version=0.0.4; charset=utf-8";

const jsonBytes = (body: Uint8Array | string) => new Response(body, { headers: { "content-type": "application/json;charset=utf-8" } });
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const text = (body: string) => new Response(body, { headers: { "content-type": METRICS } });
const notFound = () => json({ error: "not found" }, 404);

const keyStmt = sqlite.prepare(`SELECT u.id FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ?`);
function userOf(req: Request): string | null {
  const key = req.headers.get("x-api-key");
  if (!key) return null;
  const r = keyStmt.get(sha256Hex(key)) as { id: string } | null;
  return r?.id ?? null;
}

const int = (v: string | null, d: number) => (v === null || v === "" ? d : Number(v));
const bool = (v: string | null) => (v === null ? undefined : v === "true" || v === "1");
const csv = (v: string | null) => (v ? v.split(",").map((s) => s.trim()).filter((s) => s !== "") : undefined);

type Handler = (m: RegExpMatchArray, q: URLSearchParams, req: Request) => Response | Promise<Response>;
const routes: [string, RegExp, Handler][] = [
  ["GET", /^\/api\/v1\/mods$/, (_, q) =>
    new Response(catalog.listModsJson(deps, { search: q.get("search") ?? undefined, tag: q.get("tag") ?? undefined, sort: (q.get("sort") as any) ?? undefined, page: int(q.get("page"), 1), limit: int(q.get("limit"), 20) } as any), { headers: { "content-type": "application/json;charset=utf-8" } })],
  ["GET", /^\/api\/v1\/mods\/autocomplete$/, (_, q) => new Response(catalog.autocompleteJson(deps, q.get("q") ?? ""), { headers: { "content-type": "application/json;charset=utf-8" } })],
  ["GET", /^\/api\/v1\/mods\/([0-9A-Fa-f]{16})$/, (m) =>
    new Response(catalog.getModDetailJson(deps, m[1]!.toUpperCase()), { headers: { "content-type": "application/json;charset=utf-8" } })],
  ["GET", /^\/api\/v1\/mods\/([0-9A-Fa-f]{16})\/deps$/, (m) =>
    new Response(catalog.getDependencyGraphJson(deps, m[1]!.toUpperCase()), { headers: { "content-type": "application/json;charset=utf-8" } })],
  ["GET", /^\/api\/v1\/mods\/([0-9A-Fa-f]{16})\/stats$/, (m) => json(modUsage.getLiveStats(deps, m[1]!.toUpperCase()))],
  // The same in-memory work as the service: joined from the live snapshot's JSON strings.
  ["GET", /^\/api\/v1\/mods\/([0-9A-Fa-f]{16})\/servers$/, (m) =>
    new Response(modUsage.getServersUsingJson(deps, m[1]!.toUpperCase()), { headers: { "content-type": "application/json;charset=utf-8" } })],
  ["GET", /^\/api\/v1\/mods\/([0-9A-Fa-f]{16})\/stats\/growth$/, (m, q) =>
    new Response(catalog.getGrowthJson(deps, m[1]!.toUpperCase(), int(q.get("days"), 30)), { headers: { "content-type": "application/json;charset=utf-8" } })],
  ["GET", /^\/api\/v1\/stats\/community-players\/([0-9a-f-]{36})$/, (m, q) => jsonBytes(live.communityPlayersBody(deps, m[1]!, int(q.get("days"), 7)))],
  ["GET", /^\/api\/v1\/lists\/([0-9a-f-]{36})$/, (m, q) => {
    const a = resolveListAccess(deps, m[1]!, null, q.get("share"));
    if (!a || !a.canRead) return json({ error: "list not found" }, 404);
    return json(lists.listDetail(deps, a));
  }],
  ["POST", /^\/api\/v1\/lists\/([0-9a-f-]{36})\/import-preview$/, async (m, q, req) => {
    const uid = userOf(req);
    if (!uid) return json({ error: "unauthorized" }, 401);
    const a = resolveListAccess(deps, m[1]!, { id: uid } as any, q.get("share"));
    if (!a || !a.canRead) return json({ error: "list not found" }, 404);
    return json(importer.importPreview(deps, m[1]!, { raw: await req.text(), checkOrder: q.get("check_order") === "true", mayReplaceConfig: a.isOwner }));
  }],
  // The mixed-writes row: the same service functions as the routes, each in its
  // transaction with its event in the outbox. No job worker here: the service process, which
  // shares the database file, fans the events out.
  ["POST", /^\/api\/v1\/lists\/([0-9a-f-]{36})\/mods$/, async (m, q, req) => {
    const uid = userOf(req);
    if (!uid) return json({ error: "unauthorized" }, 401);
    requireListRight(resolveListAccess(deps, m[1]!, { id: uid } as any, q.get("share")), "add");
    const body = (await req.json()) as { workshop_id: string };
    const r = listMods.addModsToList(deps, { listId: m[1]!, userId: uid, workshopIds: [body.workshop_id], source: "manual" });
    return json({ ok: true, added: r.added });
  }],
  ["PUT", /^\/api\/v1\/lists\/([0-9a-f-]{36})\/mods\/([0-9A-Fa-f]{16})\/version$/, async (m, q, req) => {
    const uid = userOf(req);
    if (!uid) return json({ error: "unauthorized" }, 401);
    requireListRight(resolveListAccess(deps, m[1]!, { id: uid } as any, q.get("share")), "add");
    const body = (await req.json()) as { version: string | null };
    listMods.setModVersion(deps, m[1]!, uid, m[2]!.toUpperCase(), body.version);
    return new Response(null, { status: 204 });
  }],
  ["DELETE", /^\/api\/v1\/lists\/([0-9a-f-]{36})\/mods\/([0-9A-Fa-f]{16})$/, (m, q, req) => {
    const uid = userOf(req);
    if (!uid) return json({ error: "unauthorized" }, 401);
    requireListRight(resolveListAccess(deps, m[1]!, { id: uid } as any, q.get("share")), "remove");
    listMods.removeMod(deps, m[1]!, uid, m[2]!.toUpperCase());
    return new Response(null, { status: 204 });
  }],
  ["GET", /^\/api\/v1\/lists\/([0-9a-f-]{36})\/export$/, (m, q) => {
    const a = resolveListAccess(deps, m[1]!, null, q.get("share"));
    if (!a || !a.canRead) return json({ error: "list not found" }, 404);
    const items = exportItems(sqlite, a.list.id);
    return new Response(JSON.stringify(exportFragment(items, (q.get("type") ?? "fixed") as ExportType), null, 2) + "\n", {
      headers: { "content-type": "application/json; charset=utf-8", "content-disposition": `attachment; filename="${exportFileName(a.list.name, "server")}"` },
    });
  }],
  // The same in-memory work as the service: the page joined from the snapshot's JSON strings.
  ["GET", /^\/api\/v1\/game-servers$/, (_, q) =>
    new Response(live.listServersBytes(deps, {
      limit: int(q.get("limit"), 100), offset: int(q.get("offset"), 0), search: q.get("search") ?? undefined,
      sort_by: (q.get("sort_by") as any) ?? "players_desc", mod_ids: csv(q.get("mod_ids"))?.map((s) => s.toUpperCase()),
      min_players: q.get("min_players") ? Number(q.get("min_players")) : undefined,
      max_mod_size: q.get("max_mod_size") ? Number(q.get("max_mod_size")) : undefined,
      official: bool(q.get("official")), password_protected: bool(q.get("password_protected")),
      tags: csv(q.get("tags"))?.map((s) => s.toLowerCase()),
    } as any), { headers: { "content-type": "application/json;charset=utf-8" } })],
  // The same in-memory work as the service: the detail built from per-mod fragments, kept per snapshot.
  ["GET", /^\/api\/v1\/game-servers\/([0-9a-f-]{36})$/, (m) => jsonBytes(live.serverDetailBytes(deps, m[1]!))],
  ["GET", /^\/api\/v1\/game-servers\/([0-9a-f-]{36})\/stats$/, (m, q) => jsonBytes(live.serverStatsBody(deps, m[1]!, int(q.get("days"), 7)))],
  ["GET", /^\/api\/v1\/stats\/top-mods$/, () => json(live.topMods(deps))],
  ["GET", /^\/api\/v1\/stats\/top-servers$/, () => json(live.topServers(deps))],
  ["GET", /^\/api\/v1\/stats\/global-players$/, (_, q) => jsonBytes(live.globalPlayersBody(deps, int(q.get("days"), 7)))],
  ["GET", /^\/api\/v1\/notifications\/unread-count$/, (_, __, req) => {
    const uid = userOf(req);
    if (!uid) return json({ error: "unauthorized" }, 401);
    return json({ count: unreadCount(sqlite, uid) });
  }],
  ["GET", /^\/metrics$/, async () => text(await registry.metrics())],
  ["GET", /^\/mod\/([0-9A-Fa-f]{16})\/metrics$/, (m) => text(modUsage.modMetricsText(deps, m[1]!.toUpperCase()))],
  ["GET", /^\/servers\/([0-9a-f-]{36})\/metrics$/, (m) => text(serverMetrics(deps, m[1]!))],
  ["GET", /^\/community\/([^/]+)\/metrics$/, (m) => text(communityMetrics(deps, decodeURIComponent(m[1]!)))],
  ["GET", /^\/api\/v1\/health$/, () => json({ status: "ok" })],
];

// The same work as the service beside its requests (which prepares server details ahead while
// idle, src/features/live/detail.ts): here all of it before listening, so it never runs while the
// service is measured.
liveSnapshot(sqlite, Date.now());
while (!warmDetails(sqlite, 1_000));

Bun.serve({
  port: Number(portArg),
  hostname: "127.0.0.1",
  async fetch(req) {
    const url = new URL(req.url);
    for (const [method, re, handler] of routes) {
      if (req.method !== method) continue;
      const m = url.pathname.match(re);
      if (!m) continue;
      try {
        return await handler(m, url.searchParams, req);
      } catch (err: any) {
        // AppError (status + message) as the service renders it.
        if (typeof err?.status === "number") return json({ error: err.message }, err.status);
        console.error(err);
        return json({ error: "internal error" }, 500);
      }
    }
    return notFound();
  },
});
console.log(`baseline listening on ${portArg}`);
