// Places in a server config written as paths ("game.mods[2].modId", ["odd key"]), and the one
// mechanical fix the check offers: a key renamed in place, every other character kept.
import { parseTree, type Node, type ParseError } from "jsonc-parser";

/** A path's parts: object keys by name, array items by index. */
export type Segment = string | number;

/** Rename a misspelt or legacy key at `path` from `from` to `to`. */
export interface RenameKeyFix {
  kind: "rename_key";
  from: string;
  to: string;
  path: string;
}

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** "game.mods[2].modId"; a key that is not a plain name is written ["like this"]. */
export function formatPath(path: Segment[]): string {
  let out = "";
  for (const s of path) {
    if (typeof s === "number") out += `[${s}]`;
    else if (PLAIN_KEY.test(s)) out += out === "" ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** The segments of a path `formatPath` wrote; null when the text is not such a path. */
export function parsePath(text: string): Segment[] | null {
  const out: Segment[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === "[") {
      const close = text[i + 1] === '"' ? closingQuote(text, i + 1) : text.indexOf("]", i);
      if (close < 0) return null;
      if (text[i + 1] === '"') {
        if (text[close + 1] !== "]") return null;
        try {
          out.push(JSON.parse(text.slice(i + 1, close + 1)) as string);
        } catch {
          return null;
        }
        i = close + 2;
      } else {
        const n = text.slice(i + 1, close);
        if (!/^\d+$/.test(n)) return null;
        out.push(Number(n));
        i = close + 1;
      }
    } else {
      if (text[i] === ".") {
        if (out.length === 0) return null;
        i++;
      }
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(i));
      if (!m) return null;
      out.push(m[0]);
      i += m[0].length;
    }
  }
  return out;
}

function closingQuote(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/**
 * Applies a rename as one edit of the key's string token: every other character of the text
 * (comments, spacing, number text, line endings, the BOM) stays as it was. The key is looked up
 * at `fix.path` (its parent objects by name, arrays by index); where the file writes it more than
 * once, the first is renamed. A fix that no longer applies (the key is gone) leaves the text as it is.
 */
export function renameKeyFix(text: string, fix: RenameKeyFix): string {
  const path = parsePath(fix.path);
  if (!path || path.length === 0 || path[path.length - 1] !== fix.from) return text;
  const scannable = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  const errors: ParseError[] = [];
  const root = parseTree(scannable, errors, { allowTrailingComma: true, disallowComments: false });
  if (!root) return text;
  const keyNode = findKey(root, path);
  if (!keyNode) return text;
  return text.slice(0, keyNode.offset) + JSON.stringify(fix.to) + text.slice(keyNode.offset + keyNode.length);
}

/** The key token of the property at `path`, trying every same-named member on the way (duplicates). */
function findKey(node: Node, path: Segment[]): Node | undefined {
  const [head, ...rest] = path;
  if (head === undefined) return undefined;
  if (typeof head === "number") {
    if (node.type !== "array") return undefined;
    const item = node.children?.[head];
    return item ? findKey(item, rest) : undefined;
  }
  if (node.type !== "object") return undefined;
  for (const p of node.children ?? []) {
    const k = p.children?.[0];
    if (!k || k.value !== head) continue;
    if (rest.length === 0) return k;
    const v = p.children?.[1];
    const found = v ? findKey(v, rest) : undefined;
    if (found) return found;
  }
  return undefined;
}
