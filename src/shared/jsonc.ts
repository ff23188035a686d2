// JSON as people write it: the tolerant reader of imported server configs (docs/lists.md).
//
// Accepts strict JSON plus what hand-edited server.json files carry: `//` and `/* */` comments
// and trailing commas before `]` or `}`; it counts what it skipped so the caller can say so.
// Anything else is refused with the line and column of the fault and what was expected there
// ("line 12, column 5: expected , or } after the value of "maxPlayers", found "scenarioId"").
// Objects keep their keys in file order; a `__proto__` key is an ordinary property.
// Small on purpose (no dependency): one pass over the text, no regular expressions per char.

/** A syntax error at a place in the text (1-based line and column, in UTF-16 code units). */
export class JsonSyntaxError extends Error {
  override name = "JsonSyntaxError";
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
  }
}

export interface TolerantJson {
  value: unknown;
  /** Comments skipped (`//` to the end of the line, `/* ... *\/`). */
  comments: number;
  /** Commas skipped because a `]` or `}` followed them. */
  trailingCommas: number;
}

/** Deeper nesting than any config has; bounds the recursion on hostile input. */
export const MAX_DEPTH = 256;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** What a character looks like in a message. */
function show(text: string, i: number): string {
  if (i >= text.length) return "the end of the file";
  const c = text[i]!;
  if (c === "\n" || c === "\r") return "the end of the line";
  if (c === '"') {
    const end = text.indexOf('"', i + 1);
    const word = end > i && end - i < 40 ? text.slice(i, end + 1) : '"';
    return word.includes("\n") ? '"' : `${word}`;
  }
  const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i, i + 40));
  if (word) return word[0];
  return c;
}

