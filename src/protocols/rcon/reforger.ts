// Arma Reforger's RCON commands and the reading of their answers (docs/rcon.md "Commands").
// Each function takes anything with `command()` (an RconClient, or an RconSession) and throws
// ReforgerCommandError (or a subclass) with the server's own words when the game says no.
//
// Sources:
//  [wiki]  https://community.bistudio.com/wiki/Arma_Reforger:Server_Management: #players (RCON
//          monitor may run it; #restart, #shutdown, #kick, #ban need RCON admin), #kick
//          <playerId>, #ban create <playerId or identityId or playerName> <durationInSeconds>
//          <reason (optional)> ("if using playerId, the player must actually be connected to the
//          server; use identityId otherwise"), #ban remove, #ban list <page> ("RCON can show 25
//          bans per page while game only 10"), #restart (the scenario; clients stay), #shutdown
//          (the process), @logout (1.2.1), "Bans are not persistent between server executions -
//          a restart resets the ban list" (the 1.0.0 revision).
//  [cfg]   https://community.bistudio.com/wiki/Arma_Reforger:Server_Config, `rcon`: address, port
//          (default 19999), password (required, at least 3 characters, no spaces), permission
//          admin | monitor, maxClients (1..16), blacklist, whitelist.
//  [scr]   BohemiaInteractive/Arma-Reforger-Script-Diff-Experimental
//          scripts/Game/Network/ServerCommands/BanCommands.c (1.8.0.10; unchanged in substance
//          since 1.6.0.26): the game's own #ban and #kick. Its answers: "Player '%1' kicked!",
//          "Player not found", "Not Valid Player ID"; "Player '%1' banned!" (%1 the player's
//          name, or the identity id given), "Ban removed!", "User not found!", "Not Valid time
//          value in seconds" (a negative duration; 0 is permanent), "Failed to create ban.",
//          "Failed to remove ban.", "Processing ban list", "Server has no bans to list.",
//          "Page not found!", "Not Valid page number", "Total bans: N | Page: p/P", "- Identity
//          Id | Banned name", rows "- <identityId> | <bannedName>", "Unknown error.",
//          "Timeout", "Command is supported only on Dedicated Servers". An id of 36 characters
//          with '-' at 8, 13, 18 and 23 is an identity id, digits only a player id, anything
//          else a player name. The reason is the rest of the words joined by one space, "No
//          reason provided" when absent. #kick reads only its first argument (no reason).
//          scripts/GameLib/generated/ERCONPermissions.c: NONE, MONITOR, ADMIN;
//          scripts/GameLib/generated/EServerCmdResultType.c: OK, UNKNOWN_COMMAND,
//          MISSING_PERMISSION, PARAMETERS, PENDING, BUSY, ERR.
//  [b11]   thegamecracks/berconpy#11: "Processing Command: players" then "Players on server:
//          [Player#] ; [Player UID] ; [Player Name]".
//  [rjs]   ZSU-GG-Reforger/ReforgerJS reforger-server/rcon.js: rows `N ; uid ; name` read with
//          /^(\d+)\s*;\s*([a-z0-9-]+)\s*;\s*(.*)$/i over each trimmed line of each message, the
//          name being the rest of the line; commands sent as `players`, `#kick N`, `#ban create
//          <id> <duration> [reason]`, `#shutdown`.
// Not known (docs/rcon.md "What is not known"): the words of a refusal for a `monitor` login
// or an unknown command (the engine renders MISSING_PERMISSION and UNKNOWN_COMMAND itself; any
// answer naming "permission" is read as a refusal), whether the server splits a message inside
// a row (a row is taken to be within one message, as ReforgerJS takes it).
import { RconError, type RconCommandOptions } from "./client";

export const RCON_DEFAULT_PORT = 19999;

/** Anything that runs a command and answers its text: RconClient, RconSession. */
export interface RconCommander {
  command(text: string, opts?: RconCommandOptions): Promise<string>;
}

export interface ReforgerPlayer {
  /** The session's player number (#kick, #ban create by player id). */
  player_id: number;
  /** The Bohemia identity id. */
  uid: string;
  name: string;
}

export interface ReforgerBan {
  /** The identity id banned. */
  uid: string;
  /** The name the server recorded ("Banned name"). */
  name: string;
}

/** The game said no; `serverMessage` is its answer as received. */
export class ReforgerCommandError extends RconError {
  override name = "ReforgerCommandError";
  constructor(
    readonly command: string,
    readonly serverMessage: string,
    message = `the server answered "${serverMessage}" to ${command}`,
  ) {
    super(message);
  }
}
/** No such player on the server ("Player not found", "Not Valid Player ID"). */
export class ReforgerPlayerNotFoundError extends ReforgerCommandError {
  override name = "ReforgerPlayerNotFoundError";
}
/** The RCON login may not run this (a `monitor` permission, or the config's blacklist/whitelist). */
export class ReforgerPermissionError extends ReforgerCommandError {
  override name = "ReforgerPermissionError";
}
/** #ban remove of an identity id the server has no ban for ("User not found!"). */
export class ReforgerBanNotFoundError extends ReforgerCommandError {
  override name = "ReforgerBanNotFoundError";
}

