// Statistics: players on all live servers over time (24 h, 14 d, 365 d), and the top mods and
// servers right now; each links to its own page (a mod's usage chart is on its catalog page).
import { Link, useSearch } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { num } from "../app/format";
import { DataTable, ErrorMessage, Skeleton } from "../ui/components";
import type { Series } from "../ui/chart";
import { globalPlayers, RANGES, topMods, topServers, type GlobalStatPoint } from "./live.services";
import { ChartCard } from "./components/chart-card";
import { ServerLink } from "./components/server-link";

const SERIES: Series<GlobalStatPoint>[] = [
  { label: "Players", unit: "players", value: (p) => p.total_players, color: "--accent" },
  { label: "Servers online", unit: "servers", value: (p) => p.total_servers_online, color: "--ok" },
];

export function StatsPage() {
  const search = useSearch({ from: "/stats" });
  const range = RANGES.find((r) => r.key === (search.range ?? "24h"))!;
  const series = useQuery({ queryKey: ["global-players", range.days], queryFn: ({ signal }) => globalPlayers(range.days, signal) });
  const mods = useQuery({ queryKey: ["top-mods"], queryFn: ({ signal }) => topMods(signal) });
  const servers = useQuery({ queryKey: ["top-servers"], queryFn: ({ signal }) => topServers(signal) });
  const last = series.data?.at(-1);
  return (
    <div className="stack">
      <h1>Statistics</h1>
      {last && (
        <div className="stat-grid">
          <div className="card">
            <div className="muted small">Players now</div>
            <div className="stat">{num(last.total_players)}</div>
          </div>
          <div className="card">
            <div className="muted small">Servers online</div>
            <div className="stat">{num(last.total_servers_online)}</div>
          </div>
        </div>
      )}
      <ChartCard
        id="global-h"
        heading="Players on all servers"
        query={series}
        series={SERIES}
        range={range}
        what="players and servers online"
        empty="No scan has been recorded in this range yet."
      />
      <div className="grid fill">
        <section className="card stack" aria-labelledby="top-mods-h">
          <h2 id="top-mods-h" style={{ margin: 0 }}>
            Most used mods
          </h2>
          <ErrorMessage error={mods.error} />
          {mods.data && (
            <DataTable
              compact
              empty="No live server runs a mod yet."
              caption="Mods by the number of live servers running them"
              rows={mods.data}
              rowKey={(m) => m.workshop_id}
              columns={[
                {
                  header: "Mod",
                  cell: (m) => (
                    <Link to="/mods/$id" params={{ id: m.workshop_id }} search={{ tab: "usage" }}>
                      {m.name || m.workshop_id}
                    </Link>
                  ),
                },
                { header: "Servers", num: true, cell: (m) => num(m.server_count) },
              ]}
            />
          )}
        </section>
        <section className="card stack" aria-labelledby="top-servers-h">
          <h2 id="top-servers-h" style={{ margin: 0 }}>
            Busiest servers this week
          </h2>
          <ErrorMessage error={servers.error} />
          {servers.data && (
            <DataTable
              compact
              empty="No server has history yet."
              caption="Servers by their average players over seven days"
              rows={servers.data}
              rowKey={(s) => s.id}
              columns={[
                {
                  header: "Server",
                  cell: (s) => <ServerLink server={s} />,
                },
                { header: "Average players", num: true, cell: (s) => num(Math.round(s.avg_players * 10) / 10) },
              ]}
            />
          )}
        </section>
      </div>
    </div>
  );
}
