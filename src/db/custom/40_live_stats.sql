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
