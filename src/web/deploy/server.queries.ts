// The queries of one server's pages (its tabs and its player pages): each cache key with its
// fetch (`queryOptions`), and what an act of moderation makes stale, in one place.
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { server, serverStatus } from "./my-servers.services";
import { moderatedServers, moderationLog, moderators, player, roster, serverBans, sessions } from "./players.services";

/** How often the roster and the sessions are asked again while they are on screen. */
export const ROSTER_REFRESH_MS = 10_000;
/** How often the status header asks again (the API keeps an answer 5 s). */
export const STATUS_REFRESH_MS = 30_000;

export const serverQueries = {
  /** The owner's view of the server (404 for anyone else, moderators included). */
  server: (id: string) => queryOptions({ queryKey: ["server", id], queryFn: ({ signal }) => server(id, signal) }),
  /** Whether it answers, players, where to connect, what was deployed (the header; asked every 30 s while shown). */
  status: (id: string) => queryOptions({ queryKey: ["server-status", id], queryFn: ({ signal }) => serverStatus(id, signal), refetchInterval: STATUS_REFRESH_MS }),
  moderated: () => queryOptions({ queryKey: ["servers-moderated"], queryFn: ({ signal }) => moderatedServers(signal) }),
  roster: (id: string) => queryOptions({ queryKey: ["players", id], queryFn: ({ signal }) => roster(id, signal), refetchInterval: ROSTER_REFRESH_MS }),
  sessions: (id: string) => queryOptions({ queryKey: ["sessions", id], queryFn: ({ signal }) => sessions(id, signal), refetchInterval: ROSTER_REFRESH_MS }),
  player: (id: string, uid: string) => queryOptions({ queryKey: ["player", id, uid], queryFn: ({ signal }) => player(id, uid, signal) }),
  bans: (id: string) => queryOptions({ queryKey: ["bans", id], queryFn: ({ signal }) => serverBans(id, signal) }),
  log: (id: string) => queryOptions({ queryKey: ["moderation-log", id], queryFn: ({ signal }) => moderationLog(id, signal) }),
  moderators: (id: string) => queryOptions({ queryKey: ["moderators", id], queryFn: ({ signal }) => moderators(id, signal) }),
};

/** After a kick, a ban or a lift: the roster, the bans (of every server: a ban may cover all), the logs and player pages. */
export function invalidateModeration(qc: QueryClient, id: string) {
  void qc.invalidateQueries({ queryKey: ["players", id] });
  void qc.invalidateQueries({ queryKey: ["sessions", id] });
  void qc.invalidateQueries({ queryKey: ["bans"] });
  void qc.invalidateQueries({ queryKey: ["moderation-log"] });
  void qc.invalidateQueries({ queryKey: ["player", id] });
}

/** After RCON settings change: the server view (its `rcon`), and what is read through the connection. */
export function invalidateRcon(qc: QueryClient, id: string) {
  void qc.invalidateQueries({ queryKey: ["server", id] });
  void qc.invalidateQueries({ queryKey: ["server-status", id] });
  void qc.invalidateQueries({ queryKey: ["servers"] });
  void qc.invalidateQueries({ queryKey: ["players", id] });
  void qc.invalidateQueries({ queryKey: ["sessions", id] });
}
