-- Custom SQL migration file, put your code below! ---- from src/db/custom/30_catalog.sql
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

--> statement-breakpoint
-- from src/db/custom/40_live_stats.sql
-- Live game server stat series (src/features/live). WITHOUT ROWID keeps one B-tree per table
-- ordered by (series, time): a year of 3-hour buckets for 5,000 servers is ~14.6 M compact rows.
-- Raw points are 5-minute samples (kept 24 h); buckets carry n (samples), sums and maxima so
-- averages stay exact when hours are rolled into 3-hour buckets. Times are epoch ms.
CREATE TABLE IF NOT EXISTS game_server_stats_raw (
  sid INTEGER NOT NULL,
  time INTEGER NOT NULL,
  players INTEGER NOT NULL,
  queue INTEGER NOT NULL,
  wait INTEGER NOT NULL,
  PRIMARY KEY (sid, time)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS game_server_stats_raw_time_idx ON game_server_stats_raw (time);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS game_server_stats_hourly (
  sid INTEGER NOT NULL,
  time INTEGER NOT NULL,
  n INTEGER NOT NULL,
  players_sum INTEGER NOT NULL,
  players_max INTEGER NOT NULL,
  queue_sum INTEGER NOT NULL,
  queue_max INTEGER NOT NULL,
  wait_sum INTEGER NOT NULL,
  PRIMARY KEY (sid, time)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS game_server_stats_hourly_time_idx ON game_server_stats_hourly (time);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS game_server_stats_3h (
  sid INTEGER NOT NULL,
  time INTEGER NOT NULL,
  n INTEGER NOT NULL,
  players_sum INTEGER NOT NULL,
  players_max INTEGER NOT NULL,
  queue_sum INTEGER NOT NULL,
  queue_max INTEGER NOT NULL,
  wait_sum INTEGER NOT NULL,
  PRIMARY KEY (sid, time)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS live_global_stats_raw (
  time INTEGER PRIMARY KEY,
  players INTEGER NOT NULL,
  queue INTEGER NOT NULL,
  servers INTEGER NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS live_global_stats_hourly (
  time INTEGER PRIMARY KEY,
  n INTEGER NOT NULL,
  players_sum INTEGER NOT NULL,
  players_max INTEGER NOT NULL,
  queue_sum INTEGER NOT NULL,
  servers_sum INTEGER NOT NULL,
  servers_max INTEGER NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS live_global_stats_3h (
  time INTEGER PRIMARY KEY,
  n INTEGER NOT NULL,
  players_sum INTEGER NOT NULL,
  players_max INTEGER NOT NULL,
  queue_sum INTEGER NOT NULL,
  servers_sum INTEGER NOT NULL,
  servers_max INTEGER NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS live_community_stats_raw (
  community_id TEXT NOT NULL,
  time INTEGER NOT NULL,
  players INTEGER NOT NULL,
  queue INTEGER NOT NULL,
  servers INTEGER NOT NULL,
  PRIMARY KEY (community_id, time)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS live_community_stats_hourly (
  community_id TEXT NOT NULL,
  time INTEGER NOT NULL,
  n INTEGER NOT NULL,
  players_sum INTEGER NOT NULL,
  players_max INTEGER NOT NULL,
  queue_sum INTEGER NOT NULL,
  servers_sum INTEGER NOT NULL,
  servers_max INTEGER NOT NULL,
  PRIMARY KEY (community_id, time)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS live_community_stats_3h (
  community_id TEXT NOT NULL,
  time INTEGER NOT NULL,
  n INTEGER NOT NULL,
  players_sum INTEGER NOT NULL,
  players_max INTEGER NOT NULL,
  queue_sum INTEGER NOT NULL,
  servers_sum INTEGER NOT NULL,
  servers_max INTEGER NOT NULL,
  PRIMARY KEY (community_id, time)
) WITHOUT ROWID;

--> statement-breakpoint
-- from src/db/custom/60_servers_auto_deploy.sql
-- auto_deploy (issue 6): any change to a list's mods (add, remove, pin/unpin, reorder, import,
-- template push, accepted suggestion, revert) queues a tiny `deploy.auto-change` job when the
-- list is linked to an auto_deploy server. Its handler (src/features/deploy/jobs.ts) applies the
-- 30 s debounce with the service clock. Catching changes here, in the same transaction as the
-- change, means no mutation path can forget to trigger a deploy. Idempotent (IF NOT EXISTS).
CREATE TRIGGER IF NOT EXISTS servers_auto_deploy_item_insert AFTER INSERT ON list_items
WHEN EXISTS (SELECT 1 FROM servers s WHERE s.linked_list_id = NEW.list_id AND s.auto_deploy = 1)
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.status = 'queued' AND j.type = 'deploy.auto-change'
                  AND json_extract(j.payload, '$.list_id') = NEW.list_id)
BEGIN
  INSERT INTO jobs (id, type, payload, status, attempts, max_attempts, run_at, created_at)
  VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
                || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
          'deploy.auto-change', json_object('list_id', NEW.list_id), 'queued', 0, 3, 0,
          CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS servers_auto_deploy_item_delete AFTER DELETE ON list_items
WHEN EXISTS (SELECT 1 FROM servers s WHERE s.linked_list_id = OLD.list_id AND s.auto_deploy = 1)
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.status = 'queued' AND j.type = 'deploy.auto-change'
                  AND json_extract(j.payload, '$.list_id') = OLD.list_id)
BEGIN
  INSERT INTO jobs (id, type, payload, status, attempts, max_attempts, run_at, created_at)
  VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
                || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
          'deploy.auto-change', json_object('list_id', OLD.list_id), 'queued', 0, 3, 0,
          CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS servers_auto_deploy_item_update AFTER UPDATE OF pinned_version, position, workshop_id ON list_items
WHEN (OLD.pinned_version IS NOT NEW.pinned_version OR OLD.position IS NOT NEW.position OR OLD.workshop_id IS NOT NEW.workshop_id)
  AND EXISTS (SELECT 1 FROM servers s WHERE s.linked_list_id = NEW.list_id AND s.auto_deploy = 1)
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.status = 'queued' AND j.type = 'deploy.auto-change'
                  AND json_extract(j.payload, '$.list_id') = NEW.list_id)
BEGIN
  INSERT INTO jobs (id, type, payload, status, attempts, max_attempts, run_at, created_at)
  VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
                || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
          'deploy.auto-change', json_object('list_id', NEW.list_id), 'queued', 0, 3, 0,
          CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
