// Time series with uPlot: local time on the x axis, units on the y axis, the exact value in the
// legend as the pointer moves, missing buckets drawn as gaps (not as zero), colours from the
// theme, and a data table for screen readers (and anyone who prefers numbers).
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { dateTime, num } from "../app/format";
import type { GrowthPoint } from "../app/types";
import { DataTable } from "./components";

const BUCKET_S = 3 * 3600;

/** Seconds and values with nulls where a 3-hour bucket is missing. */
export function withGaps(points: GrowthPoint[]): [number[], (number | null)[], (number | null)[]] {
  const xs: number[] = [];
  const servers: (number | null)[] = [];
  const players: (number | null)[] = [];
  let prev: number | null = null;
  for (const p of points) {
    const t = Math.floor(Date.parse(p.time) / 1000);
    if (prev !== null) for (let g = prev + BUCKET_S; g < t; g += BUCKET_S) (xs.push(g), servers.push(null), players.push(null));
    xs.push(t);
    servers.push(p.used_by_servers_count);
    players.push(p.players_using_count);
    prev = t;
  }
  return [xs, servers, players];
}

const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || "#888";

export function GrowthChart({ points }: { points: GrowthPoint[] }) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!el.current) return;
    const data = withGaps(points);
    const axis = { stroke: css("--muted"), grid: { stroke: css("--border"), width: 1 }, ticks: { stroke: css("--border") } };
    const plot = new uPlot(
      {
        width: el.current.clientWidth || 600,
        height: 260,
        series: [
          { value: (_u, v) => (v === null ? "–" : dateTime(new Date(v * 1000).toISOString())) },
          { label: "Servers", stroke: css("--accent"), width: 2, spanGaps: false, value: (_u, v) => (v === null ? "no data" : num(v)) },
          { label: "Players", stroke: css("--ok"), width: 2, scale: "players", spanGaps: false, value: (_u, v) => (v === null ? "no data" : num(v)) },
        ],
        axes: [
          { ...axis },
          { ...axis, label: "servers", scale: "y" },
          { ...axis, label: "players", scale: "players", side: 1, grid: { show: false } },
        ],
        scales: { x: { time: true } },
      },
      data as uPlot.AlignedData,
      el.current,
    );
    const resize = () => plot.setSize({ width: el.current?.clientWidth || 600, height: 260 });
    window.addEventListener("resize", resize);
    return () => {
      window.removeEventListener("resize", resize);
      plot.destroy();
    };
  }, [points]);
  return (
    <figure style={{ margin: 0 }}>
      <div ref={el} className="chart" role="img" aria-label={`Chart of servers and players using this mod, ${points.length} points; the table below has the values`} />
      <details>
        <summary>Data table</summary>
        <DataTable
          caption="Servers and players using this mod, every 3 hours"
          rows={points}
          rowKey={(p) => p.time}
          columns={[
            { header: "Time", cell: (p) => dateTime(p.time) },
            { header: "Servers", num: true, cell: (p) => num(p.used_by_servers_count) },
            { header: "Players", num: true, cell: (p) => num(p.players_using_count) },
          ]}
        />
      </details>
    </figure>
  );
}
