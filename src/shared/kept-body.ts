// Big answers kept in memory, sent without a copy a request (issue 29 round 6).
//
// Bun copies a `Uint8Array` (or a string) body into the Response it makes from it, every request:
// for the 300–360 KB of a cached 365-day series that copy is ~20 µs of ~100 a bare server spends
// a request (`bun bench/body-send.ts --kinds bytes,blob`: 104 → 81 µs at 333 KB; nothing at
// 40 KB). A `Blob` body is shared by every Response made from it. So a cache that sends one of its
// answers again registers a Blob of its bytes here (`keepAsBlob`), and `sendAs` (response-validation.ts)
// sends the Blob instead of the bytes when it finds one.
//
// The Blob is a copy of the bytes: a cache that registers one counts both (series-cache.ts does),
// and registers it only for an answer asked for at least twice and at least BLOB_MIN_BYTES long.
// The map is weak: the Blob lives as long as whoever holds the bytes (the cache's answer, or a
// request still being answered with them).

/** Below this a Blob saves nothing measurable (40 KB: the same CPU a request either way). */
export const BLOB_MIN_BYTES = 64 * 1024;

const blobs = new WeakMap<Uint8Array, Blob>();

/** The Blob sent for these bytes, made now if there is none yet. */
export function keepAsBlob(bytes: Uint8Array): Blob {
  let b = blobs.get(bytes);
  if (!b) blobs.set(bytes, (b = new Blob([bytes])));
  return b;
}

/** The Blob registered for these bytes, if any. */
export const keptBlob = (bytes: Uint8Array): Blob | undefined => blobs.get(bytes);
