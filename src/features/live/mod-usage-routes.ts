// What live servers make of one catalog mod: GET /api/v1/mods/:id/stats, /mods/:id/servers (in
// the catalog's OpenAPI tag, beside the other /mods paths) and GET /mod/:id/metrics. Paths and
// schemas only; the answers are in mod-usage.ts.
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../deps";
import { METRICS_CONTENT_TYPE } from "../../shared/http";
import { errorBody } from "../../shared/schemas";
import { jsonResponse } from "../../shared/response-validation";
import { liveStats, workshopIdParams } from "../catalog";
import { serverEntryBase } from "./model";
import { getLiveStats, getServersUsingJson, modMetricsText } from "./mod-usage";

const errors = { 400: errorBody, 404: errorBody };

const modUsageApiRoutes = (deps: Deps) => {
  const strict = deps.config.LOADOUT_RESPONSE_VALIDATION === "strict";
  return new Elysia({ prefix: "/api/v1/mods", tags: ["catalog"] })
    .get("/:workshopID/stats", ({ params }) => getLiveStats(deps, params.workshopID), {
      params: workshopIdParams,
      response: { 200: liveStats, ...errors },
      detail: { summary: "Live usage (servers seen in the last hour) and dependency counts" },
    })
    // Joined from entries serialised once per scan; in the test app parsed back into objects, so
    // the response schema checks them strictly (snapshot.test.ts checks the text equals SQL's).
    .get("/:workshopID/servers", ({ params }) => {
      const text = getServersUsingJson(deps, params.workshopID);
      return strict ? JSON.parse(text) : jsonResponse(text);
    }, {
      params: workshopIdParams,
      // The same entry as the live server list.
      response: { 200: z.array(serverEntryBase), ...errors },
      detail: { summary: "Live servers using the mod, most players first" },
    });
};

const modMetricsRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/mod", tags: ["metrics"] }).get(
    "/:workshopID/metrics",
    ({ params }) => new Response(modMetricsText(deps, params.workshopID), { headers: { "content-type": METRICS_CONTENT_TYPE } }),
    {
      params: workshopIdParams,
      detail: { summary: "Mod metrics in the Prometheus text format (loadout_mod_*)" },
    },
  );

export const modUsageRoutes = (deps: Deps) => new Elysia().use(modUsageApiRoutes(deps)).use(modMetricsRoutes(deps));