/** The game's own test for an identity id [scr]: 36 characters, '-' at 8, 13, 18 and 23. */
export const isIdentityId = (id: string): boolean =>
  id.length === 36 && id[8] === "-" && id[13] === "-" && id[18] === "-" && id[23] === "-" && !/\s/.test(id);

/** Why a password cannot be a Reforger RCON password [cfg], or null. */
export function rconPasswordProblem(password: string): string | null {
  if (password.length < 3) return "an RCON password has at least 3 characters";
  if (/\s/.test(password)) return "an RCON password has no spaces";
  return null;
}

const PLAYERS_HEADER = /^Players on server:/i;
// a row: player number ; uid ; name (the rest of the line, semicolons and all) [rjs]
const PLAYER_ROW = /^(\d+)\s*;\s*([^\s;]+)\s*;\s*(.*)$/;

/** The lines of an answer, progress lines ("Processing Command: …") left out. */
const answerLines = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !/^Processing (Command:|ban list$)/i.test(l));

/** The errors any command may answer [scr]; null when the answer names none. */
function refusal(command: string, lines: string[]): ReforgerCommandError | null {
  for (const line of lines) {
    if (/permission/i.test(line)) return new ReforgerPermissionError(command, line);
    if (line === "Player not found" || line === "Not Valid Player ID") return new ReforgerPlayerNotFoundError(command, line);
    if (line === "User not found!") return new ReforgerBanNotFoundError(command, line);
    if (
      /^(Not Valid time value in seconds|Not Valid page number|Page not found!|Failed to (create|remove|list) (the )?bans?\.|Unknown error\.|Timeout|Command is supported only on Dedicated Servers)$/.test(line) ||
      /^unknown command/i.test(line)
    )
      return new ReforgerCommandError(command, line);
  }
  return null;
}

const unconfirmed = (command: string, text: string) =>
  new ReforgerCommandError(command, text, text.trim() === "" ? `the server did not answer ${command}` : `the server's answer to ${command} was not understood: "${firstLine(text)}"`);
const firstLine = (text: string) => (answerLines(text)[0] ?? text).slice(0, 200);

/**
 * The rows of a "Players on server:" table, from one answer or several messages joined. Rows
 * before the header are taken too (a message may come out of order); a player number seen twice
 * is kept once. null when the answer holds no header (so an empty server is [] and a lost answer
 * is not).
 */
export function parsePlayers(text: string): ReforgerPlayer[] | null {
  let header = false;
  const seen = new Set<number>();
  const players: ReforgerPlayer[] = [];
  for (const line of answerLines(text)) {
    if (PLAYERS_HEADER.test(line)) {
      header = true;
      continue;
    }
    const m = PLAYER_ROW.exec(line);
    if (!m) continue;
    const player_id = Number(m[1]);
    if (!Number.isSafeInteger(player_id) || seen.has(player_id)) continue;
    seen.add(player_id);
    players.push({ player_id, uid: m[2]!, name: m[3]!.trim() });
  }
  return header ? players : null;
}

export interface ReforgerBanPage {
  total: number;
  page: number;
  pages: number;
  bans: ReforgerBan[];
}

/** One page of #ban list [scr]; null when the answer is not a ban list. */
export function parseBanList(text: string): ReforgerBanPage | null {
  const lines = answerLines(text);
  if (lines.some((l) => l === "Server has no bans to list.")) return { total: 0, page: 1, pages: 0, bans: [] };
  let head: { total: number; page: number; pages: number } | null = null;
  const bans: ReforgerBan[] = [];
  for (const line of lines) {
    const h = /^Total bans:\s*(\d+)\s*\|\s*Page:\s*(\d+)\s*\/\s*(\d+)$/.exec(line);
    if (h) {
      head = { total: Number(h[1]), page: Number(h[2]), pages: Number(h[3]) };
      continue;
    }
    if (/^-\s*Identity Id\s*\|\s*Banned name$/i.test(line)) continue;
    const row = /^-\s*(\S+)\s*\|\s?(.*)$/.exec(line);
    if (row) bans.push({ uid: row[1]!, name: row[2]!.trim() });
  }
  return head ? { ...head, bans } : null;
}

// Waits chosen per command (docs/rcon.md): #ban goes through Bohemia's backend before answering.
const PLAYERS_WAIT: RconCommandOptions = { timeoutMs: 10_000, settleMs: 3_000 };
const BACKEND_WAIT: RconCommandOptions = { timeoutMs: 20_000, settleMs: 15_000 };
const SHORT_WAIT: RconCommandOptions = { timeoutMs: 10_000, settleMs: 1_000 };

/** `#players` → the roster. */
export async function players(rcon: RconCommander, opts: RconCommandOptions = {}): Promise<ReforgerPlayer[]> {
  const command = "#players";
  const text = await rcon.command(command, { ...PLAYERS_WAIT, ...opts });
  const list = parsePlayers(text);
  if (list) return list;
  throw refusal(command, answerLines(text)) ?? unconfirmed(command, text);
}

