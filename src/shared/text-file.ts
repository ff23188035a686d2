// A file's bytes as text, as Windows and Unix tools save a server.json. Kept apart from the JSON
// reader so the web app can decode a chosen file without bundling the reader.

/**
 * UTF-8 (with or without a byte order mark) or UTF-16 LE/BE with their BOM; null when the bytes
 * are not valid text in that encoding. A BOM is kept as the text's first character (U+FEFF), so a
 * file written back from this text keeps it; the JSON reader reads it as nothing.
 */
export function decodeTextFile(bytes: Uint8Array): { text: string; encoding: "utf-8" | "utf-16le" | "utf-16be"; bom: boolean } | null {
  const decode = (enc: "utf-8" | "utf-16le" | "utf-16be", from: number) => {
    try {
      const text = new TextDecoder(enc, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(from));
      return { text: from > 0 ? `\ufeff${text}` : text, encoding: enc, bom: from > 0 };
    } catch {
      return null;
    }
  };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.length % 2 === 0 ? decode("utf-16le", 2) : null;
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return bytes.length % 2 === 0 ? decode("utf-16be", 2) : null;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return decode("utf-8", 3);
  return decode("utf-8", 0);
}
