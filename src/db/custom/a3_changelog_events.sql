-- The mod changelog as one row per server and scan: a server's first
-- sighting records its whole list as `added` (docs/live.md), ~200,000 rows and their index
-- entries for a first sight of 5,000 servers (~0.2-0.3 s of the scan); one row per server and
-- scan is ~5,000. `changes` is a JSON array of [action, workshop_id, mod_name, old_version,
-- new_version, size_bytes] in the order the scan found them (a server's mods by position, then
-- the removed ones), `n` its length. Existing rows move here: each run of a server's rows with
-- one time (in id order) becomes one row with the id of its first.
-- `game_server_mod_changes` stays as a view with the old columns (id, server_sid, time, action,
-- workshop_id, mod_name, old_version, new_version, size_bytes) for raw SQL (the tests, an
-- operator); its id is the row's id * 2^20 + the change's index in it, so ORDER BY id is the
-- changelog's order. An INSERT into it (one change) becomes a row of its own.
CREATE TABLE game_server_mod_events (
  id INTEGER PRIMARY KEY,
  server_sid INTEGER NOT NULL,
  time INTEGER NOT NULL,
  n INTEGER NOT NULL,
  changes TEXT NOT NULL
);
--> statement-breakpoint
INSERT INTO game_server_mod_events (id, server_sid, time, n, changes)
  SELECT min(id), server_sid, time, count(*),
    json_group_array(json_array(action, workshop_id, mod_name, old_version, new_version, size_bytes) ORDER BY id)
  FROM (
    SELECT c.*, row_number() OVER (PARTITION BY server_sid ORDER BY id)
      - row_number() OVER (PARTITION BY server_sid, time ORDER BY id) AS run
    FROM game_server_mod_changes c
  )
  GROUP BY server_sid, time, run;
--> statement-breakpoint
DROP TABLE game_server_mod_changes;
--> statement-breakpoint
CREATE INDEX game_server_mod_events_server_idx ON game_server_mod_events (server_sid, id);
--> statement-breakpoint
CREATE VIEW game_server_mod_changes AS
  SELECT (e.id << 20) + j.key AS id, e.server_sid, e.time, j.value ->> 0 AS action, j.value ->> 1 AS workshop_id,
    j.value ->> 2 AS mod_name, j.value ->> 3 AS old_version, j.value ->> 4 AS new_version, j.value ->> 5 AS size_bytes
  FROM game_server_mod_events e, json_each(e.changes) j;
--> statement-breakpoint
CREATE TRIGGER game_server_mod_changes_view_ins INSTEAD OF INSERT ON game_server_mod_changes BEGIN
  INSERT INTO game_server_mod_events (server_sid, time, n, changes)
  VALUES (NEW.server_sid, NEW.time, 1,
    json_array(json_array(NEW.action, NEW.workshop_id, coalesce(NEW.mod_name, ''), NEW.old_version, NEW.new_version, NEW.size_bytes)));
END;
