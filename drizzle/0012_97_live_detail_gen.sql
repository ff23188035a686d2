-- Custom SQL migration file, put your code below! ---- from src/db/custom/97_live_detail_gen.sql
-- A live server's detail from memory (issue 29): GET /game-servers/:id of an online server answers
-- JSON serialised once per live snapshot (src/features/live/snapshot.ts). Its mods and their items
-- are joined from the catalog, which changes between scans: every write to what that join reads
-- (a mod added or deleted, its name, size, image or version; mod_items; mod_item_scans), by any
-- code path or process, moves this generation, and a detail serialised at another one is
-- serialised again. (The server's own rows move servers_gen, 70_live_snapshot_gen.sql.)
INSERT OR IGNORE INTO live_state (key, value) VALUES ('catalog_gen', 0);
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS live_catalog_gen_mods_ins AFTER INSERT ON mods BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS live_catalog_gen_mods_upd AFTER UPDATE OF workshop_id, name, size_bytes, image_url, version ON mods BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS live_catalog_gen_mods_del AFTER DELETE ON mods BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS live_catalog_gen_items_ins AFTER INSERT ON mod_items BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS live_catalog_gen_items_upd AFTER UPDATE ON mod_items BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS live_catalog_gen_items_del AFTER DELETE ON mod_items BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS live_catalog_gen_scans_ins AFTER INSERT ON mod_item_scans BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS live_catalog_gen_scans_upd AFTER UPDATE ON mod_item_scans BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS live_catalog_gen_scans_del AFTER DELETE ON mod_item_scans BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
