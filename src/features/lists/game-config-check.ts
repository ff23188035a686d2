// What the game refuses in a server config, found before a restart (docs/lists.md "What the game
// refuses"). Pure: text in, findings out; the import preview shows them as warnings, the deploy
// pre-flight blocks on the fatal ones.
//
// The dedicated server checks its config against a JSON schema at start and shuts down on any
// violation ("Param "#/gameHostBindAddress" is not allowed and must be removed", "Param
// "#/game/gameProperties/battlEye" has an incorrect type. Expected "boolean"", "...is bellow the
// minimum limit of value/length. The minimum allowed is 50", "Value of "#/game/scenarioId" does
// not match the required pattern"). The schema itself is not published; what it holds is taken
// from these sources, and nothing else (a range no source gives is not checked):
//  [wiki]  Bohemia's "Arma Reforger:Server Config" page,
//          https://community.bistudio.com/wiki/Arma_Reforger:Server_Config (the revision of
//          2026-05-31, read as a public scrape of the page, and the page's diffs up to revision
//          376513 on community.bohemia.net): every key, type, range, enum, the renames of 0.9.8.73
//          ("was gameHostBindAddress before 0.9.8.73"), a2sQueryEnabled/steamQueryPort before
//          0.9.9, admins limited to 20 unique ids since 1.3.0, PLATFORM_PSN since 1.2.1,
//          persistence since 1.6.0, joinQueue since 1.2.1.66.
//  [e2377] pelican-eggs/eggs#2377: a legacy root key (gameHostBindAddress) refused, a string
//          where a boolean belongs refused (0.9.9, July 2023, when the validation came).
//  [s14]   soda3x/ArmaReforgerServerTool#14: the 0.9.9 validation; gameNumber removed,
//          supportedGameClientTypes renamed.
//  [s24]   soda3x/ArmaReforgerServerTool#24: serverMinGrassDistance below 50 refused (the log).
//  [s30]   soda3x/ArmaReforgerServerTool#30: a scenarioId with " (Conflict)" after ".conf" refused.
//  [a39]   acemod/docker-reforger#39: rcon.password minLength 3 and pattern "^[^ ]*$" ("Spaces
//          are not allowed"), from the server's log.
//  [amp]   CubeCoders/AMPTemplates#1535: an undocumented key (gameProperties.bandwidthLimit)
//          refused: the schema allows no key it does not name.
//  [gsm]   GameServerManagers/Game-Server-Configs#135: a2sQueryEnabled and steamQueryPort removed
//          in the 0.9.9 release.
//  [asm]   fugasjunior/arma-server-manager#83 and its template
//          (src/main/resources/templates/serverConfigReforger.ftl): a pre-0.9.9 config
//          (dedicatedServerId, region, autoJoinable, ...) refused, the fix dropped those keys.
//  [s226]  soda3x/ArmaReforgerServerTool#226 (ServerConfiguration.cs, MAX_SERVER_VIEW_DISTANCE =
//          12000, 2025-11): serverMaxViewDistance up to 12000 where the wiki says 10000; the
//          sources disagree, so the wider bound is the one checked.
//  [rj]    Tencent/rapidjson (include/rapidjson/document.h, DoFindMember; error texts of
//          include/rapidjson/error/en.h, which the server's "JSON parse error: ..." lines quote;
//          Tencent/rapidjson#1630): duplicate names are kept, a lookup by name finds the first.
// Decisions where the sources say nothing: a number written 3000.0 or 1500.5 is accepted (the
// wiki says "number value", no refusal of a fraction is reported); null is accepted for the
// optional sections a2s, rcon and operating (configs written by acemod/docker-reforger's launch.py
// and a typed model of the config carry `"a2s": null` / `rcon: None`); missionHeader and
// persistence's databases/storages are free-form; no key is checked for being missing.
import { parseTree, type Node, type ParseError } from "jsonc-parser";

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
  fix?: { kind: "rename_key"; from: string; to: string; path: string };
  /** duplicate_key: which value the game's reader finds, and which other readers keep */
  detail?: string;
}

type JsonType = "string" | "number" | "boolean" | "array" | "object" | "null";

