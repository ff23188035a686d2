// For tests that compare a hand-written reader with its zod schema on every field of a payload
// changed one at a time (src/features/scraper/workshop-schemas.test.ts,
// src/features/live/battlemetrics-reader.test.ts).

/** Every path to a value inside `v` (objects and arrays), to mutate one at a time. */
export function paths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      const p = [...at, Array.isArray(v) ? Number(k) : k];
      out.push(p);
      paths(x, p, out);
    }
  }
  return out;
}

/** A deep copy of `value` with the value at `path` replaced (removed when `value` is undefined). */
export function mutated(page: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(page) as any;
  let o = copy;
  for (const k of path.slice(0, -1)) o = o[k];
  const last = path.at(-1)!;
  if (value === undefined) delete o[last];
  else o[last] = value;
  return copy;
}
