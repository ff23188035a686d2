-- Callers in memory (issue 15, fixed cost per request): the API key → user and user id → user
-- lookups of every authenticated request are kept in memory (src/shared/auth.ts). Every write
-- that can change who a credential is, or what that user may do (a key revoked or re-owned, a
-- user's role, approval, name or e-mail changed, a user deleted), by any code path, moves this
-- generation; a process whose cache is of another generation drops it before answering.
-- (api_keys.last_used_at is not among the columns: recording a key's use keeps the cache.)
CREATE TABLE IF NOT EXISTS auth_state (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
--> statement-breakpoint
INSERT OR IGNORE INTO auth_state (key, value) VALUES ('gen', 0);
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS auth_gen_key_upd AFTER UPDATE OF id, user_id, key_hash ON api_keys BEGIN
  UPDATE auth_state SET value = value + 1 WHERE key = 'gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS auth_gen_key_del AFTER DELETE ON api_keys BEGIN
  UPDATE auth_state SET value = value + 1 WHERE key = 'gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS auth_gen_user_upd AFTER UPDATE OF id, email, display_name, role, is_approved ON users BEGIN
  UPDATE auth_state SET value = value + 1 WHERE key = 'gen';
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS auth_gen_user_del AFTER DELETE ON users BEGIN
  UPDATE auth_state SET value = value + 1 WHERE key = 'gen';
END;
