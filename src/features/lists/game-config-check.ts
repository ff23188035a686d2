// What the game refuses in a server config, found before a restart (docs/lists.md "What the game
// refuses"). Pure: text in, findings out; the import preview shows them as warnings, the deploy
// pre-flight blocks on the fatal ones.
// The schema (what the game accepts, and the sources for it) is game-config-schema.ts.
import { parseTree, type Node, type ParseError } from "jsonc-parser";
import { formatPath, type RenameKeyFix, type Segment } from "./game-config-paths";
import { KNOWN_ELSEWHERE, ROOT, type Fields, type JsonType, type Legacy, type Rule } from "./game-config-schema";

export type ConfigIssueKind =
  | "unknown_key"
  | "legacy_key"
  | "duplicate_key"
  | "wrong_type"
  | "out_of_range"
  | "pattern"
  | "not_allowed_value"
  | "too_many"
  | "unsafe_integer";

export interface ConfigIssue {
  kind: ConfigIssueKind;
  /** "game.gameProperties.battlEye", "game.admins[2]", "maxplayers" (JSON path text; array index in brackets) */
  path: string;
  /** true when the game refuses to start with it (everything but duplicate_key and unsafe_integer, which the game reads but may misread) */
  fatal: boolean;
  /** in words, naming the key and what the game expects */
  message: string;
  /** 1-based line and column in the text as given (every line counted: leading blank lines, CRLF; a leading BOM is not a column) */
  line: number;
  column: number;
  /** offset/length of the key (for key problems) or value (for value problems) in the text (UTF-16 code units, BOM included) */
  offset: number;
  length: number;
  /** a mechanical fix where one exists: rename a misspelt or legacy key */
  fix?: RenameKeyFix;
  /** duplicate_key: which value the game's reader finds, and which other readers keep */
  detail?: string;
}

/** The schema place of a path: indexes become "[] entries" ("game.mods[] entries"). */
function placeOf(path: Segment[]): string {
  let out = "";
  for (const s of path) out = typeof s === "number" ? `${out}[] entries` : out ? `${out}.${s}` : s;
  return out || "the top level";
}

/** Nesting below which free-form content is not searched for unsafe integers (no config nests this deep; bounds the recursion). */
const MAX_DEPTH = 256;

/** Largest integer JavaScript numbers hold exactly (2^53 - 1). */
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Most issues one check reports: a file with thousands of unknown keys is named by its first ones, in bounded time. */
export const MAX_ISSUES = 100;

class Enough extends Error {}

/**
 * `root`: the text's syntax tree when the caller has read it already (jsonc.ts parseJsonDocument);
 * otherwise the text is read here.
 */
export function checkGameConfig(text: string, root?: Node): ConfigIssue[] {
  if (!root) {
    // A leading BOM is read as a space so every offset stays the original's.
    const scannable = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
    const errors: ParseError[] = [];
    try {
      root = parseTree(scannable, errors, { allowTrailingComma: true, disallowComments: false });
    } catch {
      return [];
    }
    // Syntax is reported elsewhere.
    if (errors.length > 0) return [];
  }
  // A root that is not an object is not a full config.
  if (!root || root.type !== "object") return [];
  const checker = new Checker(text);
  try {
    checker.object(root, [], ROOT);
    checker.unsafeIntegers(root, []);
  } catch (e) {
    if (!(e instanceof Enough)) throw e;
  }
  return checker.issues.sort((a, b) => a.offset - b.offset || kindOrder(a.kind) - kindOrder(b.kind));
}

const KIND_ORDER: ConfigIssueKind[] = ["legacy_key", "unknown_key", "duplicate_key", "wrong_type", "unsafe_integer", "out_of_range", "pattern", "not_allowed_value", "too_many"];
const kindOrder = (k: ConfigIssueKind) => KIND_ORDER.indexOf(k);


class Checker {
  readonly issues: ConfigIssue[] = [];
  private starts: number[] | null = null;
  private readonly bom: boolean;

  constructor(private readonly text: string) {
    this.bom = text.charCodeAt(0) === 0xfeff;
  }

