/**
 * SQLite's BINARY order of two texts (memcmp of their UTF-8): the order of their code points,
 * which UTF-16 units give but for surrogates (code points from U+10000) against U+E000–U+FFFF.
 * What a JavaScript sort must use to come out in the order of an SQL `ORDER BY` of text.
 */
export function binaryCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    return x - y;
  }
  return a.length - b.length;
}