/**
 * `#kick <playerId>` → the server's confirmation ("Player 'Name' kicked!"). The game's #kick
 * takes no reason [scr]: `reason` is not sent (keep it in your own record).
 */
export async function kick(rcon: RconCommander, playerId: number, _reason?: string, opts: RconCommandOptions = {}): Promise<string> {
  if (!Number.isSafeInteger(playerId) || playerId < 1) throw new RangeError(`a player id is a whole number from 1, not ${playerId}`);
  const command = `#kick ${playerId}`;
  const text = await rcon.command(command, { ...SHORT_WAIT, ...opts });
  return confirmed(command, text, /^Player '.*' kicked!$/);
}

/** The reason as one line of single-spaced words (the game joins its words with one space). */
export function banReason(reason: string): string {
  return reason.replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, " ").trim();
}

export const MAX_BAN_REASON_BYTES = 512;

/**
 * `#ban create <playerId | identityId> <seconds> <reason>` (0 seconds = permanent) → the server's
 * confirmation ("Player 'Name' banned!"). A number bans the player now on the server by their
 * player number (and so kicks them); a string must be an identity id (a player offline). A player
 * name is never sent: the game would take it as a name to look up.
 */
export async function banCreate(rcon: RconCommander, target: number | string, seconds: number, reason: string, opts: RconCommandOptions = {}): Promise<string> {
  if (typeof target === "number") {
    if (!Number.isSafeInteger(target) || target < 1) throw new RangeError(`a player id is a whole number from 1, not ${target}`);
  } else if (!isIdentityId(target)) throw new RangeError(`"${target}" is not an identity id (36 characters, dashes at 8, 13, 18, 23)`);
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new RangeError(`a ban lasts a whole number of seconds from 0 (permanent), not ${seconds}`);
  const why = banReason(reason);
  if (Buffer.byteLength(why, "utf8") > MAX_BAN_REASON_BYTES) throw new RangeError(`a ban reason of at most ${MAX_BAN_REASON_BYTES} bytes`);
  const command = `#ban create ${target} ${seconds}${why ? ` ${why}` : ""}`;
  const text = await rcon.command(command, { ...BACKEND_WAIT, ...opts });
  return confirmed(command, text, /^Player '.*' banned!$/);
}

/** `#ban remove <identityId>` → "Ban removed!"; ReforgerBanNotFoundError when there is no such ban. */
export async function banRemove(rcon: RconCommander, uid: string, opts: RconCommandOptions = {}): Promise<string> {
  if (!isIdentityId(uid)) throw new RangeError(`"${uid}" is not an identity id`);
  const command = `#ban remove ${uid}`;
  const text = await rcon.command(command, { ...BACKEND_WAIT, ...opts });
  return confirmed(command, text, /^Ban removed!$/);
}

/** At most this many pages of 25 are read (1,000 bans). */
export const MAX_BAN_PAGES = 40;

/** `#ban list`, every page (25 a page over RCON [wiki]) → the bans the server holds. */
export async function banList(rcon: RconCommander, opts: RconCommandOptions & { maxPages?: number } = {}): Promise<ReforgerBan[]> {
  const maxPages = opts.maxPages ?? MAX_BAN_PAGES;
  const bans: ReforgerBan[] = [];
  for (let page = 1; ; page++) {
    const command = page === 1 ? "#ban list" : `#ban list ${page}`;
    const text = await rcon.command(command, { ...BACKEND_WAIT, ...opts });
    const got = parseBanList(text);
    if (!got) throw refusal(command, answerLines(text)) ?? unconfirmed(command, text);
    bans.push(...got.bans);
    if (page >= got.pages) return bans;
    if (page >= maxPages) throw new ReforgerCommandError(command, `Total bans: ${got.total}`, `the server holds ${got.total} bans, more than ${maxPages} pages`);
  }
}

/** `#shutdown`: the server process stops (a supervisor may start it again, with no bans [wiki]). */
export async function shutdown(rcon: RconCommander, opts: RconCommandOptions = {}): Promise<void> {
  await actionCommand(rcon, "#shutdown", opts);
}

/** `#restart`: the scenario restarts, the clients stay connected [wiki]. */
export async function restartScenario(rcon: RconCommander, opts: RconCommandOptions = {}): Promise<void> {
  await actionCommand(rcon, "#restart", opts);
}

/** A command whose success says nothing: only a refusal is read. */
async function actionCommand(rcon: RconCommander, command: string, opts: RconCommandOptions): Promise<void> {
  const text = await rcon.command(command, { ...SHORT_WAIT, ...opts });
  const err = refusal(command, answerLines(text));
  if (err) throw err;
}

function confirmed(command: string, text: string, ok: RegExp): string {
  const lines = answerLines(text);
  const yes = lines.find((l) => ok.test(l));
  if (yes) return yes;
  throw refusal(command, lines) ?? unconfirmed(command, text);
}
