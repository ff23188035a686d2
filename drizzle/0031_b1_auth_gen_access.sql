-- Custom SQL migration file, put your code below! ---- from src/db/custom/b1_auth_gen_access.sql
-- The callers kept in memory (src/shared/auth.ts) must also drop a user whose account was
-- disabled or re-enabled, or whose tokens were revoked by a password change.
CREATE TRIGGER IF NOT EXISTS auth_gen_user_access_upd AFTER UPDATE OF disabled_at, tokens_valid_from ON users BEGIN
  UPDATE auth_state SET value = value + 1 WHERE key = 'gen';
END;
