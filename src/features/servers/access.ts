// Who may see a registered server: its owner (anyone else gets 404, as if it did not exist).
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import type { AccessUser } from "../lists";
import { isModerator } from "./moderation/repository";
import * as repo from "./repository";

export const SERVER_NOT_FOUND = "server not found";

/** The caller's own server, or 404 `server not found`. */
export function ownServer(deps: Pick<Deps, "db">, user: AccessUser, id: string): repo.ServerRow {
  const server = repo.getServer(deps.db, id);
  if (!server || server.owner_id !== user.id) throw new AppError("server.not_found", SERVER_NOT_FOUND);
  return server;
}

export type ServerRole = "owner" | "moderator";

/** The server when the caller owns it or moderates it (sees its players and bans, kicks and bans), else 404. */
export function moderatedServer(deps: Pick<Deps, "db" | "sqlite">, user: AccessUser, id: string): { server: repo.ServerRow; role: ServerRole } {
  const server = repo.getServer(deps.db, id);
  if (server && server.owner_id === user.id) return { server, role: "owner" };
  if (server && isModerator(deps.sqlite, id, user.id)) return { server, role: "moderator" };
  throw new AppError("server.not_found", SERVER_NOT_FOUND);
}
