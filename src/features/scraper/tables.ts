// The scraper's own state (the scraper feature): its marks and the growth roll-up's buckets.
import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";

/** Small key/value state of the scraper (last full discovery, last incremental run). */
export const scraperState = sqliteTable("scraper_state", {
  key: text("key").primaryKey(),
  value: integer("value").notNull(),
});

/**
 * Every 3-hour bucket a growth roll-up ran for (bucket = epoch ms / 10,800,000): the x axis of a
 * mod's growth series, whose rows (mod_growth, written only when a mod's values change, and
 * mod_growth_latest) are WITHOUT ROWID tables in src/db/schema-objects.sql.
 */
export const modGrowthBuckets = sqliteTable("mod_growth_buckets", {
  bucket: integer("bucket").primaryKey(),
  created_at: integer("created_at").notNull(),
});
