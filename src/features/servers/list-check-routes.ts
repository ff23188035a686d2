// GET /lists/:id/check: a list's pre-flight report (the lists feature's checkList), and with
// ?server_id= also the findings against one of the caller's servers (deploy/preflight.ts), errors
// first. Answered by the servers feature because its second half needs a server and the deploy's
// pre-flight, and lists know no servers.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin } from "../../shared/auth";
import { AppError } from "../../shared/errors";
import { errorBody } from "../../shared/schemas";
import { checkList, listParams, requireListRead, resolveListAccess } from "../lists";
import { checkQuery, checkResponse } from "./model";
import { checkAgainstServer, serverCheckOut } from "./service";
import { blockingFindings } from "./deploy/preflight";

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 } as const;

export const listCheckRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1/lists", tags: ["lists"] })
    .use(authPlugin(deps))
    .get(
      "/:id/check",
      async ({ params, query, user }) => {
        const listId = requireListRead(resolveListAccess(deps, params.id, user, query.share)).list.id;
        const report = checkList(deps, listId);
        if (query.server_id === undefined) return { ...report, findings: report.findings.map((f) => ({ ...f, blocks_deploy: false })) };
        if (!user) throw new AppError("unauthorized", "unauthorized");
        const server = await checkAgainstServer(deps, user, query.server_id, listId);
        // One severity model: the server decides what stops a deploy (the deploy route's 409 uses the same test).
        const blocking = new Set(blockingFindings(server.findings));
        const findings = [...report.findings, ...server.findings]
          .map((f) => ({ ...f, blocks_deploy: blocking.has(f as (typeof server.findings)[number]) }))
          .sort((a, b) => Number(b.blocks_deploy) - Number(a.blocks_deploy) || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
        return { ...report, ok: !findings.some((f) => f.severity === "error"), findings, server: serverCheckOut(server) };
      },
      {
        optionalAuth: true,
        params: listParams,
        query: checkQuery,
        response: { 200: checkResponse, 401: errorBody, 403: errorBody, 404: errorBody },
        detail: {
          summary:
            "Pre-flight report: missing dependencies, vanished pins, unavailable mods, game version mismatches, download size. With server_id (one of the caller's servers, a list the caller may deploy): also the server findings scenario_missing, scenario_unknown, game_version_newer, game_version_older, file_conflict, config_invalid (what the game refuses in the server's config, with a rename fix for a misspelt or legacy key) and download, and `server` (scenario, game version and where it came from, download sizes). Every finding says whether it stops a deploy (`blocks_deploy`: the deploy route answers 409 for exactly these, unless forced); those come first, then errors, warnings and notes",
        },
      },
    );
