-- Custom SQL migration file, put your code below! ---- from src/db/custom/a5_series_days.sql
-- A server's 3-hour and hourly buckets, one row per UTC day, as compact text (
-- docs/live.md "Series and roll-ups"): a 365-day read steps ~365 short rows instead of 2,920
-- bucket rows, and src/features/live/series-days.ts writes the points' JSON from the text. The
-- bucket tables stay the truth; these rows are derived from them by the triggers below on every
-- write (a roll-up, retention, raw SQL through any connection), so a day's text always equals the
-- view's points of that day's rows.
-- Per bucket, in time order: a letter for its place in the day (a + (time % day) / step), then
-- n,players_sum,queue_sum,wait_sum,players_max. A bucket that does not fit the form (a value that is
-- not an integer, a time off the step) is written as '?', and readers answer that series from the
-- bucket rows.
CREATE VIEW game_server_stats_3h_points AS
SELECT sid, time / 86400000 AS day, time,
  CASE WHEN time >= 0 AND time % 10800000 = 0 AND typeof(n) = 'integer' AND typeof(players_sum) = 'integer'
      AND typeof(queue_sum) = 'integer' AND typeof(wait_sum) = 'integer' AND typeof(players_max) = 'integer'
    THEN char(97 + (time % 86400000) / 10800000) || n || ',' || players_sum || ',' || queue_sum || ',' || wait_sum || ',' || players_max
    ELSE '?' END AS point
FROM game_server_stats_3h;
--> statement-breakpoint
CREATE VIEW game_server_stats_hourly_points AS
SELECT sid, time / 86400000 AS day, time,
  CASE WHEN time >= 0 AND time % 3600000 = 0 AND typeof(n) = 'integer' AND typeof(players_sum) = 'integer'
      AND typeof(queue_sum) = 'integer' AND typeof(wait_sum) = 'integer' AND typeof(players_max) = 'integer'
    THEN char(97 + (time % 86400000) / 3600000) || n || ',' || players_sum || ',' || queue_sum || ',' || wait_sum || ',' || players_max
    ELSE '?' END AS point
FROM game_server_stats_hourly;
--> statement-breakpoint
CREATE TABLE game_server_stats_3h_days (
  sid INTEGER NOT NULL,
  day INTEGER NOT NULL,
  points TEXT NOT NULL,
  PRIMARY KEY (sid, day)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE game_server_stats_hourly_days (
  sid INTEGER NOT NULL,
  day INTEGER NOT NULL,
  points TEXT NOT NULL,
  PRIMARY KEY (sid, day)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO game_server_stats_3h_days (sid, day, points)
SELECT sid, day, group_concat(point, '' ORDER BY time) FROM game_server_stats_3h_points GROUP BY sid, day;
--> statement-breakpoint
INSERT INTO game_server_stats_hourly_days (sid, day, points)
SELECT sid, day, group_concat(point, '' ORDER BY time) FROM game_server_stats_hourly_points GROUP BY sid, day;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_3h_days_ins AFTER INSERT ON game_server_stats_3h BEGIN
  DELETE FROM game_server_stats_3h_days WHERE sid = NEW.sid AND day = NEW.time / 86400000;
  INSERT INTO game_server_stats_3h_days (sid, day, points)
    SELECT sid, day, group_concat(point, '' ORDER BY time) FROM game_server_stats_3h_points
    WHERE sid = NEW.sid AND time >= (NEW.time / 86400000) * 86400000 AND time < (NEW.time / 86400000 + 1) * 86400000 GROUP BY sid, day;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_3h_days_del AFTER DELETE ON game_server_stats_3h BEGIN
  DELETE FROM game_server_stats_3h_days WHERE sid = OLD.sid AND day = OLD.time / 86400000;
  INSERT INTO game_server_stats_3h_days (sid, day, points)
    SELECT sid, day, group_concat(point, '' ORDER BY time) FROM game_server_stats_3h_points
    WHERE sid = OLD.sid AND time >= (OLD.time / 86400000) * 86400000 AND time < (OLD.time / 86400000 + 1) * 86400000 GROUP BY sid, day;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_3h_days_upd AFTER UPDATE ON game_server_stats_3h BEGIN
  DELETE FROM game_server_stats_3h_days WHERE sid = OLD.sid AND day = OLD.time / 86400000;
  INSERT INTO game_server_stats_3h_days (sid, day, points)
    SELECT sid, day, group_concat(point, '' ORDER BY time) FROM game_server_stats_3h_points
    WHERE sid = OLD.sid AND time >= (OLD.time / 86400000) * 86400000 AND time < (OLD.time / 86400000 + 1) * 86400000 GROUP BY sid, day;
  DELETE FROM game_server_stats_3h_days WHERE sid = NEW.sid AND day = NEW.time / 86400000;
  INSERT INTO game_server_stats_3h_days (sid, day, points)
    SELECT sid, day, group_concat(point, '' ORDER BY time) FROM game_server_stats_3h_points
    WHERE sid = NEW.sid AND time >= (NEW.time / 86400000) * 86400000 AND time < (NEW.time / 86400000 + 1) * 86400000 GROUP BY sid, day;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_hourly_days_ins AFTER INSERT ON game_server_stats_hourly BEGIN
  DELETE FROM game_server_stats_hourly_days WHERE sid = NEW.sid AND day = NEW.time / 86400000;
  INSERT INTO game_server_stats_hourly_days (sid, day, points)
    SELECT sid, day, group_concat(point, '' ORDER BY time) FROM game_server_stats_hourly_points
    WHERE sid = NEW.sid AND time >= (NEW.time / 86400000) * 86400000 AND time < (NEW.time / 86400000 + 1) * 86400000 GROUP BY sid, day;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_hourly_days_del AFTER DELETE ON game_server_stats_hourly BEGIN
  DELETE FROM game_server_stats_hourly_days WHERE sid = OLD.sid AND day = OLD.time / 86400000;
  INSERT INTO game_server_stats_hourly_days (sid, day, points)
    SELECT sid, day, group_concat(point, '' ORDER BY time) FROM game_server_stats_hourly_points
    WHERE sid = OLD.sid AND time >= (OLD.time / 86400000) * 86400000 AND time < (OLD.time / 86400000 + 1) * 86400000 GROUP BY sid, day;
END;
--> statement-breakpoint
CREATE TRIGGER game_server_stats_hourly_days_upd AFTER UPDATE ON game_server_stats_hourly BEGIN
  DELETE FROM game_server_stats_hourly_days WHERE sid = OLD.sid AND day = OLD.time / 86400000;
  INSERT INTO game_server_stats_hourly_days (sid, day, points)
    SELECT sid, day, group_concat(point, '' ORDER BY time) FROM game_server_stats_hourly_points
    WHERE sid = OLD.sid AND time >= (OLD.time / 86400000) * 86400000 AND time < (OLD.time / 86400000 + 1) * 86400000 GROUP BY sid, day;
  DELETE FROM game_server_stats_hourly_days WHERE sid = NEW.sid AND day = NEW.time / 86400000;
  INSERT INTO game_server_stats_hourly_days (sid, day, points)
    SELECT sid, day, group_concat(point, '' ORDER BY time) FROM game_server_stats_hourly_points
    WHERE sid = NEW.sid AND time >= (NEW.time / 86400000) * 86400000 AND time < (NEW.time / 86400000 + 1) * 86400000 GROUP BY sid, day;
END;
