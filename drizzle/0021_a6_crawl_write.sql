-- Custom SQL migration file, put your code below! ---- from src/db/custom/a6_crawl_write.sql
-- The crawl's write cost (issue 29 round 4, docs/performance.md "Round 4, crawl").
--
-- A mod's tags, screenshots and scenarios are stored clustered on their natural key (WITHOUT
-- ROWID): each row is one B-tree entry instead of a rowid table row plus its primary key's index.
-- Every reader looks them up by that key or its prefix (docs/catalog.md): tags by mod and by tag
-- (mod_tags_tag_idx stays), screenshots and scenarios by mod. mod_versions stays a rowid table:
-- clustered, its rows (changelogs of up to a few KB) would go in at random places of the file
-- instead of at its end, and a crawl wrote more pages (19.9 -> 23.4 KiB a mod, bench/crawl-write.ts).
-- mod_dependencies keeps its rowid (the graph and the deps answers read edges in rowid order).
-- A scenario's description is the last column: a WITHOUT ROWID row keeps less of itself on its
-- page than a table row, and a read of the columns before it (position) then never follows an
-- overflow page.
CREATE TABLE mod_tags_new (
  workshop_id text NOT NULL,
  tag text NOT NULL,
  PRIMARY KEY (workshop_id, tag)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO mod_tags_new (workshop_id, tag) SELECT workshop_id, tag FROM mod_tags;
--> statement-breakpoint
DROP TABLE mod_tags;
--> statement-breakpoint
ALTER TABLE mod_tags_new RENAME TO mod_tags;
--> statement-breakpoint
CREATE INDEX mod_tags_tag_idx ON mod_tags (tag, workshop_id);
--> statement-breakpoint
CREATE TABLE mod_screenshots_new (
  workshop_id text NOT NULL,
  position integer NOT NULL,
  url text NOT NULL,
  width integer,
  height integer,
  PRIMARY KEY (workshop_id, position)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO mod_screenshots_new (workshop_id, position, url, width, height)
  SELECT workshop_id, position, url, width, height FROM mod_screenshots;
--> statement-breakpoint
DROP TABLE mod_screenshots;
--> statement-breakpoint
ALTER TABLE mod_screenshots_new RENAME TO mod_screenshots;
--> statement-breakpoint
CREATE TABLE mod_scenarios_new (
  workshop_id text NOT NULL,
  version text NOT NULL,
  game_id text NOT NULL,
  name text NOT NULL,
  game_mode text,
  player_count integer,
  position integer DEFAULT 0 NOT NULL,
  image_url text,
  description text,
  PRIMARY KEY (workshop_id, version, game_id)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO mod_scenarios_new (workshop_id, version, game_id, name, game_mode, player_count, description, image_url, position)
  SELECT workshop_id, version, game_id, name, game_mode, player_count, description, image_url, position FROM mod_scenarios;
--> statement-breakpoint
DROP TABLE mod_scenarios;
--> statement-breakpoint
ALTER TABLE mod_scenarios_new RENAME TO mod_scenarios;
--> statement-breakpoint
-- A new mod moved four counters with four triggers (mods_gen, fts_gen, detail_gen: catalog_state;
-- catalog_gen: live_state), each its own trigger program run per row. One trigger moves the same
-- counters by the same amounts (fts_gen only for a catalog entry, as mods_fts_gen_ins did).
DROP TRIGGER mods_gen_ins;
--> statement-breakpoint
DROP TRIGGER mods_fts_gen_ins;
--> statement-breakpoint
DROP TRIGGER catalog_detail_gen_mods_ins;
--> statement-breakpoint
DROP TRIGGER live_catalog_gen_mods_ins;
--> statement-breakpoint
CREATE TRIGGER mods_gens_ins AFTER INSERT ON mods BEGIN
  UPDATE catalog_state SET value = value + 1
    WHERE key IN ('mods_gen', 'detail_gen') OR (key = 'fts_gen' AND new.state != 'unknown');
  UPDATE live_state SET value = value + 1 WHERE key = 'catalog_gen';
END;
--> statement-breakpoint
-- The tags' triggers went with the old table: the same ones again.
CREATE TRIGGER mod_tags_gen_ins AFTER INSERT ON mod_tags BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
--> statement-breakpoint
CREATE TRIGGER mod_tags_gen_upd AFTER UPDATE ON mod_tags BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
--> statement-breakpoint
CREATE TRIGGER mod_tags_gen_del AFTER DELETE ON mod_tags BEGIN
  UPDATE catalog_state SET value = value + 1 WHERE key = 'mods_gen';
END;
