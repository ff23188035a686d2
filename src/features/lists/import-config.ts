// What an import does with the file's settings (docs/lists.md "What a file says is kept"):
// a mods-only file (the plain export's shape) leaves the remembered config alone; a full config
// is remembered when the list has none, and replaces the remembered one only when an owner asks
// for it (`config=replace`). Only owners compare, set or replace secrets: for anyone else the
// preview names the file's own secret keys and nothing of the remembered values. Every setting the
// game would refuse is named (warnings: an import never fails on them). Pure but for the load.
import type { Deps } from "../../deps";
import type { JsonDocument } from "../../shared/jsonc";
import { diffConfigs, setSecrets } from "./config-document";
import { checkGameConfig, type ConfigIssue } from "./game-config-check";
import { loadRemembered, type Remembered } from "./remembered-config";
import type { ImportFileKind } from "./server-json-format";

export type ConfigChoice = "keep" | "replace";
export type ConfigAction = "remember" | "replace" | "keep" | "none";

export interface ConfigPreview {
  /** What the file holds besides mods: a full config's settings, only mods, or nothing (the other shapes) */
  file: ImportFileKind;
  /** Whether the list remembers a config now */
  remembered: boolean;
  /** What applying the file (with the same `config=` choice, by this caller) does to the remembered config */
  action: ConfigAction;
  /** Whether the caller may replace the remembered config (owners) */
  may_replace: boolean;
  /** Settings whose value differs from the remembered ones (paths) */
  changed: string[];
  /** Settings the file has that the remembered config lacks */
  added: string[];
  /** Remembered settings the file lacks: removed if the file replaces the remembered config */
  removed: string[];
  /** Secrets by path only: for owners those that differ (`changed`), for anyone else those the file sets (`set_by_file`) */
  secrets: { path: string; state: "changed" | "set_by_file" }[];
  /** What the game would refuse or misread in the file's settings (it validates its config at start) */
  problems: PreviewProblem[];
}

export type PreviewProblem = Pick<ConfigIssue, "kind" | "path" | "fatal" | "message" | "line" | "column" | "fix" | "detail">;

export interface ConfigPlan {
  preview: ConfigPreview;
  /** Notes in words for the preview */
  notes: string[];
  /** The text to store on apply (remember or replace), else null: the remembered config stays */
  store: string | null;
  remembered: Remembered | null;
}

const list = (paths: string[], max = 8) => (paths.length <= max ? paths.join(", ") : `${paths.slice(0, max).join(", ")} and ${paths.length - max} more`);
const settingsWord = (n: number) => `${n} remembered setting${n === 1 ? "" : "s"}`;

/** Problems the game's own check finds in a file (shown with the import, never refusing it). */
export function problemsOf(doc: Pick<JsonDocument, "text" | "root">): PreviewProblem[] {
  return checkGameConfig(doc.text, doc.root).map(({ kind, path, fatal, message, line, column, fix, detail }) => ({
    kind,
    path,
    fatal,
    message,
    line,
    column,
    ...(fix ? { fix } : {}),
    ...(detail ? { detail } : {}),
  }));
}

export function planImportConfig(
  deps: Pick<Deps, "sqlite" | "secrets">,
  listId: string,
  file: { kind: ImportFileKind; document: JsonDocument | null },
  who: { mayReplace: boolean },
  choice: ConfigChoice | undefined,
): ConfigPlan {
  const remembered = file.kind === "none" ? null : loadRemembered(deps, listId);
  const preview: ConfigPreview = {
    file: file.kind,
    remembered: remembered !== null,
    action: "none",
    may_replace: who.mayReplace,
    changed: [],
    added: [],
    removed: [],
    secrets: [],
    problems: [],
  };
  const notes: string[] = [];
  const plan: ConfigPlan = { preview, notes, store: null, remembered };
  if (file.kind === "mods_only") {
    if (remembered) notes.push("the file holds only mods: the list's remembered server settings are kept as they are");
    return plan;
  }
  const doc = file.document;
  if (file.kind !== "settings" || !doc) return plan;
  preview.problems = problemsOf(doc);
  const fileSecrets = [...setSecrets(doc).keys()];

  if (!who.mayReplace) {
    // Not an owner: the remembered settings are compared, their secrets never.
    if (remembered) {
      const d = diffConfigs(remembered.doc, doc, { compareSecrets: false });
      Object.assign(preview, { changed: d.changed, added: d.added, removed: d.removed });
    }
    preview.secrets = fileSecrets.map((path) => ({ path, state: "set_by_file" as const }));
    preview.action = remembered ? "keep" : "none";
    notes.push(
      remembered
        ? "the file's server settings are not applied: only an owner of the list can change its remembered settings (the mods are imported)"
        : "the file's server settings are not stored: only an owner of the list can set its remembered settings (the mods are imported)",
    );
    for (const path of fileSecrets) notes.push(`${path}: set by the file; the remembered value is kept unless an owner applies it`);
    return plan;
  }

  if (!remembered) {
    preview.action = "remember";
    plan.store = doc.text;
    notes.push("the file's other settings (scenario, players, rcon, operating, ...) will be remembered with the list for the complete config export; its passwords are stored encrypted");
    return plan;
  }
  const d = diffConfigs(remembered.doc, doc, { compareSecrets: true });
  Object.assign(preview, { changed: d.changed, added: d.added, removed: d.removed });
  preview.secrets = d.secretsChanged.map((path) => ({ path, state: "changed" as const }));
  const differs = d.changed.length + d.added.length + d.removed.length + d.secretsChanged.length > 0;
  if (!differs) {
    preview.action = "keep";
    notes.push("the file's server settings are the ones the list remembers");
    return plan;
  }
  if (choice === "replace") {
    preview.action = "replace";
    plan.store = doc.text;
    if (d.removed.length) notes.push(`${settingsWord(d.removed.length)} will be removed: ${list(d.removed)}`);
    const changed = [...d.changed, ...d.secretsChanged];
    if (changed.length) notes.push(`${changed.length} setting${changed.length === 1 ? "" : "s"} will change: ${list(changed)}`);
    if (d.added.length) notes.push(`${d.added.length} setting${d.added.length === 1 ? "" : "s"} will be added: ${list(d.added)}`);
    return plan;
  }
  preview.action = "keep";
  const n = d.changed.length + d.added.length + d.removed.length + d.secretsChanged.length;
  notes.push(
    `the file's server settings differ from the remembered ones in ${n} place${n === 1 ? "" : "s"}; the remembered settings are kept unless you choose to replace them (config=replace)` +
      (d.removed.length ? `, which would remove ${settingsWord(d.removed.length)}: ${list(d.removed)}` : ""),
  );
  return plan;
}
