// The hash of a server's reported mod list (game_servers.mods_hash): a scan compares it with the
// stored one to skip the mod diff of an unchanged list. Two ways to the same value:
// - modsHash: of the normalised list (LiveMod[], battlemetrics.ts normalise);
// - reportedModsHash: of the list as BattleMetrics reported it, read in place while a page is
//   read, when every mod is already in its normal form, so the ~200,000 normalised mods of a
//   steady scan are made only for the lists that changed (normalising them all was ~7 % of a
//   steady scan's samples).
import type { LiveMod } from "./battlemetrics";

/**
 * Hash of the reported mod list (ids, versions, names, order): Bun.hash of every mod's
 * `id \u0001 version \u0001 name \u0002` in order. Bun.hash hashes a string's UTF-8 bytes, so
 * the bytes of an all-ASCII list are written into one reused buffer and hashed there: the string
 * of the whole list was built from ~200,000 pieces a scan (~25-85 ms of a first sight, most of it
 * the pieces' garbage); a list with any other character hashes the string as before.
 */
export function modsHash(mods: readonly LiveMod[]): string {
  if (mods.length === 0) return "0";
  let n = 0;
  for (let k = 0; k < mods.length; k++) {
    const m = mods[k]!;
    if ((n = putMod(n, m.workshop_id, m.version ?? "", m.name ?? "")) < 0) return modsHashOfText(mods);
  }
  return Bun.hash(hashBytes.subarray(0, n)).toString(36);
}

/** modsHash of the list's text (any characters). */
export function modsHashOfText(mods: readonly LiveMod[]): string {
  if (mods.length === 0) return "0";
  let s = "";
  for (const m of mods) s += `${m.workshop_id}\u0001${m.version ?? ""}\u0001${m.name ?? ""}\u0002`;
  return Bun.hash(s).toString(36);
}

/**
 * modsHash of what normalising `items` (a server's `details.reforger.mods` as JSON.parse gave it)
 * would give, read in place; undefined unless every item is an object whose `modId` is already a
 * workshop id in its normal form (16 of 0-9 A-F, as BattleMetrics sends them) and whose strings
 * are all ASCII. Ids are not checked for repeats (normalising keeps a repeated id's first
 * position only): a list that repeats one hashes otherwise than its normalised list, so it can
 * only ever be taken for a stored list it is not through a collision of the 64-bit hash, the same
 * odds on which every unchanged list's diff is skipped. Its non-string names and versions hash as
 * normalising reads them (null: empty).
 */
export function reportedModsHash(items: readonly unknown[]): string | undefined {
  if (items.length === 0) return "0";
  let n = 0;
  for (let k = 0; k < items.length; k++) {
    const o = items[k];
    if (o === null || typeof o !== "object") return undefined;
    const { modId, version, name } = o as { modId?: unknown; version?: unknown; name?: unknown };
    if (typeof modId !== "string" || modId.length !== 16) return undefined;
    const at = n;
    if ((n = putMod(n, modId, typeof version === "string" ? version : "", typeof name === "string" ? name : "")) < 0) return undefined;
    // The id's 16 bytes as written: each of 0-9 A-F.
    if (!isNormalId(hashBytes, at)) return undefined;
  }
  return Bun.hash(hashBytes.subarray(0, n)).toString(36);
}

/**
 * Whether the 16 bytes at `at` are a workshop id as normalising keeps it unchanged: battlemetrics.ts
 * WORKSHOP_ID (/^[0-9A-F]{16}$/) on the bytes already written, where a regex test of every id was
 * a second pass over ~200,000 strings a scan. The two must agree (scan-hash.test.ts tries ids of
 * both kinds).
 */
function isNormalId(b: Uint8Array, at: number): boolean {
  for (let i = at; i < at + 16; i++) {
    const c = b[i]!;
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 70))) return false;
  }
  return true;
}

let hashBytes = new Uint8Array(1 << 16);

/** Writes one mod's `id \1 version \1 name \2` at `n`: the end, or -1 at a character past ASCII. */
function putMod(n: number, id: string, version: string, name: string): number {
  const end = n + id.length + version.length + name.length + 3;
  if (end > hashBytes.length) {
    const grown = new Uint8Array(Math.max(hashBytes.length * 2, end));
    grown.set(hashBytes.subarray(0, n));
    hashBytes = grown;
  }
  if ((n = putAscii(id, n)) < 0) return -1;
  hashBytes[n++] = 1;
  if ((n = putAscii(version, n)) < 0) return -1;
  hashBytes[n++] = 1;
  if ((n = putAscii(name, n)) < 0) return -1;
  hashBytes[n++] = 2;
  return n;
}

/** Writes an all-ASCII `s` into hashBytes at `n` (room made by the caller): the end, or -1 at a character past ASCII. */
function putAscii(s: string, n: number): number {
  const b = hashBytes;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f) return -1;
    b[n++] = c;
  }
  return n;
}
