// A community's page: who it is, its players over time (24 h, 14 d, 365 d), its servers online
// now and its public lists. Public: a community links it from its own site.
import { Link, useParams, useSearch } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { bytes, num, count } from "../app/format";
import { DataTable, ErrorMessage, Skeleton } from "../ui/components";
import type { Series } from "../ui/chart";
import { communityPage, communityPlayers, communityServers, RANGES, type CommunityStatPoint } from "./live.services";
import { PlayersBar } from "./components/players-bar";
import { ServerLink } from "./components/server-link";
import { ChartCard } from "./components/chart-card";
import { listQueries } from "../lists/lists.queries";

const SERIES: Series<CommunityStatPoint>[] = [
  { label: "Players", unit: "players", value: (p) => p.total_players, color: "--accent" },
  { label: "In queue", unit: "players", value: (p) => p.total_queue, color: "--warn" },
  { label: "Servers online", unit: "servers", value: (p) => p.online_servers, color: "--ok" },
];

export function CommunityPage() {
  const { id } = useParams({ from: "/communities/$id" });
  const search = useSearch({ from: "/communities/$id" });
  const range = RANGES.find((r) => r.key === (search.range ?? "24h"))!;
  const c = useQuery({ queryKey: ["community", id], queryFn: ({ signal }) => communityPage(id, signal) });
  const cid = c.data?.id;
  const series = useQuery({ queryKey: ["community-players", cid, range.days], queryFn: ({ signal }) => communityPlayers(cid!, range.days, signal), enabled: !!cid });
  const servers = useQuery({ queryKey: ["community-servers", cid], queryFn: ({ signal }) => communityServers(cid!, signal), enabled: !!cid });
  const lists = useQuery({ ...listQueries.publicOf(cid!), enabled: !!cid });
  if (c.isLoading) return <Skeleton lines={6} label="Loading the community" />;
  if (c.error) return <ErrorMessage error={c.error} retry={() => c.refetch()} />;
  const com = c.data!;
  return (
    <article className="stack">
      <div>
        <h1>{com.name}</h1>
        {com.description && <p className="prose">{com.description}</p>}
        <p className="muted small">
          {num(com.member_count)} {com.member_count === 1 ? "member" : "members"} · metrics at <code>/community/{com.slug}/metrics</code>
        </p>
      </div>
      <ChartCard
        id="cplayers-h"
        heading="Players on its servers"
        query={series}
        series={SERIES}
        range={range}
        what={`players on ${com.name}'s servers`}
        empty="No history in this range yet: assign servers to the community, and the next scans record them."
      />
      <section className="card stack" aria-labelledby="cservers-h">
        <h2 id="cservers-h" style={{ margin: 0 }}>
          Servers online now
        </h2>
        <ErrorMessage error={servers.error} />
        {servers.data && (
          <DataTable
            compact
            empty="None of its servers is online."
            caption={`${com.name}'s servers online now`}
            rows={servers.data}
            rowKey={(s) => s.id}
            columns={[
              {
                header: "Server",
                cell: (s) => <ServerLink server={s} />,
              },
              { header: "Players", cell: (s) => <PlayersBar players={s.player_count} limit={s.player_count_limit} /> },
              { header: "Scenario", cell: (s) => s.scenario_name || "–" },
              { header: "Download", num: true, cell: (s) => bytes(s.mods_size_bytes) },
            ]}
          />
        )}
      </section>
      <section className="card stack" aria-labelledby="clists-h">
        <h2 id="clists-h" style={{ margin: 0 }}>
          Public lists
        </h2>
        <ErrorMessage error={lists.error} />
        {lists.data && lists.data.length === 0 && <p className="muted">No public list yet.</p>}
        {lists.data && lists.data.length > 0 && (
          <ul className="plain">
            {lists.data.map((l) => (
              <li key={l.id}>
                <Link to="/lists/$id" params={{ id: l.id }} search={{}}>
                  {l.name}
                </Link>{" "}
                <span className="muted small">
                  {count(l.mod_count, "mod")}, {bytes(l.total_size_bytes)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}
