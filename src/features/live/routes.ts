// HTTP surface of live game servers, global statistics, their metrics paths, copy-from-server
// and the two admin job triggers. Paths, guards and schemas only; the rules live in service.ts.
import { Elysia } from "elysia";
import { JOB_GROWTH } from "../scraper";
import { z } from "zod";
import type { Deps } from "../../deps";
import { authPlugin } from "../../shared/auth";
import { errorBody } from "../../shared/schemas";
import { METRICS_CONTENT_TYPE } from "../../shared/http";
// Bodies serialised ahead are returned with their content type, never wrapped in a Response (sendAs says why).
import { jsonText, sendAs } from "../../shared/response-validation";
import * as m from "./model";
import * as svc from "./service";
import { communityMetrics, serverMetrics } from "./metrics";
import { enqueueRollups, enqueueScan } from "./jobs";
import { rebuildLiveSnapshot } from "./snapshot";

const errors = { 400: errorBody, 404: errorBody };


export const liveRoutes = (deps: Deps) => {
  const strictResponses = deps.config.LOADOUT_RESPONSE_VALIDATION === "strict";
  // The live snapshot is built at start (migrations have run), then after every scan commit.
  rebuildLiveSnapshot(deps.sqlite, deps.clock.now());
  return new Elysia({ tags: ["live game servers"] })
    .use(authPlugin(deps))
    // ---- Live game servers (public) --------------------------------------------------------
    // The page is copied from entries serialised and encoded once per snapshot (no JSON.stringify
    // of 100 objects, no string join or UTF-8 encoding per request); in the test app the objects are sent instead, so the response
    // schema checks them strictly (snapshot.test.ts checks the two are the same text).
    .get("/api/v1/game-servers", ({ query, set }) => (strictResponses ? svc.listServers(deps, query) : jsonText(set, svc.listServersBytes(deps, query))), {
      query: m.listQuery,
      response: { 200: z.array(m.serverEntry), 400: errorBody },
      detail: { summary: "Live servers (online, seen within the last hour), filtered and sorted", description: `sort_by: one of ${m.SERVER_SORTS.join(", ")} (default players_desc).` },
    })
    // An online server's detail is UTF-8 JSON built from its mods' item fragments (serialised once
    // per catalog change) and kept per scan (detail.ts); offline servers are read from SQLite. The
    // test app sends the object (schema-checked).
    .get(
      "/api/v1/game-servers/:id",
      ({ params, set }) => (strictResponses ? svc.serverDetail(deps, params.id) : jsonText(set, svc.serverDetailBytes(deps, params.id))),
      {
        params: m.idParams,
        response: { 200: m.serverDetail, ...errors },
        detail: {
          summary: "One server with its complete mod list and the items of those mods",
          description: "Online servers answer from the live snapshot of the last scan and their mods' catalog data and items, serialised once per catalog change; offline ones from their stored history.",
        },
      },
    )
    .get("/api/v1/game-servers/:id/mods", ({ params, query }) => svc.serverMods(deps, params.id, query.page, query.limit), {
      params: m.idParams,
      query: m.serverPageQuery,
      response: { 200: m.serverModsPage, ...errors },
      detail: { summary: "The server's mods, paginated; total_size_bytes sums all of them" },
    })
    // The series answer from memory while nothing was written (series-cache.ts): its JSON as kept;
    // the test app sends the same text parsed (schema-checked).
    .get("/api/v1/game-servers/:id/stats", ({ params, query, set }) => (strictResponses ? svc.serverStats(deps, params.id, query.days) : jsonText(set, svc.serverStatsBody(deps, params.id, query.days))), {
      params: m.idParams,
      query: m.daysQuery,
      response: { 200: z.array(m.serverStatPoint), ...errors },
      detail: { summary: "Player history: raw 5-minute points for 1 day, hourly up to 14 days, 3-hourly beyond" },
    })
    .get("/api/v1/game-servers/:id/stats/range", ({ params }) => svc.serverStatsRange(deps, params.id), {
      params: m.idParams,
      response: { 200: m.rangeBody, ...errors },
      detail: { summary: "Oldest timestamp with data, or null" },
    })
    .get(
      "/api/v1/game-servers/:id/mod-changelog",
      ({ params, query }) => svc.modChangelog(deps, params.id, query.page, query.limit),
      {
        params: m.idParams,
        query: m.serverPageQuery,
        response: { 200: m.changelogPage, ...errors },
        detail: { summary: "Mods added, removed or changed in version on the server, newest first" },
      },
    )
    .post(
      "/api/v1/game-servers/:id/community",
      ({ params, body, user, set }) => {
        const id = (body.community_id ?? "").trim();
        svc.assignCommunity(deps, user.id, params.id, id === "" ? null : id);
        set.status = 204;
      },
      {
        auth: true,
        params: m.idParams,
        body: m.communityAssignBody,
        detail: { summary: "Assign the server to one of the caller's communities ({community_id: \"\"} unassigns)" },
      },
    )
    .post(
      "/api/v1/modlists/copy-from-server/:id",
      ({ params, body, user }) => svc.copyFromServer(deps, user, params.id, body),
      {
        auth: true,
        params: m.idParams,
        body: m.copyFromServerBody,
        response: { 200: z.object({ list_id: z.string() }), 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 422: errorBody },
        detail: { summary: "Copy a live server's mods into a new list, or overwrite one the caller owns (one import audit entry)" },
      },
    )
    // ---- Global statistics (public) --------------------------------------------------------
    .get("/api/v1/stats/top-servers", () => svc.topServers(deps), {
      response: { 200: z.array(m.topServer) },
      detail: { summary: "Top 10 servers by 7-day average player count" },
    })
    .get("/api/v1/stats/top-mods", () => svc.topMods(deps), {
      response: { 200: z.array(m.topMod) },
      detail: { summary: "Top 10 mods by servers online in the last hour using them" },
    })
    .get("/api/v1/stats/global-players", ({ query, set }) => (strictResponses ? svc.globalPlayers(deps, query.days) : jsonText(set, svc.globalPlayersBody(deps, query.days))), {
      query: m.daysQuery,
      response: { 200: z.array(m.globalStatPoint), 400: errorBody },
      detail: { summary: "Players and online servers over time" },
    })
    .get("/api/v1/stats/global-players/range", () => svc.globalPlayersRange(deps), {
      response: { 200: m.rangeBody },
      detail: { summary: "Oldest timestamp of the global series, or null" },
    })
    .get(
      "/api/v1/stats/community-players/:community_id",
      ({ params, query, set }) =>
        strictResponses ? svc.communityPlayers(deps, params.community_id, query.days) : jsonText(set, svc.communityPlayersBody(deps, params.community_id, query.days)),
      {
        params: z.object({ community_id: z.string() }),
        query: m.daysQuery,
        response: { 200: z.array(m.communityStatPoint), ...errors },
        detail: { summary: "Players, queue and online servers of a community's servers over time" },
      },
    )
    .get(
      "/api/v1/stats/community-players/:community_id/range",
      ({ params }) => svc.communityPlayersRange(deps, params.community_id),
      {
        params: z.object({ community_id: z.string() }),
        response: { 200: m.rangeBody, ...errors },
        detail: { summary: "Oldest timestamp of the community series, or null" },
      },
    )
    // ---- Admin triggers --------------------------------------------------------------------
    .post(
      "/api/v1/jobs/game-servers",
      ({ user, set }) => {
        set.status = 202;
        return { job_id: enqueueScan(deps, user.id) };
      },
      { admin: true, response: { 202: m.jobAccepted, 401: errorBody, 403: errorBody }, detail: { summary: "Scan live servers now (Admin)" } },
    )
    .post(
      "/api/v1/jobs/rollups",
      ({ user, set }) => {
        set.status = 202;
        // The catalog's growth snapshot is a roll-up too: run it alongside (its own job).
        deps.jobs.enqueue(JOB_GROWTH, {}, { dedupeKey: "catalog:growth", createdBy: user.id });
        return { job_id: enqueueRollups(deps, user.id) };
      },
      {
        admin: true,
        response: { 202: m.jobAccepted, 401: errorBody, 403: errorBody },
        detail: { summary: "Run the stats roll-ups now (Admin): player history buckets and retention; also queues the catalog's growth snapshot" },
      },
    )
    // ---- Metrics paths (no /api/v1 prefix, no authentication) ------------------------------
    .get("/servers/:id/metrics", ({ params, set }) => sendAs(set, METRICS_CONTENT_TYPE, serverMetrics(deps, params.id)), {
      params: m.idParams,
      detail: { summary: "Metrics of one live game server (text format 0.0.4)" },
    })
    .get("/community/:slug/metrics", ({ params, set }) => sendAs(set, METRICS_CONTENT_TYPE, communityMetrics(deps, params.slug)), {
      params: z.object({ slug: z.string() }),
      detail: { summary: "Metrics of one community (text format 0.0.4)" },
    });
};
