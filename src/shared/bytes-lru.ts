// A map bounded by the bytes of what it holds, least recently used out first (a Map iterates in
// insertion order, and a read moves its key to the end): the live feature's answer caches and the
// catalog's per-generation answers (whose parts of list pages are read with peek, oldest first out).
//
// Every BytesLru also counts its bytes into one ByteBudget (by default `answerBudget`, set from
// LOADOUT_CACHE_MB at start): each map keeps its own cap, and when their sum passes the budget the
// least recently used answer of all of them goes first, whichever map holds it (each entry carries
// the tick of its last use; the map whose oldest entry is oldest gives it up). So the answer caches
// together never hold more than the budget, and a new cache joins it by being a BytesLru.
// A map dropped without clear() (a live snapshot's caches when the next snapshot replaces it)
// leaves the budget once it is collected (FinalizationRegistry); until then its answers count and
// are the first to go, being the oldest.

/** The bytes of a map as the budget sees them: kept outside the map so a collected map's bytes can be taken off. */
interface Account {
  bytes: number;
  ref: WeakRef<BytesLru<unknown, unknown>> | null;
}

/** One byte budget shared by several BytesLru maps. */
export class ByteBudget {
  /** Bytes held by all member maps together. */
  used = 0;
  /** Answers dropped because the sum passed the budget (not counting each map's own cap). */
  evictions = 0;
  /** Use counter: each entry's last use (its place in the least-recently-used order across maps). */
  tick = 0;
  private readonly members = new Set<Account>();
  private readonly collected = new FinalizationRegistry<Account>((a) => this.leave(a));

  constructor(private maxBytes: number) {}

  get max(): number {
    return this.maxBytes;
  }

  /** Sets the budget (LOADOUT_CACHE_MB at start); a smaller one drops answers at once. */
  setMax(bytes: number): void {
    this.maxBytes = bytes;
    this.trim();
  }

  /** Member maps still alive (the tests and the metrics count them). */
  get maps(): number {
    return this.members.size;
  }

  /** @internal BytesLru's side of the budget. */
  join(lru: BytesLru<unknown, unknown>, a: Account): void {
    a.ref = new WeakRef(lru);
    this.members.add(a);
    this.collected.register(lru, a, a);
  }

  /** @internal */
  leave(a: Account): void {
    if (!this.members.delete(a)) return;
    this.used -= a.bytes;
    a.bytes = 0;
    this.collected.unregister(a);
  }

  /** Drops least recently used answers across the maps until the sum is within the budget; `keep` (the map and key just set) goes last. */
  trim(keepLru?: BytesLru<unknown, unknown>, keepKey?: unknown): void {
    while (this.used > this.maxBytes) {
      let oldest: BytesLru<unknown, unknown> | null = null;
      let oldestTick = Infinity;
      for (const a of this.members) {
        const lru = a.ref?.deref();
        if (!lru) {
          this.leave(a);
          continue;
        }
        const t = lru.oldestTick(keepLru === lru ? keepKey : undefined);
        if (t < oldestTick) {
          oldestTick = t;
          oldest = lru;
        }
      }
      if (!oldest) return;
      oldest.evictOldest(keepLru === oldest ? keepKey : undefined);
      this.evictions++;
    }
  }
}

/**
 * The budget of every answer cache of the process (LOADOUT_CACHE_MB, src/server.ts sets it; this
 * default holds for tests and tools).
 */
export const DEFAULT_CACHE_BUDGET_BYTES = 48 * 2 ** 20;
export const answerBudget = new ByteBudget(DEFAULT_CACHE_BUDGET_BYTES);

export class BytesLru<V, K = string> {
  readonly map = new Map<K, V>();
  /** Each key's last use (ByteBudget.tick), in the same order as `map`. */
  private readonly ticks = new Map<K, number>();
  private readonly account: Account = { bytes: 0, ref: null };
  private readonly budget: ByteBudget | null;

  /**
   * `max`: this map's own cap in bytes; `sizeOf`: an entry's bytes; `budget`: the shared budget it
   * counts into (default answerBudget; null: none, only its own cap).
   */
  constructor(
    private readonly max: number,
    private readonly sizeOf: (key: K, value: V) => number,
    budget: ByteBudget | null = answerBudget,
  ) {
    this.budget = budget;
    budget?.join(this as BytesLru<unknown, unknown>, this.account);
  }

  /** Bytes held (as sizeOf counts them). */
  get bytes(): number {
    return this.account.bytes;
  }

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
      this.ticks.delete(key);
      this.ticks.set(key, this.budget ? ++this.budget.tick : 0);
    }
    return v;
  }

  /** The value without counting it as a use (its place in the eviction order stays). */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  /** Keeps `value` (nothing larger than this map's cap or the whole budget), dropping the least recently used over either. */
  set(key: K, value: V): void {
    this.delete(key);
    const size = this.sizeOf(key, value);
    if (size > this.max || (this.budget && size > this.budget.max)) return;
    this.map.set(key, value);
    this.ticks.set(key, this.budget ? ++this.budget.tick : 0);
    this.add(size);
    for (const [k, v] of this.map) {
      if (this.account.bytes <= this.max || k === key) break;
      this.delete(k, v);
    }
    this.budget?.trim(this as BytesLru<unknown, unknown>, key);
  }

  delete(key: K, value: V | undefined = this.map.get(key)): void {
    if (value === undefined) return;
    this.map.delete(key);
    this.ticks.delete(key);
    this.add(-this.sizeOf(key, value));
  }

  clear(): void {
    this.map.clear();
    this.ticks.clear();
    this.add(-this.account.bytes);
  }

  private add(n: number): void {
    this.account.bytes += n;
    if (this.budget) this.budget.used += n;
  }

  /** @internal The last use of the oldest entry but `skip` (Infinity: none). */
  oldestTick(skip?: unknown): number {
    for (const [k, t] of this.ticks) if (k !== skip) return t;
    return Infinity;
  }

  /** @internal Drops the oldest entry but `skip`. */
  evictOldest(skip?: unknown): void {
    for (const k of this.ticks.keys()) {
      if (k === skip) continue;
      this.delete(k);
      return;
    }
  }
}
