// Platform calls: the health of the service and its outside sources, and starting a crawl.
import { queryOptions } from "@tanstack/react-query";
import { api, get } from "./api";
import type { Health } from "./types";

export const getHealth = (signal?: AbortSignal) => get<Health>("/health", signal);
/** The one cache entry of GET /health (the empty catalog and the empty live list read it). */
export const healthQuery = () => queryOptions({ queryKey: ["health"], queryFn: ({ signal }) => getHealth(signal) });
/** Admins only: a full workshop crawl (a second request while one is queued returns the same job). */
export const startFullCrawl = () => api<{ job_id: string }>("POST", "/jobs/scraper", { body: { mode: "full" } });
