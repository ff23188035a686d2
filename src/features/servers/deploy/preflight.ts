// Pre-flight for the pair list + server (docs/deploy.md "Pre-flight for the target
// server"): the findings that stop a broken restart before anything is written. Reads the
// catalog (scenarios by gameId, versions with gameVersion, sizes), the items read from the mods'
// data.pak (mod_items), what the last connection test or deploy read from the server's config
// (config-seen.ts), and the server's game version (game-version.ts: A2S, else the live source).
// Its statements are in repository.ts.
import type { Database } from "bun:sqlite";
import type { Deps } from "../../../deps";
import { addModLabel, dependencyClosure, dependencyEdges, listItems } from "../../lists";
import type { ServerRow } from "../repository";
import { configIssues, configSeen, storedConfig, type ConfigSeen, type StoredIssue } from "./config-seen";
import { DeployError } from "./errors";
import { compareGameVersions, majorMinor, serverGameVersion, versionParts, type GameVersion } from "./game-version";
import * as repo from "./repository";
import { fileNameOf, type RenameKey } from "./target";

/**
 * The base game's own scenarios (not provided by any mod), by resource GUID. Sources: the
 * default scenario list of soda3x/ArmaReforgerServerTool (Models/ToolProperties.cs,
 * DEFAULT_SCENARIOS) and emeraldhost/documentation
 * (en/gameserver/arma-reforger/change-scenario.md); docs/deploy.md cites them.
 */
export const BASE_GAME_SCENARIOS: ReadonlyMap<string, string> = new Map([
  ["ECC61978EDCC2B5A", "Conflict - Everon"],
  ["002AF7323E0129AF", "Training"],
  ["90F086877C27B6F6", "Tutorial"],
  ["59AD59368755F41A", "Game Master - Everon"],
  ["2BBBE828037C6F4B", "Game Master - Arland"],
  ["F45C6C15D31252E6", "Game Master - Kolguyev"],
  ["C700DB41F0C546E1", "Conflict - Northern Everon"],
  ["28802845ADA64D52", "Conflict - Southern Everon"],
  ["94992A3D7CE4FF8A", "Conflict - Western Everon"],
  ["FDE33AFE2ED7875B", "Conflict - Montignac"],
  ["DAA03C6E6099D50F", "Combat Ops - Arland"],
  ["C41618FD18E9D714", "Conflict - Arland"],
  ["DFAC5FABD11F2390", "Combat Ops - Everon"],
  ["3F2E005F43DBD2F8", "Capture & Hold - Briars Coast"],
  ["F1A1BEA67132113E", "Capture & Hold - Montfort Castle"],
  ["589945FB9FA7B97D", "Capture & Hold - Concrete Plant"],
  ["9405201CBD22A30C", "Capture & Hold - Almara Factory"],
  ["1CD06B409C6FAE56", "Capture & Hold - Simon's Wood"],
  ["7C491B1FCC0FF0E1", "Capture & Hold - Le Moule"],
  ["6EA2E454519E5869", "Capture & Hold - Camp Blake"],
  ["2B4183DF23E88249", "Capture & Hold - Morton"],
  ["C47A1A6245A13B26", "Elimination"],
  ["0648CDB32D6B02B3", "Air Support"],
  ["0220741028718E7F", "Conflict: HQ Commander - Everon"],
  ["68D1240A11492545", "Conflict: HQ Commander - Arland"],
  ["BB5345C22DD2B655", "Conflict: HQ Commander - Kolguyev"],
  ["10B8582BAD9F7040", "Operation Omega 01: Over The Hills And Far Away"],
  ["1D76AF6DC4DF0577", "Operation Omega 02: Radio Check"],
  ["D1647575BCEA5A05", "Operation Omega 03: Light In The Dark"],
  ["6D224A109B973DD8", "Operation Omega 04: Red Silence"],
  ["FA2AB0181129CB16", "Operation Omega 05: Cliffhanger"],
  ["CB347F2F10065C9C", "Combat Ops - Kolguyev"],
]);

