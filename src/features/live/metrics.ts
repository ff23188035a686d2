// Per-entity metrics of live servers and communities in the text format 0.0.4
// (Prometheus exposition format): HELP and TYPE once per metric, label values escaped, trailing
// newline. Five names the API fixes end in _total/_count although they are gauges (docs/live.md
// "Metrics").
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { stmt } from "./repository";
import { inOneRead } from "../../db/statements";
import { ONLINE_WINDOW } from "./entry";

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const escapeHelp = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

type Labels = Record<string, string>;

export class MetricsText {
  private out: string[] = [];
  gauge(name: string, help: string, labels: Labels, value: number) {
    const l = Object.entries(labels)
      .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
      .join(",");
    this.out.push(`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} gauge`, `${name}${l ? `{${l}}` : ""} ${Number.isFinite(value) ? value : 0}`);
    return this;
  }
  toString() {
    return this.out.join("\n") + "\n";
  }
}

export function serverMetrics(deps: Pick<Deps, "sqlite" | "clock">, id: string): string {
  const r = stmt(
    deps.sqlite,
    `SELECT id, name, host_address, scenario_name, game_version, official, password_protected, player_count,
       queue_players_count, wait_time_estimation, player_count_limit, mods_count, mods_size_bytes, last_seen_at
     FROM game_servers WHERE id = ?`,
  ).get(id) as any;
  if (!r) throw new AppError(404, "game server not found");
  const online = r.last_seen_at >= deps.clock.now() - ONLINE_WINDOW;
  const l = { server_id: r.id };
  return new MetricsText()
    .gauge(
      "loadout_server_info",
      "Live game server information (always 1)",
      {
        server_id: r.id,
        name: r.name,
        host_address: r.host_address,
        scenario_name: r.scenario_name,
        game_version: r.game_version,
        official: r.official ? "true" : "false",
        password_protected: r.password_protected ? "true" : "false",
      },
      1,
    )
    .gauge("loadout_server_online", "1 if the server reported within the last hour", l, online ? 1 : 0)
    .gauge("loadout_server_players", "Players on the server", l, r.player_count)
    .gauge("loadout_server_queue_players", "Players in the join queue", l, r.queue_players_count)
    .gauge("loadout_server_wait_time_seconds", "Estimated join-queue wait in seconds", l, r.wait_time_estimation)
    .gauge("loadout_server_player_limit", "Maximum players", l, r.player_count_limit)
    .gauge("loadout_server_mods_count", "Mods the server runs", l, r.mods_count)
    .gauge("loadout_server_mods_size_bytes", "Sum of the sizes of the server's mods in bytes", l, r.mods_size_bytes)
    .toString();
}

export function communityMetrics(deps: Pick<Deps, "sqlite" | "clock">, slug: string): string {
  // Three statements, one read transaction (db/statements inOneRead: ~48 → ~30 µs a request).
  return inOneRead(deps.sqlite, () => communityMetricsRead(deps, slug));
}

function communityMetricsRead(deps: Pick<Deps, "sqlite" | "clock">, slug: string): string {
  const c = stmt(deps.sqlite, `SELECT id, slug, name FROM communities WHERE slug = ?`).get(slug) as
    | { id: string; slug: string; name: string }
    | null;
  if (!c) throw new AppError(404, "community not found");
  const s = stmt(
    deps.sqlite,
    `SELECT count(*) AS total,
       count(CASE WHEN last_seen_at >= $since THEN 1 END) AS online,
       coalesce(sum(CASE WHEN last_seen_at >= $since THEN player_count END), 0) AS players,
       coalesce(sum(CASE WHEN last_seen_at >= $since THEN queue_players_count END), 0) AS queue
     FROM game_servers WHERE community_id = $id`,
  ).get({ id: c.id, since: deps.clock.now() - ONLINE_WINDOW }) as { total: number; online: number; players: number; queue: number };
  const lists = (
    stmt(deps.sqlite, `SELECT count(*) AS n FROM lists WHERE community_id = ? AND is_public = 1`).get(c.id) as { n: number }
  ).n;
  const l = { community_id: c.id };
  return new MetricsText()
    .gauge("loadout_community_info", "Community information (always 1)", { community_id: c.id, slug: c.slug, name: c.name }, 1)
    .gauge("loadout_community_servers_total", "Game servers assigned to the community", l, s.total)
    .gauge("loadout_community_servers_online", "Assigned servers that reported within the last hour", l, s.online)
    .gauge("loadout_community_players_total", "Players on the community's online servers", l, s.players)
    .gauge("loadout_community_queue_total", "Queued players on the community's online servers", l, s.queue)
    .gauge("loadout_community_public_lists_total", "Public mod lists of the community", l, lists)
    .toString();
}
