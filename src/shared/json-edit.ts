// Editing JSON as text (docs/lists.md "Edit, don't rewrite"): a change is a splice of the text at
// the node it changes (`setJsonValue`, `removeJsonValue`); a new property copies the layout of its
// neighbours. Nothing else of the text is touched: number text (`3000.0`, `76561198200329058`),
// spacing, key order, line endings and the BOM stay as they were. `strictJsonText` removes only
// comments and trailing commas (the game's parser refuses both). Reading is jsonc.ts.
import { createScanner, parseTree, type Node } from "jsonc-parser";
import { hasBom, nodeAt, scannable, type JsonPath } from "./jsonc";

/** How a document lays itself out: the line ending and one level of indentation. */
export interface Layout {
  eol: string;
  indent: string;
}

export function layoutOf(text: string): Layout {
  const eol = /\r\n/.test(text) ? "\r\n" : "\n";
  let indent = "";
  const counts = new Map<string, number>();
  let prev = 0;
  for (const m of text.matchAll(/\n([ \t]*)\S/g)) {
    const ws = m[1]!;
    if (ws.startsWith("\t")) {
      counts.set("\t", (counts.get("\t") ?? 0) + 1);
      continue;
    }
    const d = ws.length - prev;
    if (d > 0) counts.set(" ".repeat(d), (counts.get(" ".repeat(d)) ?? 0) + 1);
    prev = ws.length;
  }
  let best = 0;
  for (const [k, n] of counts) if (n > best) [indent, best] = [k, n];
  return { eol, indent: indent || "  " };
}

/** The indentation of the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const start = Math.max(text.lastIndexOf("\n", offset - 1) + 1, 0);
  return /^[ \t]*/.exec(text.slice(start, offset))![0];
}

/** A value as text laid out like its place: one line where the place is one line, else indented from `base`. */
export function valueText(value: unknown, layout: Layout, base: string, multiline: boolean): string {
  if (!multiline) return JSON.stringify(value, null, undefined);
  const text = JSON.stringify(value, null, layout.indent);
  return text.replace(/\n/g, layout.eol + base);
}

/** Whether a node's text spans lines (an object or array written over several lines). */
const spansLines = (text: string, node: Node) => /[\r\n]/.test(text.slice(node.offset, node.offset + node.length));

function splice(text: string, offset: number, length: number, insert: string): string {
  return text.slice(0, offset) + insert + text.slice(offset + length);
}

function reparse(text: string): Node {
  return parseTree(scannable(text), [], { allowTrailingComma: true })!;
}

/**
 * `text` with the value at `path` set to `value` (its text, when `value` is a RawText), changing
 * only that value's text; a missing property is added after its object's last one, laid out as
 * its neighbours; missing parent objects are added the same way. Throws when a parent on the
 * path is not an object (or an array index is out of range).
 */
export function setJsonValue(text: string, path: JsonPath, value: unknown, root: Node = reparse(text)): string {
  const layout = layoutOf(text);
  const node = nodeAt(root, path);
  if (node) {
    const base = lineIndent(text, node.offset);
    const multiline = node.type === "object" || node.type === "array" ? spansLines(text, node) || documentIsMultiline(text, root) : false;
    const insert = value instanceof RawText ? value.text : valueText(value, layout, base, multiline && isComposite(value));
    return splice(text, node.offset, node.length, insert);
  }
  // Find the deepest existing object on the path, then add what is missing under it.
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const parent = nodeAt(root, path.slice(0, depth));
    if (!parent) continue;
    const key = path[depth];
    if (parent.type !== "object" || typeof key !== "string") throw new Error(`cannot set ${JSON.stringify(path)}: its parent is not an object`);
    let v: unknown = value instanceof RawText ? value : value;
    for (let k = path.length - 1; k > depth; k--) v = { [path[k] as string]: v };
    return insertProperty(text, parent, key, v, layout, root);
  }
  throw new Error(`cannot set ${JSON.stringify(path)}: the document is not an object`);
}

const isComposite = (v: unknown) => v !== null && typeof v === "object" && !(v instanceof RawText) && !(JSON as any).isRawJSON?.(v);
const documentIsMultiline = (text: string, root: Node) => spansLines(text, root);

/** A value given as its JSON text (kept exactly). */
export class RawText {
  constructor(readonly text: string) {}
  toJSON() {
    return (JSON as any).rawJSON(this.text);
  }
}

const COMMENTS = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;