/** The one-click (or by-hand) fix shown beside a finding. */
export type PreflightFix =
  /** `adds`: the mod and the dependencies of it the list lacks (adding it with its dependencies adds them all). */
  | { action: "add_mod"; label: string; workshop_id: string; adds: string[] }
  | { action: "pin_version"; label: string; workshop_id: string; version: string }
  | { action: "choose_scenario"; label: string }
  | ({ action: "rename_key"; label: string } & RenameKey);

export interface Finding {
  kind: string;
  severity: "error" | "warning" | "info";
  message: string;
  mods: string[];
  /** config_invalid: the key's path in the server's config, and where it stands */
  path?: string;
  line?: number;
  fix?: PreflightFix;
}

/** The server kinds: only these block a deploy (list-level findings never do). */
export const SERVER_KINDS = new Set(["scenario_missing", "scenario_unknown", "game_version_newer", "game_version_older", "file_conflict", "download", "config_invalid"]);

/**
 * The config's issues as findings (kind `config_invalid`): what the game refuses at start is an
 * error (it blocks the deploy like the other errors), what it reads but may misread (a duplicated
 * key, an id written as a too-long number) a warning. A misspelt or legacy key gets the rename as
 * its fix; `renamed` are the renames the deploy will make (their findings are resolved).
 */
export function configFindings(issues: readonly StoredIssue[], fileName: string, renamed: readonly RenameKey[] = []): Finding[] {
  return issues
    .filter((i) => !(i.fix && renamed.some((r) => r.path === i.fix!.path && r.from === i.fix!.from && r.to === i.fix!.to)))
    .map((i) => ({
      kind: "config_invalid",
      severity: i.fatal ? ("error" as const) : ("warning" as const),
      message: `${fileName} line ${i.line}: ${i.message}${i.fatal ? `${i.message.endsWith("?") ? " As it is," : ";"} the server would refuse to start with it` : ""}`,
      mods: [],
      path: i.path,
      line: i.line,
      ...(i.fix ? { fix: { action: "rename_key" as const, label: `Rename "${i.fix.from}" to "${i.fix.to}"`, path: i.fix.path, from: i.fix.from, to: i.fix.to } } : {}),
    }));
}

export interface DownloadSummary {
  full_bytes: number;
  full_mods: number;
  /** null while the server's current mods are unknown. */
  change_bytes: number | null;
  change_new: number | null;
  change_updated: number | null;
}

export interface ServerReport {
  server_id: string;
  server_name: string;
  scenario_id: string | null;
  scenario_name: string | null;
  config_read_at: number | null;
  game_version: string | null;
  game_version_from: "a2s" | "live" | null;
  game_version_note: string | null;
  download: DownloadSummary;
  findings: Finding[];
}

// ---- sizes in words

