// A map bounded by the bytes of what it holds, least recently used out first (its entries kept in
// a list in use order, a read moving its entry to the end): the live feature's answer caches and the
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

/** An entry of a BytesLru and its place in the use order (a doubly linked list, least recently used first). */
interface Place<K, V> {
  key: K;
  value: V;
  /** Its last use (ByteBudget.tick). */
  tick: number;
  prev: Place<K, V> | null;
  next: Place<K, V> | null;
}

export class BytesLru<V, K = string> {
  /**
   * The entries by key; the use order is the linked list through them. A Map as the order itself
   * (a read deleting and setting its key again, the oldest found by iterating from the start) cost
   * in JavaScriptCore a walk over every deleted entry still in its table on each eviction: 3-12 µs
   * an eviction at 3,600 answers, 17-77 µs at 20,000.
   */
  private readonly places = new Map<K, Place<K, V>>();
  private head: Place<K, V> | null = null;
  private tail: Place<K, V> | null = null;
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

  /** Entries held. */
  get size(): number {
    return this.places.size;
  }

  get(key: K): V | undefined {
    const p = this.places.get(key);
    if (p === undefined) return undefined;
    p.tick = this.budget ? ++this.budget.tick : 0;
    if (p !== this.tail) {
      this.unlink(p);
      this.append(p);
    }
    return p.value;
  }

  /** The keys held, least recently used first. */
  keysByUse(): K[] {
    const out: K[] = [];
    for (let p = this.head; p !== null; p = p.next) out.push(p.key);
    return out;
  }

  /** The entries held, least recently used first, without counting them as uses. */
  *entries(): IterableIterator<[K, V]> {
    for (let p = this.head; p !== null; p = p.next) yield [p.key, p.value];
  }

  /** The value without counting it as a use (its place in the eviction order stays). */
  peek(key: K): V | undefined {
    return this.places.get(key)?.value;
  }

  /** Keeps `value` (nothing larger than this map's cap or the whole budget), dropping the least recently used over either. */
  set(key: K, value: V): void {
    this.delete(key);
    const size = this.sizeOf(key, value);
    if (size > this.max || (this.budget && size > this.budget.max)) return;
    const p: Place<K, V> = { key, value, tick: this.budget ? ++this.budget.tick : 0, prev: null, next: null };
    this.places.set(key, p);
    this.append(p);
    this.add(size);
    while (this.account.bytes > this.max && this.head !== p) this.remove(this.head!);
    this.budget?.trim(this as BytesLru<unknown, unknown>, key);
  }

  delete(key: K): void {
    const p = this.places.get(key);
    if (p) this.remove(p);
  }

  clear(): void {
    this.places.clear();
    this.head = this.tail = null;
    this.add(-this.account.bytes);
  }

  private remove(p: Place<K, V>): void {
    this.places.delete(p.key);
    this.unlink(p);
    this.add(-this.sizeOf(p.key, p.value));
  }

  private append(p: Place<K, V>): void {
    p.prev = this.tail;
    p.next = null;
    if (this.tail) this.tail.next = p;
    else this.head = p;
    this.tail = p;
  }

  private unlink(p: Place<K, V>): void {
    if (p.prev) p.prev.next = p.next;
    else this.head = p.next;
    if (p.next) p.next.prev = p.prev;
    else this.tail = p.prev;
    p.prev = p.next = null;
  }

  private add(n: number): void {
    this.account.bytes += n;
    if (this.budget) this.budget.used += n;
  }

  /** The least recently used entry but `skip`. */
  private oldest(skip?: unknown): Place<K, V> | null {
    const h = this.head;
    return h !== null && h.key === skip ? h.next : h;
  }

  /** @internal The last use of the oldest entry but `skip` (Infinity: none). */
  oldestTick(skip?: unknown): number {
    return this.oldest(skip)?.tick ?? Infinity;
  }

  /** Drops the least recently used entry but `skip` (nothing when there is none). */
  evictOldest(skip?: unknown): void {
    const p = this.oldest(skip);
    if (p) this.remove(p);
  }
}
