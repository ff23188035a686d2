// HTTP surface of RCON on own servers (docs/rcon.md): settings and their test (owners), who is on,
// who was on, one player's history. Paths, guards and schemas; the rules are in service.ts.
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../../deps";
import { authPlugin } from "../../../shared/auth";
import { errorBody } from "../../../shared/schemas";
import * as m from "../model";
import * as r from "./model";
import { moderatedServer } from "../access";
import { getServer } from "../service";
import * as rcon from "./service";

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };
const params = z.object({ id: z.string() });

export const rconRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1/servers", tags: ["servers"] })
    .use(authPlugin(deps))
    .put(
      "/:id/rcon",
      async ({ user, params, body }) => {
        await rcon.setRcon(deps, user, params.id, body);
        return getServer(deps, user, params.id);
      },
      {
        auth: true,
        params,
        body: r.rconBody,
        response: { 200: m.serverView, 502: errorBody, ...errors },
        detail: {
          summary: "Set the server's RCON (owner): host (default: the SFTP host, else query_address's host), port (default 19999), password (sealed, never returned)",
          description:
            "`from_config: true` takes the port and password (and the address, unless it is 0.0.0.0) of the `rcon` block of the server's config, read over its connection now. " +
            "The host follows the same private-address rule as panel and SFTP targets. The connection is (re)opened at once; `rcon.status` says how it goes.",
        },
      },
    )
    .delete(
      "/:id/rcon",
      async ({ user, params, set }) => {
        await rcon.deleteRcon(deps, user, params.id);
        set.status = 204;
      },
      { auth: true, params, detail: { summary: "Forget the server's RCON (owner): the connection closes, open sessions end; restart_via goes back to connection" } },
    )
    .post("/:id/rcon/test", ({ user, params }) => rcon.testRcon(deps, user, params.id), {
      auth: true,
      params,
      response: { 200: r.rconTestView, ...errors },
      detail: { summary: "Log in over RCON and read the roster once: {ok: true, players} or {ok: false, error} in words" },
    })
    .get("/:id/players", ({ user, params }) => rcon.playersNow(deps, moderatedServer(deps, user, params.id).server), {
      auth: true,
      params,
      response: { 200: r.playersView, ...errors },
      detail: { summary: "Who is on the server, from the last RCON roster (read every LOADOUT_RCON_POLL_S); the owner and the server's moderators; 409 without RCON" },
    })
    .get("/:id/sessions", ({ user, params, query }) => rcon.sessionsOf(deps, moderatedServer(deps, user, params.id).server, query), {
      auth: true,
      params,
      query: r.sessionsQuery,
      response: { 200: z.array(r.sessionView), ...errors },
      detail: { summary: "Players' stays on the server overlapping from..to (default the last 24 hours), newest first; uid= for one player" },
    })
    .get("/:id/players/:uid", ({ user, params }) => rcon.playerOf(deps, moderatedServer(deps, user, params.id).server, params.uid), {
      auth: true,
      params: r.playerParams,
      response: { 200: r.playerView, ...errors },
      detail: { summary: "One player on this server: the names they went by, their sessions and their time on it" },
    });
