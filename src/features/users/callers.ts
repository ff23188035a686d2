// Who a credential is, read from the users feature's tables and kept in memory (the shared auth
// plugin asks through `Deps.callers`, so it knows no table): API key hash → caller (with the key's
// last recorded use) and user id → caller. Dropped whole when auth_state.gen moves: triggers move
// it on every write that can change a key's owner or a user's name, role, approval, access
// (disabled, tokens revoked) and on every deletion (src/db/custom/96_auth_gen.sql,
// b1_auth_gen_access.sql), so a revoked key or a demoted admin is refused on the next request,
// whoever wrote. Unknown credentials are never kept. A key's last_used_at is written at most once
// a minute (it does not move the generation).
import type { Database, Statement } from "bun:sqlite";
import type { AuthUser, CallerRow, CallerSource } from "../../shared/auth";

const USER_COLS = "u.id, u.email, u.display_name, u.role, u.is_approved, u.disabled_at, u.tokens_valid_from";
const CALLERS_MAX = 20_000;

function toCaller(r: any): CallerRow {
  const user: AuthUser = Object.freeze({ id: r.id, email: r.email, display_name: r.display_name, role: r.role, is_approved: !!r.is_approved });
  return { user, disabled: r.disabled_at !== null && r.disabled_at !== undefined, tokensValidFrom: r.tokens_valid_from ?? null };
}

/** The callers of one database, kept while its auth generation stands. */
export function callerSource(sqlite: Database): CallerSource {
  let gen = -1;
  const genStmt = sqlite.prepare("SELECT value FROM auth_state WHERE key = 'gen'") as Statement<{ value: number }, []>;
  const keys = new Map<string, { caller: CallerRow; keyId: string; lastUsed: number | null }>();
  const users = new Map<string, CallerRow>();
  const fresh = () => {
    const g = genStmt.get()?.value ?? 0;
    if (g !== gen || keys.size + users.size > CALLERS_MAX) {
      gen = g;
      keys.clear();
      users.clear();
    }
  };
  return {
    byId(id) {
      fresh();
      const hit = users.get(id);
      if (hit) return hit;
      const r = sqlite.query(`SELECT ${USER_COLS} FROM users u WHERE u.id = ?`).get(id);
      if (!r) return null;
      const caller = toCaller(r);
      users.set(id, caller);
      return caller;
    },
    byKeyHash(hash, now) {
      fresh();
      let e = keys.get(hash);
      if (!e) {
        const r = sqlite
          .query(`SELECT ${USER_COLS}, k.id AS key_id, k.last_used_at FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ?`)
          .get(hash) as any;
        if (!r) return null;
        e = { caller: toCaller(r), keyId: r.key_id, lastUsed: r.last_used_at };
        keys.set(hash, e);
      }
      // last_used_at at minute resolution: no write on every request.
      if (!e.caller.disabled && (!e.lastUsed || now - e.lastUsed > 60_000)) {
        sqlite.query("UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(now, e.keyId);
        e.lastUsed = now;
      }
      return e.caller;
    },
  };
}
