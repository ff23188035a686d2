// The chart module (uPlot) loads only when a chart is on screen, with its stylesheet (shown once
// that applies); its generic props are kept.
import { lazy } from "react";
import type { TimeChart as TimeChartType } from "./chart";

const chart = () => import("./chart").then(async (m) => (await m.loadChartStyles(), m));
export const LazyTimeChart = lazy(() => chart().then((m) => ({ default: m.TimeChart }))) as unknown as typeof TimeChartType;
export const LazyGrowthChart = lazy(() => chart().then((m) => ({ default: m.GrowthChart })));
