// A map bounded by the bytes of what it holds, least recently used out first (a Map iterates in
// insertion order, and a read moves its key to the end): the live feature's answer caches, and
// (read with peek, so oldest first out) the catalog's per-generation answers.
export class BytesLru<V, K = string> {
  readonly map = new Map<K, V>();
  bytes = 0;
  constructor(
    private readonly max: number,
    private readonly sizeOf: (key: K, value: V) => number,
  ) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  /** The value without counting it as a use (its place in the eviction order stays). */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  /** Keeps `value` (nothing larger than the whole budget), dropping the least recently used over it. */
  set(key: K, value: V): void {
    this.delete(key);
    const size = this.sizeOf(key, value);
    if (size > this.max) return;
    this.map.set(key, value);
    this.bytes += size;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.max || k === key) break;
      this.delete(k, v);
    }
  }

  delete(key: K, value: V | undefined = this.map.get(key)): void {
    if (value === undefined) return;
    this.map.delete(key);
    this.bytes -= this.sizeOf(key, value);
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }
}