  /** Where each line starts: counted once, when the first issue needs a line (most files have none). */
  private get lineStarts(): number[] {
    if (this.starts) return this.starts;
    const starts = [0];
    const text = this.text;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
    }
    return (this.starts = starts);
  }

  private at(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    const column = offset - this.lineStarts[lo]! + 1 - (lo === 0 && this.bom && offset > 0 ? 1 : 0);
    return { line: lo + 1, column };
  }

  private add(kind: ConfigIssueKind, path: Segment[], node: Node, message: string, extra: Pick<ConfigIssue, "fix" | "detail"> = {}) {
    const issue: ConfigIssue = {
      kind,
      path: formatPath(path),
      fatal: kind !== "duplicate_key" && kind !== "unsafe_integer",
      message,
      ...this.at(node.offset),
      offset: node.offset,
      length: node.length,
    };
    if (extra.fix) issue.fix = extra.fix;
    if (extra.detail) issue.detail = extra.detail;
    this.issues.push(issue);
    if (this.issues.length >= MAX_ISSUES) throw new Enough();
  }

  private raw(node: Node): string {
    return this.text.slice(node.offset, node.offset + node.length);
  }

  object(node: Node, path: Segment[], fields: Fields) {
    const props = (node.children ?? []).filter((p) => p.type === "property" && p.children?.[0]);
    const byKey = new Map<string, Node[]>();
    for (const p of props) {
      const key = p.children![0]!.value as string;
      byKey.set(key, [...(byKey.get(key) ?? []), p]);
    }
    const present = new Set(byKey.keys());
    const known = Object.keys(fields.known);

    for (const p of props) {
      const keyNode = p.children![0]!;
      const valueNode = p.children![1];
      const key = keyNode.value as string;
      const here = [...path, key];
      const once = byKey.get(key)!.length === 1;
      if (Object.hasOwn(fields.known, key)) {
        if (valueNode) this.value(valueNode, here, fields.known[key]!);
      } else if (fields.legacy && Object.hasOwn(fields.legacy, key)) {
        this.legacy(keyNode, here, key, fields.legacy[key]!, present, once);
      } else {
        this.unknown(keyNode, here, key, known, present, once);
      }
    }

    for (const [key, occurrences] of byKey) {
      if (occurrences.length < 2) continue;
      const lines = occurrences.map((p) => this.at(p.children![0]!.offset).line);
      const shown = (p: Node) => {
        const v = p.children![1];
        return v ? describeShort(v, this.raw(v)) : "nothing";
      };
      const first = occurrences[0]!;
      const last = occurrences[occurrences.length - 1]!;
      const detail =
        `The game's JSON reader (RapidJSON, by the texts of its errors) keeps ${occurrences.length === 2 ? "both" : `all ${occurrences.length}`} and, looked up by name, finds the first: ${shown(first)} (line ${lines[0]}); ` +
        `JSON.parse, Loadout's import and most editors keep the last: ${shown(last)} (line ${lines[lines.length - 1]}). Which one the server applies is not documented.`;
      occurrences.slice(1).forEach((p) => {
        const keyNode = p.children![0]!;
        const distinct = [...new Set(lines)];
        const on = distinct.length === 1 ? `on line ${distinct[0]}` : `on lines ${joinWords(distinct.map(String))}`;
        this.add("duplicate_key", [...path, key], keyNode, `${formatPath([...path, key])} is written ${occurrences.length} times (${on}); keep one`, { detail });
      });
    }
  }

  private legacy(keyNode: Node, path: Segment[], key: string, legacy: Legacy, present: Set<string>, once: boolean) {
    const where = formatPath(path);
    let message: string;
    let fix: ConfigIssue["fix"];
    if (legacy.now) {
      const target = formatPath([...path.slice(0, -1), legacy.now]);
      if (present.has(legacy.now)) {
        message = `${where} is the name the game used before ${legacy.until}; it is ${target} now, which this file already sets: remove ${key}`;
      } else {
        message = `${where} is the name the game used before ${legacy.until}; it is ${target} now (the old name is refused)`;
        if (once) fix = { kind: "rename_key", from: key, to: legacy.now, path: where };
      }
    } else if (legacy.movedTo) {
      message = `${where} is a key the game used before ${legacy.until}; the setting is ${legacy.movedTo} now (the old key is refused): move it there`;
    } else {
      message = `${where} is a key of configs from before ${legacy.until} that the game no longer knows (it refuses it): remove it`;
    }
    this.add("legacy_key", path, keyNode, message, fix ? { fix } : {});
  }

  private unknown(keyNode: Node, path: Segment[], key: string, known: string[], present: Set<string>, once: boolean) {
    const where = formatPath(path);
    const suggestions = suggest(key, known);
    const place = path.length > 1 ? ` in ${formatPath(path.slice(0, -1))}` : "";
    if (suggestions.length === 0) {
      const elsewhere = KNOWN_ELSEWHERE.get(key.toLowerCase())?.filter((p) => p.at !== placeOf(path.slice(0, -1)));
      const hint = elsewhere?.length ? `; "${elsewhere[0]!.key}" belongs in ${joinWords(elsewhere.map((p) => p.at), "or")}: move it there` : ": remove it";
      this.add("unknown_key", path, keyNode, `${where} is not a key the game knows${place || " at the top level"} (it refuses keys it does not know)${hint}`);
      return;
    }
    const quoted = joinWords(suggestions.map((s) => `"${s}"`), "or");
    if (suggestions.length === 1 && present.has(suggestions[0]!)) {
      this.add("unknown_key", path, keyNode, `${where} is not a key the game knows; did you mean ${quoted}? It is already set here: remove ${key}`);
      return;
    }
    const fix = suggestions.length === 1 && once ? { kind: "rename_key" as const, from: key, to: suggestions[0]!, path: where } : undefined;
    this.add("unknown_key", path, keyNode, `${where} is not a key the game knows; did you mean ${quoted}?`, fix ? { fix } : {});
  }

  value(node: Node, path: Segment[], rule: Rule) {
    const where = formatPath(path);
    const type = node.type as JsonType;
    if (!rule.types.includes(type)) {
      this.add("wrong_type", path, node, `${where} must be ${rule.expect}, not ${describe(node, this.raw(node))}${typeHint(rule, node, this.raw(node))}`);
      return;
    }
    switch (type) {
      case "number": {
        const r = rule.range;
        if (!r) return;
        const v = Number(this.raw(node));
        const inside = (r.min === undefined || v >= r.min) && (r.max === undefined || v <= r.max);
        if (!inside && v !== r.orExactly) this.add("out_of_range", path, node, `${where} is ${this.raw(node)}; the game accepts ${rangeWords(r)}`);
        return;
      }
      case "string": {
        const s = node.value as string;
        const chars = [...s].length;
        if (rule.length?.max !== undefined && chars > rule.length.max) {
          this.add("out_of_range", path, node, `${where} is ${chars} characters long; the game accepts at most ${rule.length.max}`);
        }
        if (rule.length?.min !== undefined && chars < rule.length.min) {
          this.add("out_of_range", path, node, `${where} is ${chars} character${chars === 1 ? "" : "s"} long; the game needs at least ${rule.length.min}`);
        }
        if (rule.noSpaces && s.includes(" ")) this.add("pattern", path, node, `${where} contains a space; the game does not accept spaces in it`);
        if (rule.pattern && !rule.pattern.re.test(s)) {
          this.add("pattern", path, node, `${where} ${JSON.stringify(s)} is not in the form the game accepts: it expects ${rule.pattern.expects}`);
        }
        if (rule.oneOf && !rule.oneOf.includes(s)) {
          const options = joinWords(rule.oneOf.map((o) => `"${o}"`), "or");
          const near = suggest(s, [...rule.oneOf]);
          const hint = near.length ? `; did you mean ${joinWords(near.map((o) => `"${o}"`), "or")}?` : "";
          this.add("not_allowed_value", path, node, `${where} is ${JSON.stringify(s)}; the game accepts ${options}${hint}`);
        }
        return;
      }
      case "array": {
        const items = node.children ?? [];
        if (rule.items) items.forEach((item, i) => this.value(item, [...path, i], rule.items!));
        if (rule.maxUnique) {
          const distinct = new Set(items.map((item) => (item.type === "string" ? `s${item.value}` : `r${this.raw(item)}`)));
          if (distinct.size > rule.maxUnique.count) {
            this.add("too_many", path, node, `${where} lists ${distinct.size} different ids; the game accepts at most ${rule.maxUnique.count} (since ${rule.maxUnique.since})`);
          }
        }
        return;
      }
      case "object": {
        if (rule.fields) this.object(node, path, rule.fields);
        return;
      }
      default:
        return;
    }
  }

  /** Every integer written beyond 2^53 - 1, anywhere: JavaScript (and Loadout's import) would round it. */
  unsafeIntegers(node: Node, path: Segment[], depth = 0) {
    if (depth > MAX_DEPTH) return;
    if (node.type === "number") {
      const raw = this.raw(node);
      const big = integerBeyondSafe(raw);
      if (big !== null) {
        const where = formatPath(path);
        this.add(
          "unsafe_integer",
          path,
          node,
          `${where} is the number ${raw}, an integer larger than JavaScript reads exactly (it becomes ${String(Number(raw))}); ids such as admins must be written as strings: "${big}"`,
        );
      }
      return;
    }
    if (node.type === "object") {
      for (const p of node.children ?? []) {
        const k = p.children?.[0];
        const v = p.children?.[1];
        if (k && v) this.unsafeIntegers(v, [...path, k.value as string], depth + 1);
      }
    } else if (node.type === "array") {
      (node.children ?? []).forEach((item, i) => this.unsafeIntegers(item, [...path, i], depth + 1));
    }
  }
}

