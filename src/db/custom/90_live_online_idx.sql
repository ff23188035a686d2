-- The online servers by last sighting (issue 15, the scan's cost): a partial index of the ~5,000
-- online rows among ~95,000 known. Marking the servers a scan did not see offline (online = 1
-- AND last_seen_at < scan time) was a scan of the whole table, ~120 ms of every scan at full
-- scale; with this index it reads only the online rows.
CREATE INDEX IF NOT EXISTS game_servers_online_seen_idx ON game_servers(last_seen_at) WHERE online = 1;