export function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} GB`;
  if (n >= 1e6) return `${Math.round(n / 1e6)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} KB`;
  return `${n} bytes`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// ---- the check

interface Installed {
  workshop_id: string;
  name: string;
  /** The version the deploy installs: its pin, else the latest. */
  version: string;
  pinned: boolean;
  position: number;
}

/**
 * The server findings for deploying `listId` to a server whose config is `config` (null: not read
 * yet); `renamed`: the keys the deploy renames (their config findings are resolved).
 */
export function serverFindings(
  deps: Pick<Deps, "sqlite">,
  listId: string,
  server: Pick<ServerRow, "id" | "name" | "file_path">,
  config: ConfigSeen | null,
  gv: GameVersion,
  renamed: readonly RenameKey[] = [],
): ServerReport {
  const sqlite = deps.sqlite;
  const items = listItems(sqlite, listId);
  const installed: Installed[] = items.map((i) => ({
    workshop_id: i.workshop_id,
    name: i.name,
    version: i.pinned_version ?? i.version,
    pinned: i.pinned_version !== null,
    position: i.position,
  }));
  const listIds = items.map((i) => i.workshop_id);
  const closure = listIds.length ? dependencyClosure(sqlite, listIds) : [];
  const inClosure = new Set(closure.map((id) => id.toUpperCase()));
  const versions = repo.versionRows(sqlite, closure);
  const byMod = new Map<string, typeof versions>();
  for (const v of versions) (byMod.get(v.workshop_id) ?? byMod.set(v.workshop_id, []).get(v.workshop_id)!).push(v);
  const mods = new Map(repo.modRows(sqlite, closure).map((m) => [m.workshop_id, m]));
  const versionOf = (id: string, version: string) => byMod.get(id)?.find((v) => v.version === version);
  const gameVersionOf = (id: string, version: string) => versionOf(id, version)?.game_version ?? (mods.get(id)?.version === version ? mods.get(id)?.game_version : null) ?? null;
  const sizeOf = (id: string, version: string) => versionOf(id, version)?.size_bytes ?? mods.get(id)?.size_bytes ?? 0;

  const findings: Finding[] = [];
  let scenarioName: string | null = null;

  // The config itself: what the game refuses at start (checked as the server checks it).
  if (config?.issues) findings.push(...configFindings(config.issues, fileNameOf(server.file_path), renamed));

  // Scenario: base game, a mod of the list (or its dependencies), a catalog mod not in it, or unknown.
  const scenarioId = config?.scenario_id ?? null;
  if (scenarioId) {
    const guid = /^\{([0-9A-Fa-f]{16})\}/.exec(scenarioId)?.[1]?.toUpperCase() ?? null;
    const base = guid ? BASE_GAME_SCENARIOS.get(guid) : undefined;
    if (base) scenarioName = base;
    else {
      const providers = repo.scenarioProviders(sqlite, scenarioId, guid);
      if (providers.length === 0) {
        findings.push({
          kind: "scenario_unknown",
          severity: "warning",
          message: `The server's scenario ${scenarioId} is neither one of the base game's nor a scenario of any mod in the catalog; check the scenarioId`,
          mods: [],
          fix: { action: "choose_scenario", label: "Choose another scenario" },
        });
      } else {
        scenarioName = providers[0]!.scenario_name;
        if (!providers.some((p) => inClosure.has(p.workshop_id.toUpperCase()))) {
          const p = providers[0]!;
          // Adding it with its dependencies also adds those the list lacks.
          const adds = [p.workshop_id, ...dependencyClosure(sqlite, [p.workshop_id]).filter((id) => id.toUpperCase() !== p.workshop_id.toUpperCase() && !inClosure.has(id.toUpperCase()))];
          findings.push({
            kind: "scenario_missing",
            severity: "error",
            message: `The server's scenario "${p.scenario_name}" comes from ${p.mod_name}, which is neither in the list nor among its dependencies: the server could not start it`,
            mods: providers.map((x) => x.workshop_id),
            fix: { action: "add_mod", label: addModLabel(p.mod_name, adds.length - 1), workshop_id: p.workshop_id, adds },
          });
        }
      }
    }
  }

  // Game version: the version each mod would install against what the server runs.
  if (gv.game_version) {
    const serverGv = gv.game_version;
    for (const m of installed) {
      const built = gameVersionOf(m.workshop_id, m.version);
      if (!built) continue;
      if (compareGameVersions(built, serverGv) > 0) {
        const fitting = byMod.get(m.workshop_id)?.find((v) => v.game_version && compareGameVersions(v.game_version, serverGv) <= 0);
        findings.push({
          kind: "game_version_newer",
          severity: "error",
          message: `${m.name} ${m.version} was published for game version ${built}, newer than the server's ${serverGv}: the server would refuse to load it${fitting ? `; ${fitting.version} was built for ${fitting.game_version}` : "; update the server"}`,
          mods: [m.workshop_id],
          ...(fitting ? { fix: { action: "pin_version" as const, label: `Pin ${m.name} to ${fitting.version}`, workshop_id: m.workshop_id, version: fitting.version } } : {}),
        });
      } else if (versionParts(built).length >= 2 && versionParts(serverGv).length >= 2 && compareGameVersions(majorMinor(built), majorMinor(serverGv)) < 0) {
        findings.push({
          kind: "game_version_older",
          severity: "warning",
          message: `${m.name} ${m.version} was built for game version ${built}, older than the server's ${majorMinor(serverGv)}: it may not work until its author updates it`,
          mods: [m.workshop_id],
        });
      }
    }
  }

  // File conflicts: resource paths read from the mods' data.pak, two mods of the list shipping the same one.
  findings.push(...fileConflicts(sqlite, listId, installed));

  const download = downloadSummary(closure, installed, config, mods, sizeOf);
  findings.push({ kind: "download", severity: "info", message: downloadWords(download), mods: [] });

  return {
    server_id: server.id,
    server_name: server.name,
    scenario_id: scenarioId,
    scenario_name: scenarioName,
    config_read_at: config?.read_at ?? null,
    game_version: gv.game_version,
    game_version_from: gv.from,
    game_version_note: gv.note,
    download,
    findings,
  };
}

