// The scraper's own state (the scraper feature).
import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";

/** Small key/value state of the scraper (last full discovery, last incremental run). */
export const scraperState = sqliteTable("scraper_state", {
  key: text("key").primaryKey(),
  value: integer("value").notNull(),
});
