// The outside sources' last outcome (platform, like the job queue and the outbox: every feature that
// reaches a source records here; the platform feature's /health reads it).
import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";

/**
 * The outside sources' last outcome, for GET /api/v1/health: `workshop` (the crawl),
 * `live` (BattleMetrics global discovery), `a2s` (registered servers polled directly).
 */
export const sourceStatus = sqliteTable("source_status", {
  source: text("source").primaryKey(),
  last_ok_at: integer("last_ok_at"),
  last_error: text("last_error"),
  last_error_at: integer("last_error_at"),
});
