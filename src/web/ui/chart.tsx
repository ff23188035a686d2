// Time series with uPlot: local time on the x axis, units on the y axes, the exact value in the
// legend as the pointer moves, missing buckets drawn as gaps (not as zero), colours from the
// theme (redrawn when it switches), and a data table for screen readers (and anyone who prefers
// numbers). Loaded lazily: uPlot is only in the chunks of pages with a chart.
import { useEffect, useRef } from "react";
import uPlot from "uplot";
// uPlot's stylesheet as a file of its own, linked when a chart first shows: imported as CSS it
// would join the first page's stylesheet (the bundler puts every stylesheet there), which no
// page without a chart needs (docs/performance.md "The web app").
import uplotCss from "uplot/dist/uPlot.min.css" with { type: "file" };
import { dateTime, num } from "../app/format";
import type { GrowthPoint } from "../app/types";
import { DataTable } from "./components";

export interface Series<P> {
  label: string;
  /** The axis unit ("players", "servers"); series with the same unit share an axis. */
  unit: string;
  value: (p: P) => number;
  /** A theme colour variable (--accent, --ok, --warn…). */
  color: string;
}

/** Seconds and one column a series, with a null inserted wherever a bucket is missing. */
export function withGaps<P extends { time: string }>(points: P[], series: Series<P>[], stepSeconds: number): uPlot.AlignedData {
  const xs: number[] = [];
  const cols: (number | null)[][] = series.map(() => []);
  let prev: number | null = null;
  for (const p of points) {
    const t = Math.floor(Date.parse(p.time) / 1000);
    if (prev !== null && t - prev > stepSeconds * 1.5) {
      // One null between two points breaks the line there: a gap, not a slope and not a zero.
      xs.push(prev + stepSeconds);
      for (const c of cols) c.push(null);
    }
    xs.push(t);
    series.forEach((s, i) => cols[i]!.push(s.value(p)));
    prev = t;
  }
  return [xs, ...cols] as uPlot.AlignedData;
}

/** The steps a count's axis may take: whole numbers only (1, 2, 5, 10, 20, 25, 50, …). */
const WHOLE_STEPS = [1, 2, 5].concat(...[1, 2, 3, 4, 5, 6].map((e) => [1, 2, 2.5, 5].map((m) => m * 10 ** e)));

/** Links uPlot's stylesheet once; resolves when it applies, so a chart never draws unstyled. */
let uplotStyles: Promise<void> | null = null;
export function loadChartStyles(): Promise<void> {
  uplotStyles ??= new Promise<void>((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = uplotCss as unknown as string;
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
  return uplotStyles;
}

const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || "#888";

export function TimeChart<P extends { time: string }>({
  points,
  series,
  stepSeconds,
  title,
  rangeSeconds,
  height = 260,
}: {
  points: P[];
  series: Series<P>[];
  /** The resolution the API chose (300, 3600 or 10800 s): a longer step between points is a gap. */
  stepSeconds: number;
  /** What the chart shows, for its accessible name and the table's caption. */
  title: string;
  /** The window asked for (a day, 14 days, a year): the x axis spans it, ending now, however few the points. */
  rangeSeconds?: number;
  height?: number;
}) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!el.current) return;
    const units = [...new Set(series.map((s) => s.unit))];
    let plot: uPlot | null = null;
    // Each y axis's tick values, on the figure (`data-ticks-<unit>`) for tests: the labels are drawn on the canvas.
    const ticks = (unit: string, splits: number[]) => {
      const fig = el.current?.parentElement;
      if (fig) fig.dataset[`ticks${unit[0]!.toUpperCase()}${unit.slice(1)}`] = splits.join(",");
      return splits.map((v) => num(v));
    };
    const draw = () => {
      plot?.destroy();
      const axis = { stroke: css("--muted"), grid: { stroke: css("--border"), width: 1 }, ticks: { stroke: css("--border") } };
      plot = new uPlot(
        {
          width: el.current?.clientWidth || 600,
          height,
          series: [
            { value: (_u, v) => (v === null ? "–" : dateTime(new Date(v * 1000).toISOString())) },
            ...series.map((s) => ({
              label: s.label,
              stroke: css(s.color),
              width: 2,
              scale: s.unit,
              spanGaps: false,
              // With few points a line may not show (one point, or all in one spot): mark each.
              points: { show: points.length <= 60, size: 5 },
              // Not hovering (no index): "–" like the time; hovering a gap: "no data".
              value: (_u: uPlot, v: number | null, _si: number, idx: number | null) => (idx == null ? "–" : v === null ? "no data" : `${num(v)} ${s.unit}`),
            })),
          ],
          // Counts (players, servers) are whole: the y axes step by whole numbers only, so a
          // quiet server's axis reads 0, 1, 2 and never 0.2 players.
          axes: [{ ...axis }, ...units.map((u, i) => ({ ...axis, label: u, scale: u, side: i === 0 ? 3 : 1, grid: { show: i === 0 }, incrs: WHOLE_STEPS, values: (_u: uPlot, splits: number[]) => ticks(u, splits) }))],
          scales: {
            x: rangeSeconds ? { time: true, range: (): uPlot.Range.MinMax => [Math.floor(Date.now() / 1000) - rangeSeconds, Math.ceil(Date.now() / 1000)] } : { time: true },
            ...Object.fromEntries(units.map((u) => [u, { range: (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax => [0, Math.max(1, max * 1.1)] }])) },
        },
        withGaps(points, series, stepSeconds),
        el.current!,
      );
    };
    draw();
    const resize = () => plot?.setSize({ width: el.current?.clientWidth || 600, height });
    const scheme = matchMedia("(prefers-color-scheme: dark)");
    window.addEventListener("resize", resize);
    scheme.addEventListener("change", draw);
    return () => {
      window.removeEventListener("resize", resize);
      scheme.removeEventListener("change", draw);
      plot?.destroy();
    };
  }, [points, series, stepSeconds, height, rangeSeconds]);
  return (
    <figure style={{ margin: 0 }} data-points={points.length}>
      <div ref={el} className="chart" role="img" aria-label={`Chart of ${title}, ${points.length} points; the table below has the values`} />
      <details>
        <summary>Data table</summary>
        <DataTable
          caption={title}
          rows={points.map((p, i) => ({ p, i }))}
          rowKey={(r) => String(r.i)}
          columns={[{ header: "Time", cell: (r: { p: P }) => dateTime(r.p.time) }, ...series.map((s) => ({ header: s.label, num: true, cell: (r: { p: P }) => num(s.value(r.p)) }))]}
        />
      </details>
    </figure>
  );
}

const GROWTH: Series<GrowthPoint>[] = [
  { label: "Servers", unit: "servers", value: (p) => p.used_by_servers_count, color: "--accent" },
  { label: "Players", unit: "players", value: (p) => p.players_using_count, color: "--ok" },
];

/** A mod's usage over time (3-hour buckets); the x axis spans the `days` asked for, ending now. */
export function GrowthChart({ points, days }: { points: GrowthPoint[]; days?: number }) {
  return <TimeChart points={points} series={GROWTH} stepSeconds={3 * 3600} rangeSeconds={days ? days * 86400 : undefined} title="servers and players using this mod, every 3 hours" />;
}
