-- Custom SQL migration file, put your code below! ---- from src/db/custom/98_catalog_answers_gen.sql
-- Per-mod answers from memory: GET /mods/:id, /mods/:id/deps and the dependency counts
-- of /mods/:id/stats and /mod/:id/metrics answer what was read and serialised once per generation
-- (src/features/catalog/answers.ts). SQLite stays the truth: every write that changes what those
-- answers read, by any code path or process (a crawl's counters, a detail scrape, a placeholder,
-- a test's raw SQL), moves the generation, and an answer of another generation is read again.
-- detail_gen: a mod added or deleted, any of its columns changed (listed_at alone, the crawl's
-- "seen" mark, is not part of any answer), any dependency edge written.
INSERT OR IGNORE INTO catalog_state (key, value) VALUES ('detail_gen', 0);
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS catalog_detail_gen_mods_ins AFTER INSERT ON mods BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'detail_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS catalog_detail_gen_mods_upd AFTER UPDATE ON mods
WHEN old.workshop_id IS NOT new.workshop_id OR old.name IS NOT new.name OR old.summary IS NOT new.summary
  OR old.description IS NOT new.description OR old.author_id IS NOT new.author_id OR old.author_name IS NOT new.author_name
  OR old.type IS NOT new.type OR old.license IS NOT new.license OR old.version IS NOT new.version
  OR old.size_bytes IS NOT new.size_bytes OR old.image_url IS NOT new.image_url OR old.game_version IS NOT new.game_version
  OR old.rating IS NOT new.rating OR old.rating_count IS NOT new.rating_count OR old.subscriber_count IS NOT new.subscriber_count
  OR old.downloads_total IS NOT new.downloads_total OR old.state IS NOT new.state OR old.obsolete IS NOT new.obsolete
  OR old.tags_json IS NOT new.tags_json OR old.external_links_json IS NOT new.external_links_json
  OR old.created_at IS NOT new.created_at OR old.updated_at IS NOT new.updated_at OR old.detail_scraped_at IS NOT new.detail_scraped_at
BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'detail_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS catalog_detail_gen_mods_del AFTER DELETE ON mods BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'detail_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS catalog_detail_gen_deps_ins AFTER INSERT ON mod_dependencies BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'detail_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS catalog_detail_gen_deps_upd AFTER UPDATE ON mod_dependencies BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'detail_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS catalog_detail_gen_deps_del AFTER DELETE ON mod_dependencies BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'detail_gen';
END;
--> statement-breakpoint
-- growth_gen: any growth snapshot row or bucket written or deleted (the roll-up, its retention).
INSERT OR IGNORE INTO catalog_state (key, value) VALUES ('growth_gen', 0);
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS catalog_growth_gen_ins AFTER INSERT ON mod_growth BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'growth_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS catalog_growth_gen_upd AFTER UPDATE ON mod_growth BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'growth_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS catalog_growth_gen_del AFTER DELETE ON mod_growth BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'growth_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS catalog_growth_gen_buckets_ins AFTER INSERT ON mod_growth_buckets BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'growth_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS catalog_growth_gen_buckets_upd AFTER UPDATE ON mod_growth_buckets BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'growth_gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS catalog_growth_gen_buckets_del AFTER DELETE ON mod_growth_buckets BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'growth_gen';
END;
