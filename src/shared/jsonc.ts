// JSON as people write it, read and edited as text (docs/lists.md "Edit, don't rewrite").
//
// Reading: Microsoft's jsonc-parser (VS Code's own reader) accepts strict JSON plus what
// hand-edited server.json files carry, `//` and `/* */` comments and trailing commas, and keeps
// every node's place in the text. What it skipped is counted so the caller can say so; anything
// else is refused with the line and column of the fault, counted over the text exactly as it was
// received (a BOM, leading blank lines and CRLF included), and what was expected there
// ("line 12, column 5: expected , or } after the value of "maxPlayers", found "scenarioId"").
//
// Editing the text is json-edit.ts.
import { visit, type Node, type ParseErrorCode } from "jsonc-parser";
export { decodeTextFile } from "./text-file";

/** A syntax error at a place in the text (1-based line and column, in UTF-16 code units). */
export class JsonSyntaxError extends Error {
  override name = "JsonSyntaxError";
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
    readonly offset = 0,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
  }
}

export type { Node as JsonNode } from "jsonc-parser";
/** Where a value sits: object keys and array indexes from the root. */
export type JsonPath = (string | number)[];

export interface TolerantJson {
  value: unknown;
  /** Comments skipped (`//` to the end of the line, `/* ... *\/`). */
  comments: number;
  /** Commas skipped because a `]` or `}` followed them. */
  trailingCommas: number;
}

export interface JsonDocument extends TolerantJson {
  /** The text as given (a leading BOM included). */
  text: string;
  /** The syntax tree; offsets are into `text`. */
  root: Node;
}

/** jsonc-parser's error codes (a `const enum` there, which isolated modules cannot read). */
const E = {
  InvalidSymbol: 1,
  InvalidNumberFormat: 2,
  PropertyNameExpected: 3,
  ValueExpected: 4,
  ColonExpected: 5,
  CommaExpected: 6,
  CloseBraceExpected: 7,
  CloseBracketExpected: 8,
  EndOfFileExpected: 9,
  InvalidCommentToken: 10,
  UnexpectedEndOfComment: 11,
  UnexpectedEndOfString: 12,
  UnexpectedEndOfNumber: 13,
  InvalidUnicode: 14,
  InvalidEscapeCharacter: 15,
  InvalidCharacter: 16,
} as const satisfies Record<string, ParseErrorCode>;

/** Deeper nesting than any config has; bounds the reader's recursion on hostile input. */
export const MAX_DEPTH = 256;

const BOM = 0xfeff;
export const hasBom = (text: string) => text.charCodeAt(0) === BOM;
/** The text the reader sees: a leading BOM read as a space, so every offset is the original's. */
export const scannable = (text: string) => (hasBom(text) ? ` ${text.slice(1)}` : text);

/** 1-based line and column of `offset`; a leading BOM is not a column (editors do not show it). */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      start = i + 1;
    }
  }
  const column = offset - start + 1 - (line === 1 && hasBom(text) && offset > 0 ? 1 : 0);
  return { line, column };
}

/** What a character looks like in a message. */
function show(text: string, i: number): string {
  if (i >= text.length) return "the end of the file";
  const c = text[i]!;
  if (c === "\n" || c === "\r") return "the end of the line";
  if (c === '"') {
    const end = text.indexOf('"', i + 1);
    const word = end > i && end - i < 40 ? text.slice(i, end + 1) : '"';
    return word.includes("\n") ? '"' : word;
  }
  if (c === "\ufeff") return "a byte order mark (U+FEFF), which may only stand at the start of the file";
  const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i, i + 40));
  if (word) return word[0];
  return c;
}

/** Whether the text nests arrays and objects deeper than `max` (strings skipped): checked before the recursive reader runs. */
function nestsDeeperThan(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return i;
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return -1;
}

interface Open {
  kind: "object" | "array";
  at: number;
  /** object: the last property name read; array: elements read so far */
  key: string | null;
  elements: number;
  /** a separator was read after the last member */
  comma: boolean;
  /** object: a property name was read and its value not yet */
  awaitingValue: boolean;
}

