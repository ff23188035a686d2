// Mod usage: live_mod_usage (the top TOP_MODS, what GET /stats/top-mods answers) and
// live_mod_names (for every mod, the row its name is taken from when the catalog has none).
import type { Database } from "bun:sqlite";
import { insertRows, stmt } from "../../../db/statements";
import { binaryCompare } from "../../../shared/binary-order";
import { HOUR } from "../windows";
import { CatalogLookup } from "./catalog-lookup";
import { modListsRepo, UNREAD, listName, writtenPlain } from "./mod-lists";
import { bumpServersGen, getState, setState } from "./state";

/** How many mods live_mod_usage keeps: GET /stats/top-mods's 10 (docs/live.md "Endpoint decisions"). */
export const TOP_MODS = 10;

/**
 * The `n` entries of `usage` with the most servers, ties by workshop id in SQLite's BINARY order
 * (`ORDER BY server_count DESC, workshop_id LIMIT n`), in that order; one pass, each entry
 * compared with the last of the kept few.
 */
export function topOfUsage<T extends readonly [string, number, ...unknown[]]>(usage: readonly T[], n: number): T[] {
  const before = (a: T, b: T) => a[1] > b[1] || (a[1] === b[1] && binaryCompare(a[0], b[0]) < 0);
  const top: T[] = [];
  if (n <= 0) return top;
  for (const u of usage) {
    if (top.length === n && !before(u, top[n - 1]!)) continue;
    let k = Math.min(top.length, n - 1);
    top[k] = u;
    while (k > 0 && before(u, top[k - 1]!)) {
      top[k] = top[k - 1]!;
      top[--k] = u;
    }
  }
  return top;
}

/**
 * Servers whose mod lists the caller wrote in its open transaction and holds in memory (the lists
 * a scan wrote: new servers' and changed ones'): their sids, and for every workshop id among
 * their rows with a name the smallest such sid (refreshModNames takes these instead of reading
 * the rows back).
 */
export interface KnownNames {
  sids: Set<number>;
  first: Map<string, number>;
}

/** A row of live_mod_usage as GET /stats/top-mods answers it. */
export interface TopMod {
  workshop_id: string;
  name: string;
  server_count: number;
}