/** Parses `text`; throws JsonSyntaxError. */
export function parseTolerantJson(text: string): TolerantJson {
  let i = 0;
  let comments = 0;
  let trailingCommas = 0;
  const n = text.length;

  const where = (at: number) => {
    let line = 1;
    let start = 0;
    for (let k = text.indexOf("\n"); k !== -1 && k < at; k = text.indexOf("\n", k + 1)) {
      line++;
      start = k + 1;
    }
    return { line, column: at - start + 1 };
  };
  const fail = (at: number, reason: string): never => {
    const p = where(at);
    throw new JsonSyntaxError(p.line, p.column, reason);
  };

  /** Skips white space and comments. */
  const skip = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff) {
        i++;
      } else if (c === 47 /* / */) {
        const next = text.charCodeAt(i + 1);
        if (next === 47) {
          const end = text.indexOf("\n", i + 2);
          i = end === -1 ? n : end + 1;
          comments++;
        } else if (next === 42 /* * */) {
          const end = text.indexOf("*/", i + 2);
          if (end === -1) fail(i, "a /* comment is not closed (expected */ before the end of the file)");
          i = end + 2;
          comments++;
        } else {
          fail(i, "a lone / (comments start with // or /*)");
        }
      } else {
        return;
      }
    }
  };

  const string = (): string => {
    const start = i;
    i++; // opening quote
    let out = "";
    let run = i;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(run, i);
        i++;
        return out;
      }
      if (c === 92) {
        out += text.slice(run, i);
        const e = text[i + 1];
        switch (e) {
          case '"': out += '"'; break;
          case "\\": out += "\\"; break;
          case "/": out += "/"; break;
          case "b": out += "\b"; break;
          case "f": out += "\f"; break;
          case "n": out += "\n"; break;
          case "r": out += "\r"; break;
          case "t": out += "\t"; break;
          case "u": {
            const hex = text.slice(i + 2, i + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail(i, "expected four hexadecimal digits after \\u");
            out += String.fromCharCode(parseInt(hex, 16));
            i += 4;
            break;
          }
          default:
            fail(i, `an unknown escape \\${e ?? ""} in a string (write \\\\ for a backslash)`);
        }
        i += 2;
        run = i;
        continue;
      }
      if (c === 10 || c === 13) fail(start, 'a string is not closed before the end of the line (expected ")');
      if (c < 0x20) fail(i, "a control character inside a string (write it as \\n, \\t or \\u00XX)");
      i++;
    }
    return fail(start, 'a string is not closed (expected " before the end of the file)');
  };

  const value = (depth: number, context: string): unknown => {
    skip();
    if (i >= n) return fail(i, `expected a value ${context}, found the end of the file`);
    const c = text[i]!;
    if (c === "{") return object(depth + 1);
    if (c === "[") return array(depth + 1);
    if (c === '"') return string();
    if (c === "'") return fail(i, "strings and names must be in double quotes, found '");
    if (c === "-" || (c >= "0" && c <= "9")) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m) return fail(i, `expected a number ${context}, found ${show(text, i)}`);
      const after = text[i + m[0].length];
      if (after !== undefined && /[\w.]/.test(after)) return fail(i, `an invalid number "${text.slice(i, i + m[0].length + 1)}…" ${context}`);
      i += m[0].length;
      return Number(m[0]);
    }
    for (const [word, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    if (c === "]" || c === "}") return fail(i, `expected a value ${context}, found ${c}`);
    if (c === ",") return fail(i, `expected a value ${context}, found a second ,`);
    return fail(i, `expected a value ${context}, found ${show(text, i)}`);
  };

  const object = (depth: number): Record<string, unknown> => {
    if (depth > MAX_DEPTH) fail(i, `nesting deeper than ${MAX_DEPTH} levels`);
    const open = i;
    i++;
    const out: Record<string, unknown> = {};
    let last: string | null = null;
    for (;;) {
      skip();
      if (i >= n) return fail(i, `expected } to close the { of ${describeAt(open)}, found the end of the file`);
      if (text[i] === "}") {
        i++;
        return out;
      }
      if (last !== null) {
        if (text[i] !== ",") return fail(i, `expected , or } after the value of "${last}", found ${show(text, i)}`);
        i++;
        skip();
        if (text[i] === "}") {
          trailingCommas++;
          i++;
          return out;
        }
      }
      if (i >= n) return fail(i, `expected } to close the { of ${describeAt(open)}, found the end of the file`);
      if (text[i] !== '"') {
        if (text[i] === "'") return fail(i, "strings and names must be in double quotes, found '");
        if (text[i] === ",") return fail(i, last === null ? "expected a property name or }, found ," : "expected a property name after ,, found a second ,");
        return fail(i, `expected a property name in double quotes${last === null ? " or }" : ""}, found ${show(text, i)}`);
      }
      const key = string();
      skip();
      if (text[i] !== ":") return fail(i, `expected : after the name "${key}", found ${show(text, i)}`);
      i++;
      const v = value(depth, `for "${key}"`);
      // Defined rather than assigned, so "__proto__" is a property like any other.
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      last = key;
    }
  };

  const array = (depth: number): unknown[] => {
    if (depth > MAX_DEPTH) fail(i, `nesting deeper than ${MAX_DEPTH} levels`);
    const open = i;
    i++;
    const out: unknown[] = [];
    for (;;) {
      skip();
      if (i >= n) return fail(i, `expected ] to close the [ of ${describeAt(open)}, found the end of the file`);
      if (text[i] === "]") {
        i++;
        return out;
      }
      if (out.length > 0) {
        if (text[i] !== ",") return fail(i, `expected , or ] after element ${out.length} of the array, found ${show(text, i)}`);
        i++;
        skip();
        if (text[i] === "]") {
          trailingCommas++;
          i++;
          return out;
        }
      }
      out.push(value(depth, `as element ${out.length + 1} of the array`));
    }
  };

  const describeAt = (at: number) => {
    const p = where(at);
    return `line ${p.line}, column ${p.column}`;
  };

  skip();
  if (i >= n) fail(i, "the file is empty (expected a value)");
  const result = value(0, "at the start");
  skip();
  if (i < n) {
    const c = text[i];
    fail(i, c === "," ? "a comma after the end of the document" : `unexpected ${show(text, i)} after the end of the document (is a [ or { missing at the start?)`);
  }
  return { value: result, comments, trailingCommas };
}

/** What the reader skipped, in words ("2 comments and 1 trailing comma were ignored"), or null. */
export function ignoredNote(r: Pick<TolerantJson, "comments" | "trailingCommas">): string | null {
  const parts: string[] = [];
  if (r.comments) parts.push(`${r.comments} comment${r.comments === 1 ? "" : "s"}`);
  if (r.trailingCommas) parts.push(`${r.trailingCommas} trailing comma${r.trailingCommas === 1 ? "" : "s"}`);
  if (!parts.length) return null;
  const total = r.comments + r.trailingCommas;
  return `${parts.join(" and ")} ${total === 1 ? "was" : "were"} ignored`;
}

/** A file's bytes as text: UTF-8 (a BOM is dropped) or UTF-16 with its BOM; null when not valid. */
export function decodeTextFile(bytes: Uint8Array): { text: string; encoding: "utf-8" | "utf-16le" | "utf-16be" } | null {
  const decode = (enc: "utf-8" | "utf-16le" | "utf-16be", from: number) => {
    try {
      return { text: new TextDecoder(enc, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(from)), encoding: enc };
    } catch {
      return null;
    }
  };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.length % 2 === 0 ? decode("utf-16le", 2) : null;
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return bytes.length % 2 === 0 ? decode("utf-16be", 2) : null;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return decode("utf-8", 3);
  return decode("utf-8", 0);
}
