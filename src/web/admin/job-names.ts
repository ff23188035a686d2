// What each background job is called on the jobs page, and its progress in words. The type name
// ("events.dispatch") stays beside it as a detail; a type missing here shows as itself.
import { count, num } from "../app/format";

export const JOB_NAMES: Record<string, string> = {
  "scrape.full": "Full workshop crawl",
  "scrape.incremental": "Workshop changes crawl",
  "scrape.detail": "Reading a mod's page",
  "scrape.detail_batch": "Reading mods' pages",
  "catalog.growth": "Mod usage snapshot",
  "items.scan": "Items scan (data.pak)",
  "live.scan": "Live servers scan",
  "live.rollup": "Player history roll-up",
  "events.dispatch": "Event delivery",
  "events.webhook_delivery": "Webhook delivery",
  "deploy.run": "Deploy",
  "deploy.auto": "Automatic deploy",
  "deploy.auto-change": "Automatic deploy of a list change",
  "players.prune": "Old player records cleared",
  backup: "Scheduled backup",
};

export const jobName = (type: string) => JOB_NAMES[type] ?? type;

const n = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** A job's progress as a sentence ("Page 12 of about 180 of the workshop's list; 40 mods to read"), or null. */
export function progressWords(type: string, progress: unknown): string | null {
  if (progress === null || typeof progress !== "object") return null;
  const p = progress as Record<string, unknown>;
  if (type.startsWith("scrape.") && n(p.pages_done) !== null) {
    const parts = [`Page ${num(n(p.pages_done))} of about ${num(Math.max(n(p.pages_done)!, n(p.pages_total) ?? 0))} of the workshop's list`];
    if (n(p.queued)) parts.push(`${count(n(p.queued)!, "mod")} to read`);
    if (n(p.skipped_rows)) parts.push(`${count(n(p.skipped_rows)!, "row")} skipped`);
    return parts.join("; ");
  }
  if (type === "live.scan" && n(p.pages) !== null) return `${count(n(p.pages)!, "page")} of servers read, ${count(n(p.fetched) ?? 0, "server")}`;
  if (n(p.sources_done) !== null && n(p.sources) !== null) return `${num(n(p.sources_done))} of ${count(n(p.sources)!, "source")} read`;
  // Anything else: its fields in words ("pages done 3, queued 12").
  const words = Object.entries(p)
    .filter(([, v]) => typeof v === "number" || typeof v === "string" || typeof v === "boolean")
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "number" ? num(v) : String(v)}`);
  return words.length ? words.join(", ") : null;
}