function fileConflicts(sqlite: Database, listId: string, installed: Installed[]): Finding[] {
  if (installed.length < 2) return [];
  const rows = repo.itemPathRows(sqlite, installed.map((m) => m.workshop_id));
  // Per mod: the items of the version it would install, else of the version read last.
  const chosen = new Map<string, { version: string; scanned_at: number }>();
  const want = new Map(installed.map((m) => [m.workshop_id, m.version]));
  for (const r of rows) {
    const c = chosen.get(r.workshop_id);
    if (c?.version === want.get(r.workshop_id)) continue;
    if (r.version === want.get(r.workshop_id) || !c || r.scanned_at > c.scanned_at) chosen.set(r.workshop_id, { version: r.version, scanned_at: r.scanned_at });
  }
  const owners = new Map<string, string[]>();
  for (const r of rows) {
    if (chosen.get(r.workshop_id)?.version !== r.version) continue;
    const o = owners.get(r.path) ?? owners.set(r.path, []).get(r.path)!;
    if (!o.includes(r.workshop_id)) o.push(r.workshop_id);
  }
  const pairs = new Map<string, string[]>();
  for (const [path, ids] of owners) {
    if (ids.length < 2) continue;
    for (let a = 0; a < ids.length; a++)
      for (let b = a + 1; b < ids.length; b++) {
        const key = [ids[a], ids[b]].sort().join(" ");
        (pairs.get(key) ?? pairs.set(key, []).get(key)!).push(path);
      }
  }
  if (pairs.size === 0) return [];
  // Neither depending on the other (transitively): a dependency overriding its base is by design.
  const edges = dependencyEdges(sqlite, listId);
  const deps = new Map<string, string[]>();
  for (const e of edges) (deps.get(e.workshop_id) ?? deps.set(e.workshop_id, []).get(e.workshop_id)!).push(e.depends_on_id);
  const reaches = (from: string, to: string) => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length) {
      const id = stack.pop()!;
      for (const d of deps.get(id) ?? []) {
        if (d === to) return true;
        if (!seen.has(d)) seen.add(d), stack.push(d);
      }
    }
    return false;
  };
  const byId = new Map(installed.map((m) => [m.workshop_id, m]));
  const out: Finding[] = [];
  for (const [key, paths] of pairs) {
    const [a, b] = key.split(" ").map((id) => byId.get(id)!) as [Installed, Installed];
    if (reaches(a.workshop_id, b.workshop_id) || reaches(b.workshop_id, a.workshop_id)) continue;
    const [first, later] = a.position <= b.position ? [a, b] : [b, a];
    paths.sort();
    const shown = paths.slice(0, 20);
    out.push({
      kind: "file_conflict",
      severity: "warning",
      message: `${first.name} and ${later.name} both ship ${plural(paths.length, "file")} (${shown.join(", ")}${paths.length > shown.length ? `, and ${paths.length - shown.length} more` : ""}); ${later.name} comes later in the mod order, so its copy is the one the game loads`,
      mods: [first.workshop_id, later.workshop_id],
    });
  }
  return out;
}

