// What the process keeps per database connection, owned by the connection's handle: its prepared
// statements, the generation counters read this turn of the event loop (statements.ts), and the
// read models derived from it (read-models.ts: docs/architecture.md "Derived reads"). All of it is
// made with the handle (openDatabase makes a LoadoutDatabase) and dropped with it: close() drops
// every read model first, so their answers leave the shared answer budget at once. A handle opened
// elsewhere (a test's second connection, a tool's read-only one) gets its state on first use.
import { Database, type Statement } from "bun:sqlite";

/** A value kept until the current turn of the event loop ends: one setImmediate a turn drops it. */
export class KeptForTurn<T> {
  value: T | null = null;
  private queued = false;
  keep(value: T): T {
    this.value = value;
    if (!this.queued) {
      this.queued = true;
      setImmediate(() => {
        this.value = null;
        this.queued = false;
      });
    }
    return value;
  }
}

/** What a read model holds now (for the metrics). */
export interface ReadModelSize {
  /** Approximate bytes (2 a character of text, typed arrays by their length). */
  bytes: number;
  /** Entries: answers, rows, servers, terms: what the model counts itself in. */
  entries: number;
}

/**
 * A derived read, defined once (module level: a definition holds no data) and instantiated per
 * connection. Every model says what it is derived from (its tables, each of which has triggers
 * moving one of its generation counters on every write: test/read-models.test.ts checks it), how
 * it is bounded, and how big it is now.
 */
export interface ReadModel<S> {
  /** Unique: the `model` label of loadout_read_model_*. */
  readonly name: string;
  /** The tables (or views over them) its answers are read from. */
  readonly tables: readonly string[];
  /** The generation counters it follows, as `table.key` (catalog_state, live_state, auth_state). */
  readonly generations: readonly string[];
  /**
   * Its bound: at most this many bytes or entries. A cache enforces it (least recently used out); a
   * structure rebuilt whole per generation (an index, a snapshot) is sized by its data, and the
   * bound is the budget it is measured against (loadout_read_model_bound_bytes).
   */
  readonly bound: { readonly bytes: number } | { readonly entries: number };
  /**
   * It keeps only what exists (a miss is read again, never kept), so an insert into its tables
   * cannot make it stale and needs no trigger (test/read-models.test.ts).
   */
  readonly keepsNoMiss?: boolean;
  /** Its state on a connection, made on first use. */
  create(sqlite: Database): S;
  size(state: S): ReadModelSize;
  /** Frees what the state holds outside itself (answers counted in the shared budget). */
  drop?(state: S): void;
}

/** Every read model defined, in definition order (their index is their slot on each connection). */
const definitions: ReadModel<unknown>[] = [];
const SLOT: unique symbol = Symbol("loadout.readModelSlot");
const slotOf = (def: ReadModel<unknown>): number => (def as { [SLOT]?: number })[SLOT]!;

/** Defines a read model (once, at module level); its name must be unique. */
export function defineReadModel<S, D extends ReadModel<S>>(def: D & ReadModel<S>): D {
  if (definitions.some((d) => d.name === def.name)) throw new Error(`read model ${def.name} defined twice`);
  (def as { [SLOT]?: number })[SLOT] = definitions.length;
  definitions.push(def as ReadModel<unknown>);
  return def;
}

/** The read models defined so far (the metrics list them all, made or not). */
export const readModelDefinitions = (): readonly ReadModel<unknown>[] => definitions;

/** The read models of one connection: each definition's state, made on first use. */
export class ReadModels {
  private readonly slots: unknown[] = [];
  constructor(private readonly sqlite: Database) {}

  /** The model's state on this connection (made now on first use). */
  of<S>(def: ReadModel<S>): S {
    const at = slotOf(def as ReadModel<unknown>);
    let s = this.slots[at];
    if (s === undefined) this.slots[at] = s = def.create(this.sqlite);
    return s as S;
  }

  /** The model's state if it was made, else undefined (the metrics read it without making it). */
  peek<S>(def: ReadModel<S>): S | undefined {
    return this.slots[slotOf(def as ReadModel<unknown>)] as S | undefined;
  }

  /** Every defined model's size on this connection (0 when not made yet) and bound. */
  sizes(): { name: string; bytes: number; entries: number; bound: ReadModel<unknown>["bound"] }[] {
    return definitions.map((d, i) => {
      const s = this.slots[i];
      const size = s === undefined ? { bytes: 0, entries: 0 } : d.size(s);
      return { name: d.name, ...size, bound: d.bound };
    });
  }

  /** Drops every model's state (the connection closes). */
  drop(): void {
    definitions.forEach((d, i) => {
      const s = this.slots[i];
      if (s !== undefined) d.drop?.(s);
    });
    this.slots.length = 0;
  }
}

/** The per-connection state (see the head of this file). */
export class ConnectionState {
  /** Prepared statements by their SQL text (statements.ts `stmt`). */
  readonly statements = new Map<string, Statement>();
  /** Sets of statements prepared together, by the function that prepares them (statements.ts `statementSet`). */
  readonly statementSets = new Map<(sqlite: Database) => unknown, unknown>();
  /** Per counter table: its values as read this turn and total_changes() then (statements.ts `generation`). */
  readonly counters = new Map<string, { kept: KeptForTurn<Map<string, number>>; changes: number }>();
  readonly readModels: ReadModels;
  constructor(sqlite: Database) {
    this.readModels = new ReadModels(sqlite);
  }
}

const STATE: unique symbol = Symbol("loadout.connection");
type Held = Database & { [STATE]?: ConnectionState };

/** A bun:sqlite handle that carries its connection state from the start and drops it on close. */
export class LoadoutDatabase extends Database {
  readonly [STATE]: ConnectionState = new ConnectionState(this);
  override close(throwOnError?: boolean): void {
    this[STATE].readModels.drop();
    super.close(throwOnError);
  }
}

/** The connection's state (attached now to a handle opened elsewhere). */
export function connectionOf(sqlite: Database): ConnectionState {
  const h = sqlite as Held;
  return h[STATE] ?? (h[STATE] = new ConnectionState(sqlite));
}

/** The connection's read models. */
export const readModelsOf = (sqlite: Database): ReadModels => connectionOf(sqlite).readModels;
