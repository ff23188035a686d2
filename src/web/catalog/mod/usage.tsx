// The Live usage tab: how many servers used the mod over 7, 30 or 180 days (the chart, uPlot,
// loads only here) and the live servers using it now.
import { Suspense, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { DataTable, ErrorMessage, SelectField, Skeleton } from "../../ui/components";
import { LazyGrowthChart } from "../../ui/lazy-chart";
import { modGrowth, modServers } from "../catalog.services";
import type { ModTabProps } from "./tab";

export default function Usage({ id }: ModTabProps) {
  const [days, setDays] = useState(180);
  const growth = useQuery({ queryKey: ["mod-growth", id, days], queryFn: ({ signal }) => modGrowth(id, days, signal) });
  const servers = useQuery({ queryKey: ["mod-servers", id], queryFn: ({ signal }) => modServers(id, signal) });
  return (
    <section className="stack" aria-label="Live usage">
      <div className="card stack">
        <div className="row" style={{ justifyContent: "space-between" }}>
          <h2 style={{ margin: 0 }}>Servers using it over time</h2>
          <SelectField label="Range" value={String(days)} onChange={(e) => setDays(Number(e.target.value))}>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
            <option value="180">180 days</option>
          </SelectField>
        </div>
        <ErrorMessage error={growth.error} />
        {growth.isLoading ? (
          <Skeleton lines={4} />
        ) : growth.data && growth.data.length > 0 ? (
          <Suspense fallback={<Skeleton lines={4} />}>
            <LazyGrowthChart points={growth.data} days={days} />
          </Suspense>
        ) : (
          <p className="muted">No usage recorded in this range yet: the growth series starts when live scans see servers.</p>
        )}
      </div>
      <div className="card">
        <h2 style={{ marginTop: 0 }}>Servers using it now</h2>
        <ErrorMessage error={servers.error} />
        {servers.data && (
          <DataTable
            compact
            empty="No live server seen in the last hour uses this mod."
            caption="Live servers using this mod"
            rows={servers.data}
            rowKey={(x) => x.id}
            columns={[
              { header: "Server", cell: (x) => x.name },
              { header: "Players", num: true, cell: (x) => `${x.player_count}/${x.player_count_limit}` },
              { header: "Scenario", cell: (x) => x.scenario_name },
            ]}
          />
        )}
      </div>
    </section>
  );
}