/**
 * Reads `text` (comments and trailing commas allowed); throws JsonSyntaxError naming the first
 * fault in words. Objects keep their keys in file order (a later duplicate wins, as JSON.parse
 * does); a `__proto__` key is an ordinary property.
 */
export function parseJsonDocument(text: string): JsonDocument {
  const src = scannable(text);
  const fail = (offset: number, reason: string): never => {
    const { line, column } = lineColumnAt(text, offset);
    throw new JsonSyntaxError(line, column, reason, offset);
  };
  const where = (offset: number) => {
    const p = lineColumnAt(text, offset);
    return `line ${p.line}, column ${p.column}`;
  };
  const deep = nestsDeeperThan(src, MAX_DEPTH);
  if (deep !== -1) fail(deep, `nesting deeper than ${MAX_DEPTH} levels`);

  let comments = 0;
  let trailingCommas = 0;
  const stack: Open[] = [];
  type Close = { offset: number; open: Open };
  type Literal = { offset: number; length: number; number: boolean };
  type Fault = { code: number; offset: number; top: Open | undefined; literal: Literal | null; close: Close | null };
  let lastClose = null as Close | null;
  let unclosed: Open | undefined;
  let lastLiteral = null as Literal | null;
  let first = null as Fault | null;

  const member = () => {
    const top = stack[stack.length - 1];
    if (top) {
      top.comma = false;
      top.awaitingValue = false;
      if (top.kind === "array") top.elements++;
    }
  };
  const closing = () => {
    const top = stack.pop();
    if (top?.comma && (top.elements > 0 || top.key !== null)) trailingCommas++;
    return top;
  };
  // The tree is built in the same pass (as jsonc-parser's parseTree builds it): one reading of the text.
  type Built = { -readonly [K in keyof Node]: Node[K] } & { children?: Built[]; parent?: Built };
  let parent: Built = { type: "array", offset: -1, length: -1, children: [] };
  const add = (n: Built) => {
    parent.children!.push(n);
    return n;
  };
  const propertyDone = (end: number) => {
    if (parent.type === "property") {
      parent.length = end - parent.offset;
      parent = parent.parent!;
    }
  };
  visit(
    src,
    {
      onObjectBegin: (offset) => {
        member();
        stack.push({ kind: "object", at: offset, key: null, elements: 0, comma: false, awaitingValue: false });
        parent = add({ type: "object", offset, length: -1, parent, children: [] });
      },
      onObjectProperty: (property, offset, length) => {
        const top = stack[stack.length - 1];
        if (top) {
          top.key = property;
          top.comma = false;
          top.awaitingValue = true;
        }
        parent = add({ type: "property", offset, length: -1, parent, children: [] });
        parent.children!.push({ type: "string", value: property, offset, length, parent });
      },
      onObjectEnd: (offset, length) => {
        propertyDone(offset + length);
        parent.length = offset + length - parent.offset;
        parent = parent.parent!;
        propertyDone(offset + length);
        // At the end of the file the reader closes what is still open: that is the fault, not a close.
        if (src[offset] !== "}") return void (unclosed ??= stack[stack.length - 1] && { ...stack[stack.length - 1]! });
        const open = closing();
        if (open && !stack.length) lastClose = { offset, open };
      },
      onArrayBegin: (offset) => {
        member();
        stack.push({ kind: "array", at: offset, key: null, elements: 0, comma: false, awaitingValue: false });
        parent = add({ type: "array", offset, length: -1, parent, children: [] });
      },
      onArrayEnd: (offset, length) => {
        parent.length = offset + length - parent.offset;
        parent = parent.parent!;
        propertyDone(offset + length);
        if (src[offset] !== "]") return void (unclosed ??= stack[stack.length - 1] && { ...stack[stack.length - 1]! });
        const open = closing();
        if (open && !stack.length) lastClose = { offset, open };
      },
      onLiteralValue: (value, offset, length) => {
        member();
        lastLiteral = { offset, length, number: typeof value === "number" };
        add({ type: value === null ? "null" : (typeof value as "string" | "number" | "boolean"), offset, length, parent, value });
        propertyDone(offset + length);
      },
      onSeparator: (ch, offset) => {
        const top = stack[stack.length - 1];
        if (ch === "," && top) top.comma = true;
        if (parent.type === "property") {
          if (ch === ":") parent.colonOffset = offset;
          else propertyDone(offset);
        }
      },
      onComment: () => {
        comments++;
      },
      onError: (code, offset) => {
        // The reader recovers and goes on: the context is taken as it was at the first fault.
        const top = unclosed ?? stack[stack.length - 1];
        first ??= { code, offset, top: top && { ...top }, literal: lastLiteral, close: lastClose };
      },
    },
    { allowTrailingComma: true, disallowComments: false },
  );

  if (first) {
    const { code, offset, top } = first;
    const context = !top ? "at the start" : top.kind === "object" ? `for "${top.key}"` : `as element ${top.elements + 1} of the array`;
    const c = src[offset];
    if (c === "\ufeff") return fail(offset, "a byte order mark (U+FEFF) in the middle of the file: it may only stand at its start");
    if (c === "/" && code !== E.UnexpectedEndOfComment) return fail(offset, "a lone / (comments start with // or /*)");
    switch (code) {
      case E.UnexpectedEndOfComment:
        return fail(offset, "a /* comment is not closed (expected */ before the end of the file)");
      case E.UnexpectedEndOfString:
        return fail(offset, src.indexOf("\n", offset) === -1 && !/\r/.test(src.slice(offset)) ? 'a string is not closed (expected " before the end of the file)' : 'a string is not closed before the end of the line (expected ")');
      case E.InvalidEscapeCharacter: {
        const bad = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})|(\\.?)/g;
        bad.lastIndex = offset;
        let m: RegExpExecArray | null;
        while ((m = bad.exec(src)) && !m[1]);
        const at = m ? m.index : offset;
        return fail(at, `an unknown escape ${src.slice(at, at + 2)} in a string (write \\\\ for a backslash)`);
      }
      case E.InvalidUnicode:
        return fail(offset, "expected four hexadecimal digits after \\u");
      case E.InvalidCharacter:
        return fail(offset, "a control character inside a string (write it as \\n, \\t or \\u00XX)");
      case E.InvalidCommentToken:
        return fail(offset, "a lone / (comments start with // or /*)");
      case E.EndOfFileExpected: {
        const close = first.close;
        if (c === "}" || c === "]")
          return fail(offset, `a stray ${c}: the document already ended${close ? ` with the ${src[close.offset]} at ${where(close.offset)}` : ""}, so nothing is open to close here`);
        if (close && (c === "," || c === '"'))
          return fail(
            close.offset,
            `a stray ${src[close.offset]}: it closes the document's ${src[close.open.at]} (${where(close.open.at)}), but the file goes on at ${where(offset)} with ${show(src, offset)}`,
          );
        return fail(offset, c === "," ? "a comma after the end of the document" : `unexpected ${show(src, offset)} after the end of the document (is a [ or { missing at the start?)`);
      }
      default:
        break;
    }
    if (offset >= src.length || (code === E.ValueExpected && !top && src.slice(0, offset).trim() === "")) {
      if (!top) return fail(offset, "the file is empty (expected a value)");
      const need = top.kind === "object" ? "}" : "]";
      return fail(offset, `expected ${need} to close the ${src[top.at]} of ${where(top.at)}, found the end of the file`);
    }
    if (c === "'") return fail(offset, "strings and names must be in double quotes, found '");
    const wantsName = top?.kind === "object" && !top.awaitingValue;
    if (wantsName && code !== E.CommaExpected && code !== E.CloseBraceExpected && code !== E.ColonExpected) {
      if (c === ",") return fail(offset, top.key == null ? "expected a property name or }, found ," : "expected a property name after ,, found a second ,");
      return fail(offset, `expected a property name in double quotes${top.key == null ? " or }" : ""}, found ${show(src, offset)}`);
    }
    const literal = first.literal;
    if (literal?.number && literal.offset + literal.length === offset && /[\w.]/.test(c ?? ""))
      return fail(literal.offset, `an invalid number "${src.slice(literal.offset, offset + 1)}…" ${context}`);
    switch (code) {
      case E.CommaExpected:
      case E.CloseBraceExpected:
      case E.CloseBracketExpected:
        if (top?.kind === "object") {
          if (c === "]") return fail(offset, `a ] where the { of ${where(top.at)} needs } (or a , before the next property)`);
          return fail(offset, `expected , or } after the value of "${top.key}", found ${show(src, offset)}`);
        }
        if (top?.kind === "array") {
          if (c === "}") return fail(offset, `a } where the [ of ${where(top.at)} needs ] (or a , before the next element)`);
          return fail(offset, `expected , or ] after element ${top.elements} of the array, found ${show(src, offset)}`);
        }
        break;
      case E.PropertyNameExpected:
        if (c === ",") return fail(offset, top?.key == null ? "expected a property name or }, found ," : "expected a property name after ,, found a second ,");
        return fail(offset, `expected a property name in double quotes${top?.key == null ? " or }" : ""}, found ${show(src, offset)}`);
      case E.ColonExpected:
        return fail(offset, `expected : after the name "${top?.key}", found ${show(src, offset)}`);
      default:
        break;
    }
    if (c === ",") return fail(offset, `expected a value ${context}, found a second ,`);
    return fail(offset, `expected a value ${context}, found ${show(src, offset)}`);
  }

  const root = parent.children![0] as Node | undefined;
  if (!root) return fail(0, "the file is empty (expected a value)");
  delete (root as Built).parent;
  return { text, root, value: nodeValue(root), comments, trailingCommas };
}