export const usageRepo = {
  /** live_mod_usage's rows in the answer's order (the most servers first, ties by workshop id), each frozen. */
  topMods(sqlite: Database): TopMod[] {
    return (
      stmt(sqlite, `SELECT workshop_id, name, server_count FROM live_mod_usage ORDER BY server_count DESC, workshop_id LIMIT 10`).all() as TopMod[]
    ).map((m) => Object.freeze(m));
  },

  /**
   * Recomputes the per-mod usage (servers seen in the last hour) whose top live_mod_usage keeps
   * for GET /stats/top-mods (writeModUsage), counted from SQLite (the roll-up; a scan counts from
   * the snapshot it builds, the same numbers: snapshotWithUsage in snapshot.ts). CROSS JOIN keeps
   * the servers seen in the hour (by the last_seen index) as the outer loop, reading each one's
   * mods from the covering primary-key index.
   */
  refreshModUsage(sqlite: Database, now: number) {
    // Counted here rather than by GROUP BY: SQLite sorted every (server, mod) pair through a
    // temporary B-tree; read in the last-seen index's order and summed in a Map they cost about
    // half (bench/scan.ts, "mod usage refresh").
    const pairs = stmt(
      sqlite,
      `SELECT g.player_count, gm.workshop_id FROM game_servers g INDEXED BY game_servers_seen_idx
       CROSS JOIN game_server_mods_by_sid gm ON gm.server_sid = g.sid WHERE g.last_seen_at >= $since`,
    ).values({ since: now - HOUR }) as [number, string][];
    const usage = new Map<string, [number, number]>();
    for (let i = 0; i < pairs.length; i++) {
      const [players, mod] = pairs[i]!;
      const u = usage.get(mod);
      if (u) {
        u[0]++;
        u[1] += players;
      } else usage.set(mod, [1, players]);
    }
    usageRepo.writeModUsage(sqlite, now, Array.from(usage, ([mod, [servers, players]]) => [mod, servers, players]));
  },

  /**
   * Brings live_mod_names up to date (a4_mod_names.sql): for every workshop id, the smallest sid
   * of its mod rows with a name, the row live_mod_usage takes a name from when the catalog has
   * none (what the per-mod index answered first). Only the servers whose mod-list version moved
   * since the last refresh are read (game_server_mods_ver: every write to a server's rows, by any
   * path, gives it a version above every earlier one): their rows can only lower a mod's sid, or
   * take away the row a mod's entry names, and only then is that mod counted again from all rows
   * (one pass over the table). A first sight: the ~5,000 new servers' ~200,000 rows by their
   * primary key, instead of ~200,000 index entries written at random places; with `known` (a
   * scan's new and changed lists, which it wrote from memory in this transaction) those servers' rows
   * are not read back: their smallest named sid per mod is given.
   */
  refreshModNames(sqlite: Database, known?: KnownNames) {
    const gen = getState(sqlite, "servers_gen") ?? 0;
    const since = getState(sqlite, "mod_names_ver") ?? 0;
    if (gen === since) return;
    const changed = (stmt(sqlite, `SELECT sid FROM game_server_mods_ver WHERE ver > ? ORDER BY sid`).values(since) as [number][]).map((r) => r[0]);
    if (changed.length > 0) {
      const upsert = `ON CONFLICT(workshop_id) DO UPDATE SET server_sid = excluded.server_sid
         WHERE excluded.server_sid < live_mod_names.server_sid`;
      const lost = stmt(
        sqlite,
        `SELECT f.workshop_id FROM live_mod_names f
         WHERE f.server_sid IN (SELECT value FROM json_each(?))
           AND NOT EXISTS (SELECT 1 FROM game_server_mods_by_sid x
             WHERE x.server_sid = f.server_sid AND x.workshop_id = f.workshop_id AND x.name != '')`,
      ).values(JSON.stringify(changed)) as [string][];
      if (lost.length > 0) {
        const ids = JSON.stringify(lost.map((r) => r[0]));
        stmt(sqlite, `DELETE FROM live_mod_names WHERE workshop_id IN (SELECT value FROM json_each(?))`).run(ids);
        // Each mod's lists found by searching every list's text for the id as it is written in it
        // (a JSON string) before json_each takes apart the few that hold it: ~0.15 s a mod at full
        // scale, where one pass through the view takes ~0.5-0.8 s for any number of mods, most of
        // it json_each (a6_server_mod_lists.sql). An id that JSON writes with an escape, or more
        // than a few mods at once, take the pass through the view.
        if (lost.length <= 4 && lost.every(([id]) => writtenPlain(id))) {
          const recount = stmt(
            sqlite,
            `INSERT INTO live_mod_names (workshop_id, server_sid)
             SELECT j.value ->> 0, min(l.server_sid) FROM game_server_mod_lists l, json_each(l.mods) j
             WHERE instr(l.mods, $text) > 0 AND j.value ->> 0 = $id AND j.value ->> 1 != '' GROUP BY j.value ->> 0 ${upsert}`,
          );
          for (const [id] of lost) recount.run({ id, text: JSON.stringify(id) });
        } else {
          stmt(
            sqlite,
            `INSERT INTO live_mod_names (workshop_id, server_sid)
             SELECT workshop_id, min(server_sid) FROM game_server_mods_by_sid
             WHERE name != '' AND workshop_id IN (SELECT value FROM json_each(?)) GROUP BY workshop_id ${upsert}`,
          ).run(ids);
        }
      }
      const read = known ? changed.filter((sid) => !known.sids.has(sid)) : changed;
      if (read.length > 0) {
        stmt(
          sqlite,
          `INSERT INTO live_mod_names (workshop_id, server_sid)
           SELECT gm.workshop_id, min(gm.server_sid) FROM json_each(?) j
           CROSS JOIN game_server_mods_by_sid gm ON gm.server_sid = j.value
           WHERE gm.name != '' GROUP BY gm.workshop_id ${upsert}`,
        ).run(JSON.stringify(read));
      }
      if (known && known.first.size > 0) {
        stmt(
          sqlite,
          `INSERT INTO live_mod_names (workshop_id, server_sid) SELECT j.key, j.value FROM json_each(?) j WHERE true ${upsert}`,
        ).run(JSON.stringify(Object.fromEntries(known.first)));
      }
    }
    setState(sqlite, "mod_names_ver", gen);
  },

  /**
   * Replaces live_mod_usage with the top TOP_MODS of `usage` ([workshop id, servers, players] of
   * every mod run by a server seen in the hour before `now`): the most servers first, ties by
   * workshop id (SQLite's BINARY order), each named by usageNames. GET /stats/top-mods is all that
   * reads the table (through the live snapshot, which counts every mod's usage in memory: the
   * catalog's live stats and /mods/:id/servers answer from there). Every used mod's row (~11,000,
   * each named, all rewritten every scan) cost ~30-45 ms of a steady scan on its JavaScript thread
   * and ~100 ms in all.
   */
  writeModUsage(sqlite: Database, now: number, usage: [string, number, number][], catalog: CatalogLookup = new CatalogLookup(sqlite)) {
    const top = topOfUsage(usage, TOP_MODS);
    const names = usageRepo.usageNames(
      sqlite,
      top.map((u) => u[0]),
      catalog,
    );
    stmt(sqlite, `DELETE FROM live_mod_usage`).run();
    insertRows(
      sqlite,
      `INSERT INTO live_mod_usage (workshop_id, name, server_count, player_count, updated_at)`,
      5,
      top.map(([mod, servers, players], i) => [mod, names[i]!, servers, players, now]),
    );
    setState(sqlite, "mod_usage_at", now);
    // The live snapshot holds the top of this table: move its generation (snapshot.ts).
    bumpServersGen(sqlite);
  },

  /**
   * The names live_mod_usage gives `ids` (in their order): the catalog's name, through `catalog`;
   * else the name of the mod's row with the smallest sid among those with one (live_mod_names,
   * brought up to date first: it writes, so call it inside the caller's write transaction); else ''.
   */
  usageNames(sqlite: Database, ids: readonly string[], catalog: CatalogLookup = new CatalogLookup(sqlite)): string[] {
    usageRepo.refreshModNames(sqlite);
    const found = catalog.get(ids);
    const names = ids.map((id) => found.get(id)?.name || "");
    const unnamed: number[] = [];
    for (let i = 0; i < names.length; i++) if (!names[i]) unnamed.push(i);
    if (unnamed.length === 0) return names;
    // The named row of each (live_mod_names: its server's sid), read from the lists of those
    // servers, each list once: the mods share few such servers (the smallest sid with a name),
    // and a look-up per mod through the view took each one's list apart with json_each
    // (~8,000 mods on a first sight: ~0.1 s; a6_server_mod_lists.sql).
    const at = stmt(
      sqlite,
      `SELECT j.key, f.server_sid FROM json_each(?) j JOIN live_mod_names f ON f.workshop_id = j.value`,
    ).values(JSON.stringify(unnamed.map((i) => ids[i]!))) as [number, number][];
    const bySid = new Map<number, number[]>();
    for (const [k, sid] of at) {
      const ks = bySid.get(sid);
      if (ks) ks.push(k);
      else bySid.set(sid, [k]);
    }
    if (bySid.size === 0) return names;
    // Each name found in the list's text (listName); a list it cannot read so is parsed whole.
    for (const [sid, text] of modListsRepo.modListTexts(sqlite, [...bySid.keys()])) {
      let named: Map<string, unknown> | null = null;
      for (const k of bySid.get(sid)!) {
        const i = unnamed[k]!;
        const id = ids[i]!;
        let name: unknown = listName(text, id);
        if (name === UNREAD) {
          if (!named) {
            named = new Map<string, unknown>();
            for (const e of JSON.parse(text) as unknown[][]) named.set(String(e[0]), e[1]);
          }
          name = named.get(id);
        }
        if (name !== undefined && name !== null) names[i] = String(name);
      }
    }
    return names;
  },
};