function insertProperty(text: string, obj: Node, key: string, value: unknown, layout: Layout, root: Node): string {
  const props = obj.children ?? [];
  const multiline = spansLines(text, obj) || (props.length === 0 && documentIsMultiline(text, root));
  const keyText = JSON.stringify(key);
  const last = props[props.length - 1];
  const render = (base: string) => (value instanceof RawText ? value.text : valueText(value, layout, base, multiline && isComposite(value)));
  if (last) {
    const [k, v] = last.children ?? [];
    const colon = k && v ? text.slice(k.offset + k.length, v.offset).replace(COMMENTS, "") : ": ";
    const base = lineIndent(text, last.offset);
    let sep: string;
    if (multiline) sep = `,${layout.eol}${base}`;
    else if (props.length >= 2) {
      const prev = props[props.length - 2]!;
      const between = text.slice(prev.offset + prev.length, last.offset).replace(COMMENTS, "");
      sep = between.trim() === "," ? between : ", ";
    } else sep = /\s/.test(colon) ? ", " : ",";
    return splice(text, last.offset + last.length, 0, `${sep}${keyText}${colon.includes(":") ? colon : ": "}${render(base)}`);
  }
  // An empty object: `{}` becomes `{"k": v}` on one line, or opened over lines like the document.
  const open = obj.offset;
  const close = obj.offset + obj.length - 1;
  if (multiline) {
    const outer = lineIndent(text, open);
    const base = outer + layout.indent;
    return splice(text, open + 1, close - open - 1, `${layout.eol}${base}${keyText}: ${render(base)}${layout.eol}${outer}`);
  }
  return splice(text, open + 1, close - open - 1, `${keyText}: ${render("")}`);
}

/** `text` without the property or element at `path` (and the comma that went with it); unchanged when there is none. */
export function removeJsonValue(text: string, path: JsonPath, root: Node = reparse(text)): string {
  const node = nodeAt(root, path);
  if (!node) return text;
  const parent = node.parent;
  const item = parent?.type === "property" ? parent : node;
  const container = item.parent!;
  const siblings = container.children ?? [];
  const i = siblings.indexOf(item);
  let start: number;
  let end: number;
  if (i > 0) {
    // From the end of the previous sibling: its comma, the space, this item.
    const prev = siblings[i - 1]!;
    start = prev.offset + prev.length;
    end = item.offset + item.length;
  } else if (siblings.length > 1) {
    // The first of several: this item up to the next one.
    start = item.offset;
    end = siblings[1]!.offset;
  } else {
    // The only one: the container's inside becomes empty.
    start = container.offset + 1;
    end = container.offset + container.length - 1;
  }
  return splice(text, start, end - start, "");
}

/**
 * `text` as strict JSON: comments removed (a line that held only a comment goes with it) and
 * trailing commas removed; every other character stays where it was.
 */
export function strictJsonText(text: string): string {
  const scanner = createScanner(scannable(text), false);
  const cuts: [number, number][] = [];
  let pendingComma = -1;
  for (let kind = scanner.scan(); kind !== 17 /* EOF */; kind = scanner.scan()) {
    const start = scanner.getTokenOffset();
    const end = start + scanner.getTokenLength();
    if (kind === 12 /* LineComment */ || kind === 13 /* BlockComment */) {
      const lineStart = text.lastIndexOf("\n", start - 1) + 1;
      const before = text.slice(lineStart, start);
      let after = end;
      while (after < text.length && (text[after] === " " || text[after] === "\t")) after++;
      const atLineEnd = after >= text.length || text[after] === "\n" || text[after] === "\r";
      if (/^[ \t\ufeff]*$/.test(before) && atLineEnd && (lineStart > 0 || after < text.length)) {
        // A comment on a line of its own: the whole line goes.
        const eolEnd = text[after] === "\r" && text[after + 1] === "\n" ? after + 2 : after < text.length ? after + 1 : after;
        const from = lineStart === 0 && hasBom(text) ? 1 : lineStart;
        if (eolEnd > after || from > 0) cuts.push([from, eolEnd]);
        else cuts.push([from, after]);
      } else if (atLineEnd) {
        // After a value, to the end of the line: the comment and the spaces before it.
        let from = start;
        while (from > lineStart && (text[from - 1] === " " || text[from - 1] === "\t")) from--;
        cuts.push([from, after]);
      } else {
        // Before more on its line: the comment and the spaces after it, when spaces stand before it too.
        const spaced = start > lineStart && (text[start - 1] === " " || text[start - 1] === "\t");
        cuts.push([start, spaced || /^[ \t\ufeff]*$/.test(before) ? after : end]);
      }
      continue;
    }
    if (kind === 14 /* LineBreak */ || kind === 15 /* Trivia */) continue;
    if (kind === 5 /* Comma */) {
      pendingComma = start;
      continue;
    }
    if ((kind === 2 /* CloseBrace */ || kind === 4 /* CloseBracket */) && pendingComma !== -1) cuts.push([pendingComma, pendingComma + 1]);
    pendingComma = -1;
  }
  if (!cuts.length) return text;
  cuts.sort((a, b) => a[0] - b[0]);
  let out = "";
  let at = 0;
  for (const [s, e] of cuts) {
    if (s < at) continue;
    out += text.slice(at, s);
    at = e;
  }
  return out + text.slice(at);
}

