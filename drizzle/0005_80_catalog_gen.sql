-- Custom SQL migration file, put your code below! ---- from src/db/custom/80_catalog_gen.sql
-- Catalog orders in memory (issue 15): GET /mods pages its sorts (name, size, updated) from
-- arrays built from SQLite (src/features/catalog/orders.ts). Every write that can change which
-- mods are catalog entries or where they sort (any code path or process: the crawl, a detail
-- scrape, a placeholder, a test's raw SQL), and every change of a mod's tags, moves this generation; a reader whose arrays were
-- built at another generation answers from SQL until it builds new ones.
CREATE TABLE IF NOT EXISTS catalog_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
--> statement-breakpoint
INSERT OR IGNORE INTO catalog_state (key, value) VALUES ('mods_gen', 0);
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mods_gen_ins AFTER INSERT ON mods BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mods_gen_upd AFTER UPDATE OF workshop_id, name, size_bytes, updated_at, state ON mods BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mods_gen_del AFTER DELETE ON mods BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mod_tags_gen_ins AFTER INSERT ON mod_tags BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mod_tags_gen_upd AFTER UPDATE ON mod_tags BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mod_tags_gen_del AFTER DELETE ON mod_tags BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
