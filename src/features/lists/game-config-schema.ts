// The game's config schema as far as the sources show it (docs/lists.md "What the game refuses"):
// every key, type, range, enum and rename game-config-check.ts checks a config against.
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

export type JsonType = "string" | "number" | "boolean" | "array" | "object" | "null";

/** What the game accepts at one place. */
export interface Rule {
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

export interface Legacy {
  /** the current name, in the same object (a rename fixes it) */
  now?: string;
  /** where the setting lives now when it moved to another object, in words */
  movedTo?: string;
  /** the version the name stopped being accepted in, in words */
  until: string;
}

export interface Fields {
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
export const SCENARIO_ID = /^\{[0-9A-Fa-f]{16}\}.+\.conf$/;

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

export const ROOT: Fields = {
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
export const KNOWN_ELSEWHERE = new Map<string, { key: string; at: string }[]>();
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
