-- Catalog (issue 3): FTS5 over mods, sort indexes with tie-breakers, growth snapshots.
-- Every statement is idempotent; statements are separated by breakpoints for the migrator.

-- Full-text search over name, author, summary and tags (external content: the mods table).
-- Only catalog entries are indexed (not 'unknown' placeholders), so searches need no join to filter.
CREATE VIRTUAL TABLE IF NOT EXISTS mods_fts USING fts5(
  name, author_name, summary, tags_json,
  content='mods', content_rowid='rowid',
  tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);
--> statement-breakpoint
-- Relevance: bm25 weights name 10, author 3, summary 1, tags 2.
INSERT INTO mods_fts(mods_fts, rank) VALUES ('rank', 'bm25(10.0, 3.0, 1.0, 2.0)');
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mods_fts_ai AFTER INSERT ON mods WHEN new.state != 'unknown' BEGIN
  INSERT INTO mods_fts(rowid, name, author_name, summary, tags_json)
  VALUES (new.rowid, new.name, new.author_name, new.summary, new.tags_json);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mods_fts_ad AFTER DELETE ON mods WHEN old.state != 'unknown' BEGIN
  INSERT INTO mods_fts(mods_fts, rowid, name, author_name, summary, tags_json)
  VALUES ('delete', old.rowid, old.name, old.author_name, old.summary, old.tags_json);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mods_fts_au AFTER UPDATE OF name, author_name, summary, tags_json, state ON mods BEGIN
  INSERT INTO mods_fts(mods_fts, rowid, name, author_name, summary, tags_json)
  SELECT 'delete', old.rowid, old.name, old.author_name, old.summary, old.tags_json WHERE old.state != 'unknown';
  INSERT INTO mods_fts(rowid, name, author_name, summary, tags_json)
  SELECT new.rowid, new.name, new.author_name, new.summary, new.tags_json WHERE new.state != 'unknown';
END;
--> statement-breakpoint
INSERT INTO mods_fts(mods_fts) VALUES ('delete-all');
--> statement-breakpoint
INSERT INTO mods_fts(rowid, name, author_name, summary, tags_json)
SELECT rowid, name, author_name, summary, tags_json FROM mods WHERE state != 'unknown';
--> statement-breakpoint
-- Sorts of GET /mods over catalog entries only (partial indexes: no row lookups to filter
-- placeholders), with a stable tie-breaker so pages never overlap.
CREATE INDEX IF NOT EXISTS mods_vis_name_idx ON mods(name COLLATE NOCASE, workshop_id) WHERE state != 'unknown';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS mods_vis_size_idx ON mods(size_bytes, workshop_id) WHERE state != 'unknown';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS mods_vis_updated_idx ON mods(updated_at, workshop_id) WHERE state != 'unknown';
--> statement-breakpoint
-- Growth snapshots: one bucket per 3 hours (bucket = epoch ms / 10,800,000). A row is written
-- only when a mod's values differ from its previous row, so readers carry values forward.
CREATE TABLE IF NOT EXISTS mod_growth (
  workshop_id TEXT NOT NULL,
  bucket INTEGER NOT NULL,
  used_by_servers INTEGER NOT NULL,
  players_using INTEGER NOT NULL,
  dependencies INTEGER NOT NULL,
  dependents INTEGER NOT NULL,
  PRIMARY KEY (workshop_id, bucket)
) WITHOUT ROWID;
--> statement-breakpoint
-- The last written values per mod (what the next roll-up compares against).
CREATE TABLE IF NOT EXISTS mod_growth_latest (
  workshop_id TEXT PRIMARY KEY,
  bucket INTEGER NOT NULL,
  used_by_servers INTEGER NOT NULL,
  players_using INTEGER NOT NULL,
  dependencies INTEGER NOT NULL,
  dependents INTEGER NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
-- Every bucket a roll-up ran for (the x axis of the growth series).
CREATE TABLE IF NOT EXISTS mod_growth_buckets (
  bucket INTEGER PRIMARY KEY,
  created_at INTEGER NOT NULL
);
