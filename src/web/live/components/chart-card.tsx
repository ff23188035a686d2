// A card with a time chart and its range links (24 h, 14 d, 365 d): the server, statistics and
// community pages all show their player series this way.
import { Suspense } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { ErrorMessage, Skeleton } from "../../ui/components";
import type { Series } from "../../ui/chart";
import { LazyTimeChart } from "../../ui/lazy-chart";
import { RANGES } from "../live.services";
import { RangeTabs } from "./range-tabs";

/** All points within two steps of each other (a line needs more). */
const fewPoints = (points: { time: string }[], stepSeconds: number) =>
  Date.parse(points.at(-1)!.time) - Date.parse(points[0]!.time) < 2 * stepSeconds * 1000;

export function ChartCard<P extends { time: string }>({
  id,
  heading,
  query,
  series,
  range,
  what,
  empty,
}: {
  id: string;
  heading: string;
  query: UseQueryResult<P[]>;
  series: Series<P>[];
  range: (typeof RANGES)[number];
  /** What the chart shows ("players on X"), completed with the range for its accessible name. */
  what: string;
  empty: string;
}) {
  return (
    <section className="card stack" aria-labelledby={id}>
      <div className="row" style={{ justifyContent: "space-between", alignItems: "center" }}>
        <h2 id={id} style={{ margin: 0 }}>
          {heading}
        </h2>
        <RangeTabs current={range.key} label="Chart range" />
      </div>
      {query.isLoading ? (
        <Skeleton lines={5} label="Loading the chart" />
      ) : query.error ? (
        <ErrorMessage error={query.error} retry={() => query.refetch()} />
      ) : !query.data || query.data.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <>
          <Suspense fallback={<Skeleton lines={5} />}>
            <LazyTimeChart points={query.data} series={series} stepSeconds={range.step} rangeSeconds={range.days * 86400} title={`${what} over ${range.label}`} />
          </Suspense>
          {fewPoints(query.data, range.step) && (
            // A point or two in one spot draw no line: say why the chart is nearly empty.
            <p className="muted" style={{ margin: 0 }}>
              Too few reports yet to draw a line: it fills in as the live scans (every few minutes) add points.
            </p>
          )}
        </>
      )}
    </section>
  );
}
