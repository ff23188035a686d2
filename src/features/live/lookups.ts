// The live feature's 404s: a server or a community by id, as its reads need them.
import type { Database } from "bun:sqlite";
import { AppError } from "../../shared/errors";
import { communitiesRepo, serversRepo, type ServerRow } from "./repository/servers";

const serverNotFound = () => new AppError("live.server_not_found", "game server not found");

/** A server's row by id; 404 `game server not found` for an unknown one. */
export function serverRow(sqlite: Database, id: string): ServerRow {
  const r = serversRepo.row(sqlite, id);
  if (!r) throw serverNotFound();
  return r;
}

/** A server's series key (`sid`) by id; 404 for an unknown server. */
export function serverSid(sqlite: Database, id: string): number {
  const sid = serversRepo.sid(sqlite, id);
  if (sid === null) throw serverNotFound();
  return sid;
}

/** A community by id; 404 `community not found` for an unknown one. */
export function requireCommunity(sqlite: Database, id: string): { id: string; slug: string; name: string } {
  const c = communitiesRepo.byId(sqlite, id);
  if (!c) throw new AppError("community.not_found", "community not found");
  return c;
}