/** Parses `text`; throws JsonSyntaxError. */
export function parseTolerantJson(text: string): TolerantJson {
  const d = parseJsonDocument(text);
  return { value: d.value, comments: d.comments, trailingCommas: d.trailingCommas };
}

/** Sets an own property (also one called `__proto__`) keeping the object's key order. */
function put(obj: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * A node as a JavaScript value. With the document's text (`exactIn`), integers outside the safe range stay their text
 * (JSON.rawJSON: JSON.stringify writes them back unchanged); otherwise numbers are Numbers.
 */
export function nodeValue(node: Node, exactIn?: string): unknown {
  switch (node.type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const p of node.children ?? []) {
        const [k, v] = p.children ?? [];
        if (k && v) put(out, k.value as string, nodeValue(v, exactIn));
      }
      return out;
    }
    case "array":
      return (node.children ?? []).map((c) => nodeValue(c, exactIn));
    case "number":
      return exactIn !== undefined && isUnsafeInteger(exactIn, node) ? (JSON as any).rawJSON(nodeText(exactIn, node)) : node.value;
    default:
      return node.value;
  }
}

/** The node's own text, as written (a number's digits, a string with its quotes and escapes). */
export const nodeText = (text: string, node: Node) => text.slice(node.offset, node.offset + node.length);

/** An integer written with more digits than a double holds exactly (a SteamID written as a number). */
export const isUnsafeInteger = (text: string, node: Node) => node.type === "number" && /^-?\d+$/.test(nodeText(text, node)) && !Number.isSafeInteger(Number(nodeText(text, node)));

/** The property node `key` of an object node (the last one when a key is repeated), or undefined. */
export function propertyOf(obj: Node | undefined, key: string): Node | undefined {
  if (obj?.type !== "object") return undefined;
  let found: Node | undefined;
  for (const p of obj.children ?? []) if (p.children?.[0]?.value === key) found = p;
  return found;
}

/** The value node at `path`, or undefined. */
export function nodeAt(root: Node, path: JsonPath): Node | undefined {
  let at: Node | undefined = root;
  for (const seg of path) {
    if (!at) return undefined;
    if (typeof seg === "number") at = at.type === "array" ? at.children?.[seg] : undefined;
    else at = propertyOf(at, seg)?.children?.[1];
  }
  return at;
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
