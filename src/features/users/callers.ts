// Who a credential is, read from the users feature's tables and kept in memory (the shared auth
// plugin asks through `Deps.callers`, so it knows no table): API key hash → caller (with the key's
// last recorded use) and user id → caller. A read model (docs/architecture.md "Derived reads"),
// dropped whole when auth_state.gen moves: triggers move it on every write that can change a key's
// owner or a user's name, role, approval, access (disabled, tokens revoked) and on every deletion
// (src/db/schema-objects.sql), so a revoked key or a demoted admin is refused on the next request,
// whoever wrote; the counter is read once per turn of the event loop and after each write
// (db/statements.ts `generation`). Unknown credentials are never kept, so an insert needs no
// trigger. A key's last_used_at is written at most once a minute (it does not move the generation).
import type { Database } from "bun:sqlite";
import type { AuthUser, CallerRow, CallerSource } from "../../shared/auth";
import { defineReadModel, readModelsOf } from "../../db/read-models";
import { generation } from "../../db/statements";
import { callerById, callerByKeyHash, setKeyLastUsed, type CallerUserRow } from "./repository";

const CALLERS_MAX = 20_000;

function toCaller(r: CallerUserRow): CallerRow {
  const user: AuthUser = Object.freeze({ id: r.id, email: r.email, display_name: r.display_name, role: r.role, is_approved: !!r.is_approved });
  return { user, disabled: r.disabled_at !== null && r.disabled_at !== undefined, tokensValidFrom: r.tokens_valid_from ?? null };
}

interface Callers {
  gen: number;
  keys: Map<string, { caller: CallerRow; keyId: string; lastUsed: number | null }>;
  users: Map<string, CallerRow>;
}

/** The read model: the callers of one auth generation, per connection. */
export const callersModel = defineReadModel({
  name: "users.callers",
  tables: ["users", "api_keys"],
  generations: ["auth_state.gen"],
  bound: { entries: CALLERS_MAX },
  keepsNoMiss: true,
  create: (): Callers => ({ gen: -1, keys: new Map(), users: new Map() }),
  // A caller: its frozen user object (id, e-mail, name) and the row around it, ~400 bytes.
  size: (c: Callers) => ({ bytes: (c.keys.size + c.users.size) * 400, entries: c.keys.size + c.users.size }),
});

/** The callers of one database, kept while its auth generation stands. */
export function callerSource(sqlite: Database): CallerSource {
  let keys!: Callers["keys"];
  let users!: Callers["users"];
  const fresh = () => {
    const c = readModelsOf(sqlite).of(callersModel);
    const g = generation(sqlite, "auth_state", "gen");
    if (g !== c.gen || c.keys.size + c.users.size > CALLERS_MAX) {
      c.gen = g;
      c.keys.clear();
      c.users.clear();
    }
    keys = c.keys;
    users = c.users;
  };
  return {
    byId(id) {
      fresh();
      const hit = users.get(id);
      if (hit) return hit;
      const r = callerById(sqlite, id);
      if (!r) return null;
      const caller = toCaller(r);
      users.set(id, caller);
      return caller;
    },
    byKeyHash(hash, now) {
      fresh();
      let e = keys.get(hash);
      if (!e) {
        const r = callerByKeyHash(sqlite, hash);
        if (!r) return null;
        e = { caller: toCaller(r), keyId: r.key_id, lastUsed: r.last_used_at };
        keys.set(hash, e);
      }
      // last_used_at at minute resolution: no write on every request.
      if (!e.caller.disabled && (!e.lastUsed || now - e.lastUsed > 60_000)) {
        setKeyLastUsed(sqlite, e.keyId, now);
        e.lastUsed = now;
      }
      return e.caller;
    },
  };
}