/** The integer a number's text writes when it is beyond the safe range (fraction zeros allowed), else null. */
function integerBeyondSafe(raw: string): string | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(raw);
  if (!m) return null;
  if (m[3] && /[^0]/.test(m[3])) return null;
  const digits = m[2]!.replace(/^0+(?=\d)/, "");
  const value = BigInt(digits);
  return value > MAX_SAFE ? `${m[1]}${digits}` : null;
}

function rangeWords(r: NonNullable<Rule["range"]>): string {
  const span = r.min !== undefined && r.max !== undefined ? `${r.min} to ${r.max}` : r.min !== undefined ? `${r.min} or more` : `${r.max} or less`;
  return r.orExactly !== undefined ? `${r.orExactly}, or ${span}` : span;
}

function describe(node: Node, raw: string): string {
  switch (node.type) {
    case "string":
      return `a string (${raw.length > 40 ? `${raw.slice(0, 37)}..."` : raw})`;
    case "number":
      return `the number ${raw}`;
    case "boolean":
      return `the boolean ${raw}`;
    case "null":
      return "null";
    case "array":
      return "an array";
    default:
      return "an object";
  }
}

function describeShort(node: Node, raw: string): string {
  if (node.type === "object") return "an object";
  if (node.type === "array") return "an array";
  return raw.length > 40 ? `${raw.slice(0, 37)}...` : raw;
}

