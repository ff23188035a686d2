// Mod usage from the live snapshot (GET /mods/:id/servers, the usage numbers of /mods/:id/stats
// and /mod/:id/metrics, the top a scan writes to live_mod_usage): every server seen within the
// window running a mod, in the usage's order, and their players; counted per snapshot and mod, and
// each server's answer JSON made on first use, kept with the snapshot.
import { serverBase } from "../entry";
import { SnapshotSlot, type LiveSnapshot } from "./types";

/** Positions (in the usage order) of the servers running a mod seen at or after `since`. */
function usedBy(s: LiveSnapshot, workshopId: string, since: number): number[] {
  const at = s.usage.byMod.get(workshopId);
  const out: number[] = [];
  if (at) for (let i = 0; i < at.length; i++) if (s.usage.seen[at[i]!]! >= since) out.push(at[i]!);
  return out;
}

/**
 * The usage numbers per snapshot and mod, with the range of `since` they hold for: every counted
 * server was seen at or after `hi`, every other one before `lo`, so for any `since` in (lo, hi]
 * the numbers are the same. Dropped with the snapshot (a scan builds a new one).
 */
const usageMemo = new SnapshotSlot<Map<string, { servers: number; players: number; lo: number; hi: number }>>();

/** Servers seen since `since` that run the mod, and their players (the usage numbers). */
export function modUsageOf(s: LiveSnapshot, workshopId: string, since: number): { servers: number; players: number } {
  const at = s.usage.byMod.get(workshopId);
  if (!at) return { servers: 0, players: 0 };
  const memo = usageMemo.of(s, () => new Map());
  const m = memo.get(workshopId);
  // A popular mod runs on thousands of servers: count them once, not on every request.
  if (m && m.lo < since && since <= m.hi) return { servers: m.servers, players: m.players };
  let servers = 0;
  let players = 0;
  let lo = -Infinity;
  let hi = Infinity;
  for (let k = 0; k < at.length; k++) {
    const i = at[k]!;
    const seen = s.usage.seen[i]!;
    if (seen >= since) {
      servers++;
      players += s.usage.players[i]!;
      if (seen < hi) hi = seen;
    } else if (seen > lo) lo = seen;
  }
  memo.set(workshopId, { servers, players, lo, hi });
  return { servers, players };
}

/**
 * Each usage position's answer JSON (serverBase), made the first time a request needs it and
 * kept with the snapshot's usage: a scan does not serialise ~5,000-10,000 servers for it that
 * nobody may ask for; a popular mod's first request makes its servers'.
 */
const usageJsons = new SnapshotSlot<(string | undefined)[]>();
function usageJson(s: LiveSnapshot, i: number): string {
  const json = usageJsons.of(s, () => new Array(s.usage.rows.length));
  return (json[i] ??= JSON.stringify(serverBase(s.usage.rows[i]!)));
}

/** GET /mods/:id/servers as JSON text: the servers seen since `since` that run the mod, most players first. */
export function modServersJson(s: LiveSnapshot, workshopId: string, since: number): string {
  const at = usedBy(s, workshopId, since);
  return "[" + at.map((i) => usageJson(s, i)).join(",") + "]";
}

