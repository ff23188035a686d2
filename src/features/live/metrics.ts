// Per-entity metrics of live servers and communities in the text format 0.0.4
// (Prometheus exposition format): HELP and TYPE once per metric, label values escaped, trailing
// newline. Five names the API fixes end in _total/_count although they are gauges (docs/live.md
// "Metrics").
import type { Deps } from "../../deps";
import { AppError } from "../../shared/errors";
import { communitiesRepo, serversRepo } from "./repository/servers";
import type { Database } from "bun:sqlite";
import { inOneRead } from "../../db/statements";
import { timedAnswersModel } from "../../db/read-models";
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
  const r = serversRepo.metricsRow(deps.sqlite, id);
  if (!r) throw new AppError("live.server_not_found", "game server not found");
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

/**
 * A community's metrics text, kept (the three statements were ~30 µs of a ~90 µs request) while
 * - the generation counters it was read at stand: live_state's servers_gen (every write to
 *   game_servers) and community_gen (every write to communities, and to a list's community or
 *   publicity), moved by triggers whoever writes (src/db/schema-objects.sql); another value drops
 *   every kept text;
 * - the clock stays where the same servers count as online: a server counts while
 *   now ≤ last_seen_at + ONLINE_WINDOW, so the read says from which time to which the set it
 *   counted holds (`from`: one past the newest of those not counted leaving the window; `until`:
 *   the oldest of those counted leaving it).
 * An unknown slug is 404 and keeps nothing.
 */
export function communityMetrics(deps: Pick<Deps, "sqlite" | "clock">, slug: string): string {
  const c = communityMetricsModel.current(deps.sqlite);
  const now = deps.clock.now();
  const kept = c.get(slug, now);
  if (kept !== undefined) return kept;
  // Three statements, one read transaction (db/statements inOneRead: ~48 → ~30 µs a request).
  const read = inOneRead(deps.sqlite, () => communityMetricsRead(deps.sqlite, slug, now));
  c.keep(slug, now, read.text, read.from, read.until);
  return read.text;
}

interface KeptMetrics {
  text: string;
  /** The clock times for which the read counts the same servers online. */
  from: number;
  until: number;
}

/** At most this many bytes of community metrics texts are kept per database (~1.8 KB each). */
export const COMMUNITY_METRICS_CACHE_BYTES = 2 * 2 ** 20;

/** The read model: community metrics texts by slug, per connection. */
export const communityMetricsModel = timedAnswersModel<string>({
  name: "live.community-metrics",
  tables: ["communities", "game_servers", "lists"],
  counters: [{ table: "live_state", keys: ["servers_gen", "community_gen"] }],
  maxBytes: COMMUNITY_METRICS_CACHE_BYTES,
  sizeOf: (k, text) => 2 * (k.length + text.length) + 64,
});

/** Lookups of community metrics answered from memory and read anew (tests). */
export function communityMetricsCacheStats(sqlite: Database): { hits: number; misses: number; texts: number } {
  const c = communityMetricsModel.peek(sqlite);
  return { hits: c?.hits ?? 0, misses: c?.misses ?? 0, texts: c?.lru.size ?? 0 };
}

function communityMetricsRead(sqlite: Database, slug: string, now: number): KeptMetrics {
  const c = communitiesRepo.bySlug(sqlite, slug);
  if (!c) throw new AppError("community.not_found", "community not found");
  const s = communitiesRepo.serverSums(sqlite, c.id, now - ONLINE_WINDOW);
  const lists = communitiesRepo.publicLists(sqlite, c.id);
  const l = { community_id: c.id };
  const text = new MetricsText()
    .gauge("loadout_community_info", "Community information (always 1)", { community_id: c.id, slug: c.slug, name: c.name }, 1)
    .gauge("loadout_community_servers_total", "Game servers assigned to the community", l, s.total)
    .gauge("loadout_community_servers_online", "Assigned servers that reported within the last hour", l, s.online)
    .gauge("loadout_community_players_total", "Players on the community's online servers", l, s.players)
    .gauge("loadout_community_queue_total", "Queued players on the community's online servers", l, s.queue)
    .gauge("loadout_community_public_lists_total", "Public mod lists of the community", l, lists)
    .toString();
  return {
    text,
    from: s.newest_offline === null ? -Infinity : s.newest_offline + ONLINE_WINDOW + 1,
    until: s.oldest_online === null ? Infinity : s.oldest_online + ONLINE_WINDOW,
  };
}
