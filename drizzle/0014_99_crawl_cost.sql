-- Custom SQL migration file, put your code below! ---- from src/db/custom/99_crawl_cost.sql
-- The crawl's cost (docs/performance.md, "the crawl's CPU").
--
-- The job claim by type: the queued jobs of each type in claim order. The worker claims the
-- earliest due job among the types that have a free slot; with the claim index (status, run_at)
-- alone, a claim for scrape.detail while ~2,600 scrape.detail_batch jobs waited ahead of it (their
-- type at its concurrency) read every one of them, ~0.35 ms a claim, ~12 % of a crawl's CPU. With
-- this index a claim is one probe per type (src/jobs/queue.ts).
CREATE INDEX IF NOT EXISTS jobs_queued_type_idx ON jobs(type, run_at, id) WHERE status = 'queued';
--> statement-breakpoint
-- A re-scraped mod whose indexed text and state did not change (the upsert assigns every column,
-- so these triggers fired on every detail scrape) leaves mods_fts and the generations alone: the
-- FTS5 delete and insert of the same text (~0.1 ms) and the rebuilds of the in-memory search index
-- (~0.4 s) and sort orders a moved generation asks for bought nothing. A change of any of the
-- columns still does all of it, exactly as before (30_catalog.sql, 80_catalog_gen.sql,
-- 95_catalog_search_gen.sql, 97_live_detail_gen.sql).
DROP TRIGGER IF EXISTS mods_fts_au;
--> statement-breakpoint
CREATE TRIGGER mods_fts_au AFTER UPDATE OF name, author_name, summary, tags_json, state ON mods
WHEN old.name IS NOT new.name OR old.author_name IS NOT new.author_name OR old.summary IS NOT new.summary
  OR old.tags_json IS NOT new.tags_json OR old.state IS NOT new.state BEGIN
  INSERT INTO mods_fts(mods_fts, rowid, name, author_name, summary, tags_json)
  SELECT 'delete', old.rowid, old.name, old.author_name, old.summary, old.tags_json WHERE old.state != 'unknown';
  INSERT INTO mods_fts(rowid, name, author_name, summary, tags_json)
  SELECT new.rowid, new.name, new.author_name, new.summary, new.tags_json WHERE new.state != 'unknown';
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS mods_fts_gen_upd;
--> statement-breakpoint
CREATE TRIGGER mods_fts_gen_upd AFTER UPDATE OF name, author_name, summary, tags_json, state ON mods
WHEN (old.state != 'unknown' OR new.state != 'unknown')
  AND (old.name IS NOT new.name OR old.author_name IS NOT new.author_name OR old.summary IS NOT new.summary
    OR old.tags_json IS NOT new.tags_json OR old.state IS NOT new.state) BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'fts_gen';
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS mods_gen_upd;
--> statement-breakpoint
CREATE TRIGGER mods_gen_upd AFTER UPDATE OF workshop_id, name, size_bytes, updated_at, state ON mods
WHEN old.workshop_id IS NOT new.workshop_id OR old.name IS NOT new.name OR old.size_bytes IS NOT new.size_bytes
  OR old.updated_at IS NOT new.updated_at OR old.state IS NOT new.state BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS live_catalog_gen_mods_upd;
--> statement-breakpoint
CREATE TRIGGER live_catalog_gen_mods_upd AFTER UPDATE OF workshop_id, name, size_bytes, image_url, version ON mods
WHEN old.workshop_id IS NOT new.workshop_id OR old.name IS NOT new.name OR old.size_bytes IS NOT new.size_bytes
  OR old.image_url IS NOT new.image_url OR old.version IS NOT new.version BEGIN
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
