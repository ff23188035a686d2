// Test helpers for the lists feature: seed catalog rows directly (the catalog's own scraper is
// tested elsewhere) and make lists through the real HTTP API.
import type { TestApp, TestUser } from "./helpers";

export interface SeedMod {
  id: string;
  name?: string;
  version?: string;
  versions?: string[];
  size?: number;
  deps?: string[];
  state?: string;
  gameVersion?: string;
  /** Epoch ms of the latest version. */
  updatedAt?: number;
}

/** Inserts catalog mods (with versions and dependencies) straight into the catalog tables. */
export function seedMods(t: TestApp, mods: SeedMod[]) {
  const s = t.deps.sqlite;
  const now = t.clock.now();
  const insMod = s.query(
    `INSERT INTO mods (workshop_id, name, version, size_bytes, state, game_version, updated_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insVer = s.query("INSERT INTO mod_versions (workshop_id, version, size_bytes, created_at, game_version) VALUES (?, ?, ?, ?, ?)");
  const insDep = s.query("INSERT INTO mod_dependencies (workshop_id, depends_on_id, depends_on_name) VALUES (?, ?, ?)");
  for (const m of mods) {
    const version = m.version ?? "1.0.0";
    const at = m.updatedAt ?? now - 86_400_000;
    insMod.run(m.id, m.name ?? `Mod ${m.id.slice(-4)}`, version, m.size ?? 1000, m.state ?? "active", m.gameVersion ?? null, at, at);
    const versions = m.versions ?? [version];
    versions.forEach((v, i) => insVer.run(m.id, v, m.size ?? 1000, at - (versions.length - 1 - i) * 1000, m.gameVersion ?? null));
    for (const d of m.deps ?? []) insDep.run(m.id, d, `Dep ${d.slice(-4)}`);
  }
}

/** A 16-hex workshop id from a number. */
export const wid = (n: number) => n.toString(16).toUpperCase().padStart(16, "A");

export async function makeList(t: TestApp, user: TestUser, body: Record<string, unknown> = {}) {
  const r = await t.req("POST", "/api/v1/lists", { user, body: { name: "My list", description: "", is_public: false, ...body } });
  if (r.status !== 200) throw new Error(`create list: ${r.status} ${r.text}`);
  return r.body as { id: string; share_token: string; suggestion_token: string };
}

export async function addMods(t: TestApp, user: TestUser, listId: string, ids: string[]) {
  for (const id of ids) {
    const r = await t.req("POST", `/api/v1/lists/${listId}/mods`, { user, body: { workshop_id: id } });
    if (r.status !== 200) throw new Error(`add ${id}: ${r.status} ${r.text}`);
  }
}

/** The list's mods as [id, pinned] in order, straight from the table. */
export function itemsOf(t: TestApp, listId: string) {
  return (
    t.deps.sqlite.query("SELECT workshop_id, pinned_version FROM list_items WHERE list_id = ? ORDER BY position, added_at").all(listId) as {
      workshop_id: string;
      pinned_version: string | null;
    }[]
  ).map((r) => [r.workshop_id, r.pinned_version] as const);
}

export const raw = (text: string) => ({ raw: text, headers: { "content-type": "text/plain" } });
