// Building the live snapshot (docs/live.md "The live list from memory"): one read transaction
// over the servers seen within the online window, their orders, the mod index and the entries'
// JSON, into an immutable object (the read model swaps it in: lifecycle.ts).
import type { Database } from "bun:sqlite";
import { generation } from "../../../db/statements";
import { SERVER_SORTS, type ListQuery } from "../model";
import { ONLINE_WINDOW, toEntry, type ServerBaseRow } from "../entry";
import { snapshotRepo } from "../repository/snapshot";
import { usageRepo } from "../repository/usage";
import { modIndex, type KnownLists, type ModListsHeld, type UsedServer } from "./mod-index";
import { sortOrders } from "./orders";
import { asciiLower, type LiveSnapshot, type Row } from "./types";

/** Freezes every element (an object each) and answers the array itself, left unfrozen (buildSnapshot). */
function freezeEach<T extends object>(a: T[]): readonly T[] {
  for (let i = 0; i < a.length; i++) Object.freeze(a[i]);
  return a;
}

/** live_state.servers_gen (src/db/statements.ts `generation`: once per turn of the event loop and per write). */
export const readGen = (sqlite: Database) => generation(sqlite, "live_state", "servers_gen");

let builds = 0;
/** Snapshots built so far in this process (tests count them). */
export const snapshotBuilds = () => builds;

/**
 * Builds a snapshot of the servers seen since `now` - ONLINE_WINDOW, numbering the mod lists with
 * the connection's mod-list cache (`held`); the caller publishes it (lifecycle.ts).
 */
export function buildOnto(sqlite: Database, held: ModListsHeld, now: number, known?: KnownLists): LiveSnapshot {
  const t0 = performance.now();
  builds++;
  // Only servers seen within the online window can be answered, now or later (time moves on;
  // a clock set back builds anew): read them through the last-seen index, not all ~95,000.
  const cut = now - ONLINE_WINDOW;
  // One read transaction: the rows, the orders and the mods are of the same committed state.
  return sqlite.transaction(() => {
    const gen = readGen(sqlite);
    const rows: Row[] = snapshotRepo.onlineRows(sqlite, cut);
    const index = new Map<string, number>();
    const bySid = new Map<number, number>();
    rows.forEach((r, i) => {
      index.set(r.id, i);
      bySid.set(r.sid, i);
    });
    // The eight orders sorted here from the rows (sortOrders), else by SQLite.
    let orders = sortOrders(rows);
    if (!orders) {
      orders = {} as Record<ListQuery["sort_by"], Int32Array>;
      for (const sort of SERVER_SORTS) {
        const sids = snapshotRepo.onlineSidsInOrder(sqlite, cut, sort);
        const a = new Int32Array(sids.length);
        for (let i = 0; i < sids.length; i++) a[i] = bySid.get(sids[i]![0])!;
        orders[sort] = a;
      }
    }
    // Every server seen within the window, online or not, in /mods/:id/servers's order: its sid
    // and whether it is online (then its row is one of `rows`, read above); the columns of the
    // others (the few a steady scan saw go since the last; a first sight's vanished servers) are
    // read apart. Reading every one's columns again cost a steady scan ~10 ms and 5,000 objects.
    const usedOrder: UsedServer[] = snapshotRepo.usedServers(sqlite, cut);
    const gone = new Map<number, ServerBaseRow>();
    for (const r of snapshotRepo.goneRows(sqlite, cut)) gone.set(r.sid, r);
    const used: ServerBaseRow[] = new Array(usedOrder.length);
    // sid → position in rows / in the usage order (+1; 0: not held), as arrays: ~400,000 pairs
    // are placed below, and an array read is several times cheaper than a Map lookup.
    let maxSid = 0;
    for (const [sid] of usedOrder) if (sid > maxSid) maxSid = sid;
    // The scan numbers new servers max + 1, so sids are dense; sids far apart (raw SQL, a test's
    // random ones) go through a Map to slots instead of arrays as long as the largest sid.
    const slots = maxSid > 4 * usedOrder.length + 65_536 ? new Map(usedOrder.map(([sid], i) => [sid, i + 1])) : null;
    const slot = slots ? (sid: number) => slots.get(sid) ?? -1 : (sid: number) => sid;
    const size = slots ? usedOrder.length + 1 : maxSid + 1;
    const usedAt = new Int32Array(size);
    const rowAt = new Int32Array(size);
    const seen = new Float64Array(usedOrder.length);
    const players = new Int32Array(usedOrder.length);
    for (let i = 0; i < usedOrder.length; i++) {
      const [sid, online] = usedOrder[i]!;
      const r = online ? rows[bySid.get(sid)!]! : gone.get(sid)!;
      used[i] = r;
      usedAt[slot(sid)] = i + 1;
      seen[i] = r.last_seen_at;
      players[i] = r.player_count;
    }
    for (const [sid, i] of bySid) {
      const k = slot(sid);
      if (k >= 0 && k < size) rowAt[k] = i + 1;
    }
    const { byMod, usedByMod, modInts, cacheBytes, lists } = modIndex(sqlite, held, usedOrder, usedAt, rows.length, rowAt, slot, known);
    // The entries' JSON, encoded into one buffer (their objects and strings are garbage at once).
    const json = rows.map((r) => JSON.stringify(toEntry(r)));
    const entryAt = new Int32Array(rows.length + 1);
    for (let i = 0; i < rows.length; i++) entryAt[i + 1] = entryAt[i]! + Buffer.byteLength(json[i]!, "utf8");
    const entryBytes = Buffer.allocUnsafeSlow(entryAt[rows.length]!);
    for (let i = 0; i < rows.length; i++) entryBytes.write(json[i]!, entryAt[i]!, "utf8");
    const topMods = usageRepo.topMods(sqlite);
    const tags = rows.map((r) => asciiLower(r.tags));
    // Rough: a row and its entry ~ 1.2 KB of strings and objects; an offline server's row ~600 B;
    // its usage JSON (made as asked) ~250 characters; 4 bytes an order slot or mod index entry;
    // ~100 B a map key; and the mod-list cache kept for the next build (modIndex).
    const bytes = rows.length * 1200 + gone.size * 600 + used.length * (20 + 250 * 2) + entryBytes.byteLength + rows.length * 4 + SERVER_SORTS.length * rows.length * 4 + modInts * 4 + (byMod.size + usedByMod.size) * 100 + cacheBytes;
    const snapshot: LiveSnapshot = Object.freeze({
      gen,
      cut,
      builtAt: now,
      buildMs: performance.now() - t0,
      // Each row frozen; the long arrays (rows, tags, the usage's rows) are readonly by their types only:
      // freezing an array of thousands moves it to JavaScriptCore's slow storage, ~5-9 ms a build
      // for 10,000 elements and every later element read ~10x dearer.
      rows: freezeEach(rows),
      entryBytes,
      entryAt,
      tags,
      order: Object.freeze(orders),
      byMod,
      byId: index,
      topMods: Object.freeze(topMods),
      usage: Object.freeze({ seen, players, rows: used, byMod: usedByMod }),
      modLists: lists,
      bytes,
      derived: [],
    });
    return snapshot;
  })();
}