/** What to write instead, where the mistake is a well-known one. */
function typeHint(rule: Rule, node: Node, raw: string): string {
  if (node.type === "string") {
    const s = (node.value as string).trim();
    if (rule.types.includes("boolean") && (s === "true" || s === "false")) return `: write ${s}, without quotes`;
    if (rule.types.includes("number") && s !== "" && Number.isFinite(Number(s))) return `: write ${s}, without quotes`;
  }
  if (node.type === "number" && rule.types.includes("string")) {
    const big = integerBeyondSafe(raw);
    return `: write it in quotes, "${big ?? raw}"`;
  }
  if (node.type === "boolean" && rule.types.includes("string")) return `: write it in quotes, "${raw}"`;
  return "";
}

function joinWords(words: string[], last = "and"): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} ${last} ${words[words.length - 1]}`;
}

/** Keys known at a place that a person may have meant: same letters in another case first, else Damerau-Levenshtein ≤ 2 (≤ 1 for keys of up to 4 characters). */
export function suggest(key: string, known: string[]): string[] {
  const lower = key.toLowerCase();
  const sameLetters = known.filter((k) => k.toLowerCase() === lower);
  if (sameLetters.length > 0) return [sameLetters[0]!];
  let best = Infinity;
  let found: string[] = [];
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    const limit = k.length <= 4 ? 1 : 2;
    if (d > limit) continue;
    if (d < best) {
      best = d;
      found = [k];
    } else if (d === best) found.push(k);
  }
  return found;
}

/** Damerau-Levenshtein distance, optimal string alignment (an adjacent transposition costs 1). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => {
    const row = new Array<number>(cols).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j < cols; j++) d[0]![j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[rows - 1]![cols - 1]!;
}
