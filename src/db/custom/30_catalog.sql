-- Catalog (issue 3): FTS5 over mods, sort indexes with tie-breakers, growth snapshots.
-- Every statement is idempotent; statements are separated by breakpoints for the migrator.

-- Full-text search over name, author, summary and tags (external content: the mods table).
CREATE VIRTUAL TABLE IF NOT EXISTS mods_fts USING fts5(
  name, author_name, summary, tags_json,
  content='mods', content_rowid='rowid',
  tokenize='unicode61 remove_diacritics 2', prefix='2 3'
);
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mods_fts_ai AFTER INSERT ON mods BEGIN
  INSERT INTO mods_fts(rowid, name, author_name, summary, tags_json)
  VALUES (new.rowid, new.name, new.author_name, new.summary, new.tags_json);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mods_fts_ad AFTER DELETE ON mods BEGIN
  INSERT INTO mods_fts(mods_fts, rowid, name, author_name, summary, tags_json)
  VALUES ('delete', old.rowid, old.name, old.author_name, old.summary, old.tags_json);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS mods_fts_au AFTER UPDATE OF name, author_name, summary, tags_json ON mods BEGIN
  INSERT INTO mods_fts(mods_fts, rowid, name, author_name, summary, tags_json)
  VALUES ('delete', old.rowid, old.name, old.author_name, old.summary, old.tags_json);
  INSERT INTO mods_fts(rowid, name, author_name, summary, tags_json)
  VALUES (new.rowid, new.name, new.author_name, new.summary, new.tags_json);
END;
--> statement-breakpoint
INSERT INTO mods_fts(mods_fts) VALUES ('rebuild');
--> statement-breakpoint
-- Sorts of GET /mods with a stable tie-breaker, so pages never overlap.
CREATE INDEX IF NOT EXISTS mods_name_nocase_idx ON mods(name COLLATE NOCASE, workshop_id);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS mods_size_id_idx ON mods(size_bytes, workshop_id);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS mods_updated_id_idx ON mods(updated_at, workshop_id);
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