/** What the game accepts at one place. */
interface Rule {
  types: JsonType[];
  /** the accepted types in words: "a boolean (true or false)" */
  expect: string;
  /** numbers: inclusive bounds; `orExactly` is one more accepted value outside them (grass: 0) */
  range?: { min?: number; max?: number; orExactly?: number };
  /** strings: length in characters */
  length?: { min?: number; max?: number };
  noSpaces?: boolean;
  pattern?: { re: RegExp; expects: string };
  oneOf?: readonly string[];
  items?: Rule;
  /** arrays: at most this many different values */
  maxUnique?: { count: number; since: string };
  fields?: Fields;
  /** an object whose content is the scenario's or a database's own: not checked */
  freeForm?: boolean;
}

interface Legacy {
  /** the current name, in the same object (a rename fixes it) */
  now?: string;
  /** where the setting lives now when it moved to another object, in words */
  movedTo?: string;
  /** the version the name stopped being accepted in, in words */
  until: string;
}

interface Fields {
  /** the keys the game knows here, in the order suggestions prefer */
  known: Record<string, Rule>;
  legacy?: Record<string, Legacy>;
}

const str = (expect = "a string"): Rule => ({ types: ["string"], expect });
const bool: Rule = { types: ["boolean"], expect: "a boolean (true or false)" };
const num = (min?: number, max?: number): Rule => ({ types: ["number"], expect: "a number", range: min === undefined && max === undefined ? undefined : { min, max } });
const port = num(1, 65535); // [wiki] "number value, range 1..65535"
const strings = (expect: string): Rule => ({ types: ["array"], expect, items: str() });
const object = (fields: Fields, orNull = false): Rule => ({ types: orNull ? ["object", "null"] : ["object"], expect: "an object", fields });
const freeObject: Rule = { types: ["object"], expect: "an object", freeForm: true };

/** "{16 hexadecimal digits}path.conf": the shape of every scenario id the wiki lists; what [s30] refused does not end in .conf. */
const SCENARIO_ID = /^\{[0-9A-Fa-f]{16}\}.+\.conf$/;

const modEntry: Rule = {
  types: ["object"],
  expect: "an object {modId, name, version, required}",
  fields: {
    known: {
      modId: str("a string (the mod's 16-hexadecimal-digit id)"),
      // the wiki's heading spells it modID, its example and every public config modId: both accepted
      modID: str("a string (the mod's 16-hexadecimal-digit id)"),
      name: str(),
      version: str(),
      required: bool, // [wiki] 1.2.1
    },
  },
};

const persistence: Rule = object({
  // [wiki] 1.6.0
  known: {
    autoSaveInterval: num(0, 60),
    saveRetention: num(1, 128),
    loadSessionSave: bool,
    keepSessionSave: bool,
    hiveId: num(0, 16383),
    databases: freeObject,
    storages: freeObject,
  },
});

const gameProperties: Rule = object({
  known: {
    serverMaxViewDistance: num(500, 12000), // [wiki] 500..10000, [s226] 12000
    serverMinGrassDistance: { ...num(50, 150), range: { min: 50, max: 150, orExactly: 0 } }, // [wiki] "0 / 50..150", [s24]
    fastValidation: bool,
    networkViewDistance: num(500, 5000),
    battlEye: bool, // [e2377]
    disableThirdPerson: bool,
    VONDisableUI: bool,
    VONDisableDirectSpeechUI: bool,
    VONCanTransmitCrossFaction: bool, // [wiki] 1.0.0
    missionHeader: freeObject,
    persistence,
  },
});

