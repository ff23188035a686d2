// The chart module (uPlot) loads only when a chart is on screen; its generic props are kept.
import { lazy } from "react";
import type { TimeChart as TimeChartType } from "./chart";

export const LazyTimeChart = lazy(() => import("./chart").then((m) => ({ default: m.TimeChart }))) as unknown as typeof TimeChartType;
export const LazyGrowthChart = lazy(() => import("./chart").then((m) => ({ default: m.GrowthChart })));