function downloadSummary(
  closure: string[],
  installed: Installed[],
  config: ConfigSeen | null,
  mods: Map<string, { version: string; size_bytes: number }>,
  sizeOf: (id: string, version: string) => number,
): DownloadSummary {
  const listed = new Map(installed.map((m) => [m.workshop_id.toUpperCase(), m]));
  // Everything a player needs: the list at the versions the deploy installs, plus the dependencies (latest).
  const needed = closure.map((id) => {
    const m = listed.get(id.toUpperCase());
    const version = m?.version ?? mods.get(id)?.version ?? "";
    return { id, version, pinned: m?.pinned ?? false, bytes: sizeOf(id, version) };
  });
  const full_bytes = needed.reduce((s, n) => s + n.bytes, 0);
  if (!config) return { full_bytes, full_mods: needed.length, change_bytes: null, change_new: null, change_updated: null };
  const current = new Map(config.mods.map((m) => [m.modId.toUpperCase(), m]));
  let change_bytes = 0;
  let change_new = 0;
  let change_updated = 0;
  for (const n of needed) {
    const had = current.get(n.id.toUpperCase());
    if (!had) {
      change_bytes += n.bytes;
      change_new++;
      continue;
    }
    // A pinned entry on either side that differs means a different version to fetch.
    const hadVersion = had.version ?? mods.get(n.id)?.version ?? "";
    if (hadVersion !== n.version) {
      change_bytes += n.bytes;
      change_updated++;
    }
  }
  return { full_bytes, full_mods: needed.length, change_bytes, change_new, change_updated };
}

/** The download summary in a player's words. */
export function downloadWords(d: DownloadSummary): string {
  const first = `A player who has none of these mods downloads ${formatBytes(d.full_bytes)} (${plural(d.full_mods, "mod")}) before joining.`;
  if (d.change_bytes === null) return `${first} What players of this server download for the change is not known until a connection test has read its config.`;
  if (d.change_new === 0 && d.change_updated === 0) return `${first} A player who has the server's current mods downloads nothing for this change.`;
  const what = [d.change_new ? `${d.change_new} new` : "", d.change_updated ? `${d.change_updated} updated` : ""].filter(Boolean).join(", ");
  return `${first} A player who has the server's current mods downloads ${formatBytes(d.change_bytes)} for this change (${what}).`;
}

/** The full report for the server as last read (GET check, the deploy route); `renamed`: keys the deploy will rename. */
export async function preflightForServer(deps: Deps, server: ServerRow, listId: string, renamed: readonly RenameKey[] = []): Promise<ServerReport> {
  const gv = await serverGameVersion(deps, server);
  const config = storedConfig(server);
  const report = serverFindings(deps, listId, server, config, gv, renamed);
  if (!config) {
    report.findings.unshift({
      kind: "server_config_unknown",
      severity: "info",
      message: "Loadout has not read this server's config yet, so its scenario is not checked; run a connection test",
      mods: [],
    });
  }
  if (!gv.game_version && gv.note) report.findings.push({ kind: "game_version_unknown", severity: "info", message: `The server's game version is unknown: ${gv.note}`, mods: [] });
  return report;
}

export const blockingFindings = (findings: readonly Finding[]) => findings.filter((f) => f.severity === "error" && SERVER_KINDS.has(f.kind));

/** The error of a deploy blocked by its pre-flight: every blocking finding, and how to go past it. */
export function blockedMessage(errors: readonly Finding[]): string {
  return `pre-flight for this server found ${plural(errors.length, "error")}, nothing was written: ${errors.map((f) => f.message).join("; ")}. Fix the list, or deploy with {"force": true}`;
}

/**
 * The deploy job's guard (the config it has just read, before the write): throws a DeployError
 * listing the blocking findings. Prepared before the connection, since the version query is async.
 */
export async function prepareDeployGuard(deps: Deps, server: ServerRow, listId: string): Promise<(current: string, next: string, fileName: string) => void> {
  const gv = await serverGameVersion(deps, server);
  return (current, next, fileName) => {
    let config: ConfigSeen | null;
    try {
      // The scenario and the mods as the server has them now; the config's own issues as it will
      // be written (the renames of this deploy made).
      config = { ...configSeen(current, fileName, Date.now()), issues: configIssues(next) };
    } catch {
      config = null; // the deploy itself says what is wrong with the file
    }
    const errors = blockingFindings(serverFindings(deps, listId, server, config, gv).findings);
    if (errors.length) throw new DeployError(blockedMessage(errors));
  };
}
