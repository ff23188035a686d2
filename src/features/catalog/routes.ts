// GET /api/v1/mods* (public). Paths, schemas, nothing else. (What live servers make of a mod,
// /mods/:id/stats, /mods/:id/servers and /mod/:id/metrics, is answered by the live feature.)
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../deps";
import { errorBody } from "../../shared/schemas";
import { jsonText } from "../../shared/response-validation";
import * as M from "./model";
import * as svc from "./service";

const errors = { 400: errorBody, 404: errorBody };

export const catalogRoutes = (deps: Deps) => {
  const strict = deps.config.LOADOUT_RESPONSE_VALIDATION === "strict";
  return new Elysia({ prefix: "/api/v1/mods", tags: ["catalog"] })
    // Joined from summaries serialised once per catalog write; the test app parses it back.
    .get("/", ({ query, set }) => {
      const text = svc.listModsJson(deps, query);
      return strict ? JSON.parse(text) : jsonText(set, text);
    }, {
      query: M.listModsQuery,
      response: { 200: M.modListResponse, 400: errorBody },
      detail: {
        summary: "Search and browse the catalog",
        description:
          "Full-text search over name, author, summary and tags (every word must match, each as a prefix), tag filter, " +
          `sorts ${M.MOD_SORTS.join(", ")} (default: relevance when searching, else updated_desc). ` +
          "page from 1, limit 1..100 (default 20).",
      },
    })
    .get("/autocomplete", ({ query, set }) => {
      const text = svc.autocompleteJson(deps, query.q);
      return strict ? JSON.parse(text) : jsonText(set, text);
    }, {
      query: M.autocompleteQuery,
      response: { 200: z.array(M.autocompleteEntry), 400: errorBody },
      detail: { summary: "Up to 10 mods whose name matches the prefix" },
    })
    .get("/:workshopID", ({ params, set }) => {
      const text = svc.getModDetailJson(deps, params.workshopID);
      return strict ? JSON.parse(text) : jsonText(set, text);
    }, {
      params: M.workshopIdParams,
      response: { 200: M.modDetail, ...errors },
      detail: { summary: "Mod detail", description: "Answered from memory: read and serialised once per change of the catalog's mods or dependencies." },
    })
    .get("/:workshopID/metadata", ({ params }) => svc.getMetadata(deps, params.workshopID), {
      params: M.workshopIdParams,
      response: { 200: M.modMetadata, ...errors },
      detail: { summary: "Lightweight metadata" },
    })
    .get("/:workshopID/items", ({ params, query }) => svc.getItems(deps, params.workshopID, query), {
      params: M.workshopIdParams,
      query: M.itemsQuery,
      response: { 200: M.itemsResponse, ...errors },
      detail: { summary: "Extracted items (vehicle, weapon, gear) of a version (default: newest with item data)" },
    })
    .get("/:workshopID/missions", ({ params, query }) => svc.getMissions(deps, params.workshopID, query), {
      params: M.workshopIdParams,
      query: M.versionQuery,
      response: { 200: M.missionsResponse, ...errors },
      detail: { summary: "Missions (scenarios) of a version (default: the current version)" },
    })
    // JSON read and serialised once per catalog write (answers.ts); in the test app parsed back
    // into the object, so the response schema checks the cached text strictly.
    .get("/:workshopID/deps", ({ params, set }) => {
      const text = svc.getDependencyGraphJson(deps, params.workshopID);
      return strict ? JSON.parse(text) : jsonText(set, text);
    }, {
      params: M.workshopIdParams,
      response: { 200: M.depsResponse, ...errors },
      detail: {
        summary: "Transitive dependency graph with sizes and the total download size",
        description: "Answered from memory: read and serialised once per change of the catalog's mods or dependencies.",
      },
    })
    .get("/:workshopID/versions", ({ params }) => svc.getVersions(deps, params.workshopID), {
      params: M.workshopIdParams,
      response: { 200: z.array(M.versionEntry), ...errors },
      detail: { summary: "Version history with changelogs, newest first" },
    })
    .get("/:workshopID/screenshots", ({ params }) => svc.getScreenshots(deps, params.workshopID), {
      params: M.workshopIdParams,
      response: { 200: z.array(M.screenshot), ...errors },
      detail: { summary: "Official screenshot gallery" },
    })
    .get("/:workshopID/item-versions", ({ params }) => svc.getItemVersions(deps, params.workshopID), {
      params: M.workshopIdParams,
      response: { 200: z.array(M.itemVersionEntry), ...errors },
      detail: { summary: "Versions that have extracted item data, newest first" },
    })
    .get("/:workshopID/diff", ({ params, query }) => svc.getItemDiff(deps, params.workshopID, query.from, query.to), {
      params: M.workshopIdParams,
      query: M.diffQuery,
      response: { 200: M.diffResponse, ...errors },
      detail: { summary: "Items added, removed and changed between two versions" },
    })
    .get("/:workshopID/stats/growth", ({ params, query, set }) => {
      const body = svc.getGrowthJson(deps, params.workshopID, query.days);
      return strict ? JSON.parse(new TextDecoder().decode(body)) : jsonText(set, body);
    }, {
      params: M.workshopIdParams,
      query: M.growthQuery,
      response: { 200: z.array(M.growthPoint), ...errors },
      detail: {
        summary: "Growth snapshots, one per 3 hours, days 1..180 (default 30)",
        description: "Answered from memory: read and serialised once per growth snapshot written (and per 3-hour bucket).",
      },
    })
    .get("/:workshopID/stats/growth/range", ({ params }) => svc.getGrowthRange(deps, params.workshopID), {
      params: M.workshopIdParams,
      response: { 200: M.growthRange, ...errors },
      detail: { summary: "Oldest growth snapshot timestamp, or null" },
    });
};
