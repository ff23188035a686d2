-- Custom SQL migration file, put your code below! ---- from src/db/custom/95_catalog_search_gen.sql
-- The catalog's search in memory (issue 15): GET /mods?search= ranks from arrays read out of
-- mods_fts (src/features/catalog/search-index.ts). Every write that changes what mods_fts holds
-- (the same columns and rows its triggers in 30_catalog.sql index) moves this generation; a
-- reader whose index was built at another generation answers from FTS5 until it builds a new one.
INSERT OR IGNORE INTO catalog_state (key, value) VALUES ('fts_gen', 0);
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mods_fts_gen_ins AFTER INSERT ON mods WHEN new.state != 'unknown' BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'fts_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mods_fts_gen_upd AFTER UPDATE OF name, author_name, summary, tags_json, state ON mods
WHEN old.state != 'unknown' OR new.state != 'unknown' BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'fts_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mods_fts_gen_del AFTER DELETE ON mods WHEN old.state != 'unknown' BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'fts_gen';
END;