const game: Rule = object({
  known: {
    name: { ...str(), length: { max: 100 } }, // [wiki] "length 0..100 characters"
    password: str(),
    passwordAdmin: { ...str(), noSpaces: true }, // [wiki] "This password does not support spaces in it"
    admins: {
      // [wiki] 0.9.9.31; "list is now limited to only 20 unique IDs" (1.3.0)
      types: ["array"],
      expect: "an array of IdentityIds and SteamIDs, each a string",
      items: str("a string (an IdentityId or a SteamID, in quotes)"),
      maxUnique: { count: 20, since: "1.3.0" },
    },
    scenarioId: { ...str(), pattern: { re: SCENARIO_ID, expects: '"{16 hexadecimal digits}path.conf", e.g. "{ECC61978EDCC2B5A}Missions/23_Campaign.conf"' } }, // [s30]
    maxPlayers: num(1, 128), // [wiki] "range 1..128" (the page's "Fixed maxPlayers upper limit"; 256 before)
    visible: bool,
    crossPlatform: bool,
    supportedPlatforms: { types: ["array"], expect: "an array of platform names", items: { ...str(), oneOf: ["PLATFORM_PC", "PLATFORM_XBL", "PLATFORM_PSN"] } },
    gameProperties,
    modsRequiredByDefault: bool, // [wiki] 1.2.1
    mods: { types: ["array"], expect: "an array of mods", items: modEntry },
  },
  legacy: {
    playerCountLimit: { now: "maxPlayers", until: "0.9.8.73" }, // [wiki]
    supportedGameClientTypes: { now: "supportedPlatforms", until: "0.9.8.73" }, // [wiki], [s14]
    gameNumber: { until: "0.9.9" }, // [s14]
    autoJoinable: { until: "0.9.9" }, // [asm]
  },
});

const ROOT: Fields = {
  known: {
    bindAddress: str(),
    bindPort: port,
    publicAddress: str(),
    publicPort: port,
    a2s: object({ known: { address: str(), port } }, true), // [wiki] 0.9.9.31
    rcon: object(
      {
        known: {
          address: str(),
          port,
          password: { ...str(), length: { min: 3 }, noSpaces: true }, // [wiki], [a39]
          maxClients: num(1, 16), // [wiki] 1.1.0
          permission: { ...str(), oneOf: ["admin", "monitor"] },
          blacklist: strings("an array of commands"),
          whitelist: strings("an array of commands"),
        },
      },
      true,
    ),
    game,
    operating: object(
      {
        known: {
          lobbyPlayerSynchronise: bool,
          disableCrashReporter: bool,
          // [wiki] a boolean in 1.0.0, an array of navmesh names since 1.2.0
          disableNavmeshStreaming: { types: ["array", "boolean"], expect: "an array of navmesh names (a boolean before 1.2.0)", items: str() },
          disableServerShutdown: bool,
          disableAI: bool,
          playerSaveTime: num(),
          aiLimit: num(),
          slotReservationTimeout: num(5, 300), // [wiki] 0.9.9.31
          joinQueue: object({ known: { maxSize: num(0, 50) } }), // [wiki] 1.2.1.66
        },
      },
      true,
    ),
  },
  legacy: {
    gameHostBindAddress: { now: "bindAddress", until: "0.9.8.73" }, // [wiki], [e2377]
    gameHostBindPort: { now: "bindPort", until: "0.9.8.73" },
    gameHostRegisterBindAddress: { now: "publicAddress", until: "0.9.8.73" },
    gameHostRegisterPort: { now: "publicPort", until: "0.9.8.73" },
    adminPassword: { movedTo: "game.passwordAdmin", until: "0.9.8.73" }, // [wiki] "was root/passwordAdmin"
    a2sQueryEnabled: { movedTo: "the a2s object ({address, port})", until: "0.9.9" }, // [wiki], [gsm]
    steamQueryPort: { movedTo: "a2s.port", until: "0.9.9" }, // [wiki], [gsm]
    dedicatedServerId: { until: "0.9.9" }, // [asm]
    region: { until: "0.9.9" }, // [asm]
  },
};

/** Where each known key lives ("game.gameProperties", "game.mods[] entries"), by its name in lower case: for a key written in the wrong object. */
const KNOWN_ELSEWHERE = new Map<string, { key: string; at: string }[]>();
(function index(fields: Fields, at: string) {
  for (const [key, rule] of Object.entries(fields.known)) {
    const list = KNOWN_ELSEWHERE.get(key.toLowerCase()) ?? [];
    list.push({ key, at: at || "the top level" });
    KNOWN_ELSEWHERE.set(key.toLowerCase(), list);
    const here = at ? `${at}.${key}` : key;
    if (rule.fields) index(rule.fields, here);
    if (rule.items?.fields) index(rule.items.fields, `${here}[] entries`);
  }
})(ROOT, "");

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

type Segment = string | number;

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
export function renameKeyFix(text: string, fix: NonNullable<ConfigIssue["fix"]>): string {
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
