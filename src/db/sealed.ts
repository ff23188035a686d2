// Sealed columns: values stored encrypted with the credential key (AES-256-GCM, shared/crypto.ts),
// each bound to its row by additional authenticated data. Every feature declares its sealed
// columns once (`FeatureModule.sealed`); the registry gathers them (`sealedColumns` in
// features/index.ts) and `Deps.sealed` carries them. Key rotation (`rotate-key`), restore's key
// check and the start-up sealing of values an earlier version stored in clear all iterate that
// one list, so a new sealed column is one more entry, not an edit of each of them.
//
// The statements are built from the declarations (code, never input); identifiers are quoted.
import type { Database } from "bun:sqlite";
import { CredentialCryptoError, decryptSecret, encryptSecret, keyId, reencryptSecret, sealedKeyId } from "../shared/crypto";

export interface SealedColumn {
  table: string;
  column: string;
  /** The row's identifying column; its value (as text) is what `aad` is given. */
  idColumn: string;
  /** The additional authenticated data of a row's value: a value copied to another row (or column) does not open. */
  aad: (id: string) => string;
  /** What one value is, for people ("server credential"); messages add "(s)". */
  label: string;
  /** A column beside it that holds the key id of the value (kept in step by rotation). */
  keyIdColumn?: string;
  /**
   * Rows written by a version that stored this column in clear: such values are sealed at every
   * start that migrates (`sealClearValues`). Give the column a partial index `ON t (id) WHERE
   * substr(<column>, 1, 3) <> 'v1.'` so that look-up reads only the rows still in clear.
   */
  legacyClear?: boolean;
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const named = (c: SealedColumn) => `${c.table}.${c.column}`;

/** Whether a stored value has the sealed format (`v1.<key id>.<nonce>.<body>`). */
export const isSealed = (value: string) => sealedKeyId(value) !== null;

/** Whether the database has the declared table and columns (an older backup may not). */
function present(sqlite: Database, c: SealedColumn): boolean {
  const cols = new Set((sqlite.query(`SELECT name FROM pragma_table_info(?)`).all(c.table) as { name: string }[]).map((r) => r.name));
  return cols.has(c.column) && cols.has(c.idColumn) && (!c.keyIdColumn || cols.has(c.keyIdColumn));
}

type Row = { id: string | number; value: string };

/** Rows whose value looks clear: the expression of the columns' partial indexes (see `legacyClear`). */
const clearRowsSql = (c: SealedColumn) =>
  `SELECT ${q(c.idColumn)} AS id, ${q(c.column)} AS value FROM ${q(c.table)} WHERE substr(${q(c.column)}, 1, 3) <> 'v1.'`;

/**
 * Seals, with `key`, every value of a `legacyClear` column still in clear (written by an earlier
 * version); returns how many. Idempotent (sealed values are left alone) and cheap when there is
 * nothing to do (the partial index holds no row). Run at start, right after the migrations.
 *
 * An UPDATE only unlinks the old text: pieces of it stay in the free space of pages (and of pages
 * reused since) and in the WAL's page images. So when anything was sealed (once: the first start
 * after the upgrade), the file is rewritten by VACUUM (its transient copy on disk, not in memory)
 * and the WAL checkpointed and truncated: no byte of the clear text is left in the data dir.
 */
export function sealClearValues(sqlite: Database, columns: readonly SealedColumn[], key: Uint8Array): number {
  const wanted = columns.filter((c) => c.legacyClear && present(sqlite, c));
  if (wanted.length === 0) return 0;
  const clear = wanted.map((c) => ({ c, rows: sqlite.query(clearRowsSql(c)).all() as Row[] }));
  const total = clear.reduce((n, x) => n + x.rows.length, 0);
  if (total === 0) return 0;
  sqlite
    .transaction(() => {
      for (const { c, rows } of clear) {
        const upd = sqlite.query(`UPDATE ${q(c.table)} SET ${q(c.column)} = ? WHERE ${q(c.idColumn)} = ? AND ${q(c.column)} = ?`);
        for (const r of rows) upd.run(encryptSecret(r.value, key, c.aad(String(r.id))), r.id, r.value);
      }
    })
    .immediate();
  const tempStore = (sqlite.query("PRAGMA temp_store").get() as { temp_store: number }).temp_store;
  sqlite.exec("PRAGMA temp_store = FILE");
  try {
    sqlite.exec("VACUUM");
  } finally {
    sqlite.exec(`PRAGMA temp_store = ${tempStore}`);
  }
  sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return total;
}

export interface ResealReport {
  table: string;
  column: string;
  total: number;
  /** Re-sealed under the new key (values found in clear in a `legacyClear` column included). */
  rotated: number;
  /** Already under the new key (a rerun after an interrupted rotation). */
  unchanged: number;
  /** Ids of rows whose value the current key cannot open: left as they are. */
  unreadable: string[];
}

/**
 * Key rotation: re-seals every value of every declared column under `next` (the caller holds the
 * transaction). A value `current` cannot open is left alone and reported.
 */
export function resealColumns(sqlite: Database, columns: readonly SealedColumn[], current: Uint8Array, next: Uint8Array): ResealReport[] {
  const nextId = keyId(next);
  const out: ResealReport[] = [];
  for (const c of columns) {
    if (!present(sqlite, c)) continue;
    const report: ResealReport = { table: c.table, column: c.column, total: 0, rotated: 0, unchanged: 0, unreadable: [] };
    const rows = sqlite.query(`SELECT ${q(c.idColumn)} AS id, ${q(c.column)} AS value FROM ${q(c.table)} WHERE ${q(c.column)} IS NOT NULL`).all() as Row[];
    const upd = sqlite.query(
      `UPDATE ${q(c.table)} SET ${q(c.column)} = ?${c.keyIdColumn ? `, ${q(c.keyIdColumn)} = ?` : ""} WHERE ${q(c.idColumn)} = ?`,
    );
    for (const r of rows) {
      report.total++;
      const id = String(r.id);
      if (sealedKeyId(r.value) === nextId) {
        report.unchanged++;
        continue;
      }
      let sealed: string;
      try {
        sealed = isSealed(r.value) || !c.legacyClear ? reencryptSecret(r.value, current, next, c.aad(id)) : encryptSecret(r.value, next, c.aad(id));
      } catch (e) {
        if (!(e instanceof CredentialCryptoError)) throw e;
        report.unreadable.push(id);
        continue;
      }
      if (c.keyIdColumn) upd.run(sealed, nextId, r.id);
      else upd.run(sealed, r.id);
      report.rotated++;
    }
    out.push(report);
  }
  return out;
}

export interface SealedCheck {
  column: SealedColumn;
  /** Values present (not null). */
  total: number;
  /** Opened with the key. */
  opened: number;
  /** Clear values of a `legacyClear` column (sealed at the next start). */
  clear: number;
  /** Values that did not open: the row, the key id they name (null: not in the sealed format) and why. */
  failures: { id: string; keyId: string | null; error: string }[];
}

/**
 * Opens every sealed value of the declared columns with `key` (null: no key at all) and says
 * which did not open. Nothing is kept of the opened values. Columns the database lacks are skipped.
 */
export function checkSealedColumns(sqlite: Database, columns: readonly SealedColumn[], key: Uint8Array | null): SealedCheck[] {
  const out: SealedCheck[] = [];
  for (const c of columns) {
    if (!present(sqlite, c)) continue;
    const check: SealedCheck = { column: c, total: 0, opened: 0, clear: 0, failures: [] };
    const rows = sqlite.query(`SELECT ${q(c.idColumn)} AS id, ${q(c.column)} AS value FROM ${q(c.table)} WHERE ${q(c.column)} IS NOT NULL`);
    for (const r of rows.iterate() as IterableIterator<Row>) {
      check.total++;
      const id = String(r.id);
      const kid = sealedKeyId(r.value);
      if (kid === null) {
        if (c.legacyClear) check.clear++;
        else check.failures.push({ id, keyId: null, error: `${named(c)} of ${id} is not in the sealed format` });
        continue;
      }
      if (!key) {
        check.failures.push({ id, keyId: kid, error: `no key to open ${named(c)} of ${id}` });
        continue;
      }
      try {
        decryptSecret(r.value, key, c.aad(id));
        check.opened++;
      } catch (e) {
        if (!(e instanceof CredentialCryptoError)) throw e;
        check.failures.push({ id, keyId: kid, error: `${named(c)} of ${id}: ${e.message}` });
      }
    }
    out.push(check);
  }
  return out;
}
