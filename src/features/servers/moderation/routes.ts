// HTTP surface of moderation (docs/rcon.md "Moderation"): kick and ban (owner and moderators), the
// bans and the log, moderators (owner). Paths, guards and schemas; the rules are in service.ts.
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../../deps";
import { authPlugin } from "../../../shared/auth";
import { errorBody, okBody } from "../../../shared/schemas";
import * as m from "./model";
import * as svc from "./service";

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody, 502: errorBody };
const params = z.object({ id: z.string() });

export const moderationRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1", tags: ["moderation"] })
    .use(authPlugin(deps))
    .get("/servers/moderated", ({ user }) => svc.moderatedServers(deps, user), {
      auth: true,
      response: { 200: z.array(m.moderatedServerView), 401: errorBody },
      detail: { summary: "The servers the caller moderates (their players, bans and log; GET /servers/:id stays the owner's)" },
    })
    .post("/servers/:id/players/:playerId/kick", ({ user, params, body }) => svc.kickPlayer(deps, user, params.id, params.playerId, body.reason), {
      auth: true,
      params: m.kickParams,
      body: m.kickBody,
      response: { 200: okBody, ...errors },
      detail: { summary: "Kick a player on the server's latest roster (#kick <player number>); owner and moderators; the reason is kept in the log (the game takes none)" },
    })
    .post(
      "/servers/:id/bans",
      async ({ user, params, body, set }) => {
        set.status = 201;
        return svc.createBan(deps, user, params.id, body);
      },
      {
        auth: true,
        params,
        body: m.banBody,
        response: { 201: m.banView, ...errors },
        detail: {
          summary: "Ban a player (owner and moderators): by player_id while on (banned by their number, which removes them) or by uid; duration_s (0 = permanent), reason; scope server or all",
          description:
            "Loadout's list is the truth: after every RCON (re)connection the server's own ban list is read and what is missing is issued again; a banned uid that shows up is kicked and banned again. `all` covers every server of the owner that has RCON.",
        },
      },
    )
    .get("/servers/:id/bans", ({ user, params, query }) => svc.serverBans(deps, user, params.id, query.active), {
      auth: true,
      params,
      query: m.bansQuery,
      response: { 200: z.array(m.banView), ...errors },
      detail: { summary: "The bans covering this server, newest first (active=true: in force; active=false: lifted or run out)" },
    })
    .get("/bans", ({ user }) => svc.visibleBans(deps, user), {
      auth: true,
      response: { 200: z.array(m.banView), 401: errorBody },
      detail: { summary: "Every ban on servers the caller owns or moderates, newest first" },
    })
    .delete(
      "/bans/:id",
      async ({ user, params, set }) => {
        await svc.liftBan(deps, user, params.id);
        set.status = 204;
      },
      { auth: true, params, detail: { summary: "Lift a ban on every server it covers (#ban remove); the owner any, a moderator their own" } },
    )
    .get("/servers/:id/moderation-log", ({ user, params }) => svc.moderationLog(deps, user, params.id), {
      auth: true,
      params,
      response: { 200: z.array(m.moderationLogView), ...errors },
      detail: { summary: "Every kick, ban, lift, re-application and expiry on this server, newest first, with the server's answer" },
    })
    .get("/servers/:id/moderators", ({ user, params }) => svc.listModerators(deps, user, params.id), {
      auth: true,
      params,
      response: { 200: z.array(m.moderatorView), ...errors },
      detail: { summary: "The server's moderators (owner)" },
    })
    .post("/servers/:id/moderators", ({ user, params, body }) => svc.addModerator(deps, user, params.id, body), {
      auth: true,
      params,
      body: m.moderatorBody,
      response: { 200: z.array(m.moderatorView), ...errors },
      detail: { summary: "Make a user a moderator of the server (owner): they see its roster, sessions, player pages and bans, and kick and ban; nothing else of it" },
    })
    .delete(
      "/servers/:id/moderators/:userId",
      ({ user, params, set }) => {
        svc.removeModerator(deps, user, params.id, params.userId);
        set.status = 204;
      },
      { auth: true, params: z.object({ id: z.string(), userId: z.string() }), detail: { summary: "Remove a moderator (owner)" } },
    );
