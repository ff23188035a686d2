// Pre-flight (docs/deploy.md), in one severity model wherever it is shown (the list's Pre-flight
// tab, alone or against one of my servers, and the deploy box): what stops the deploy is said
// once, at the top, in words, with its fix; what does not is grouped apart as warnings, then
// notes. What stops a deploy is the server's rule (each finding's `blocks_deploy`, the one its 409
// uses), never a list of kinds here. Mods are named by name; their workshop ids are a detail
// under each finding. A fix says what it does ("Add Quartermaster Optics and 3 more"); where
// several findings have the same kind of fix, one button does them all ("Add all 4 missing mods").
import { useId } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { bytes, count } from "../../app/format";
import { ErrorMessage, Skeleton } from "../../ui/components";
import { addMod, pinVersion, type CheckFinding, type CheckReport } from "../../lists/lists.services";
import { listQueries, useListRefresh } from "../../lists/lists.queries";

type Fix = NonNullable<CheckFinding["fix"]>;
/** A key of the server's config the deploy will rename (a finding's `rename_key` fix). */
export type RenameKey = { path: string; from: string; to: string };

const renamedBy = (f: CheckFinding, renames: readonly RenameKey[]) => {
  const fix = f.fix;
  return fix?.action === "rename_key" && renames.some((r) => r.path === fix.path && r.from === fix.from && r.to === fix.to);
};

/** What stops a deploy, as the server says (`blocks_deploy`), less what the deploy's renames fix. */
export const blockingErrors = (c: CheckReport | undefined, renames: readonly RenameKey[] = []) =>
  (c?.findings ?? []).filter((f) => f.blocks_deploy && !renamedBy(f, renames));

/** The findings in their three groups (the download is said apart, in a player's words). */
export function groupFindings(c: CheckReport, renames: readonly RenameKey[] = []) {
  const shown = c.findings.filter((f) => f.kind !== "download");
  return {
    stops: shown.filter((f) => f.blocks_deploy && !renamedBy(f, renames)),
    renamed: shown.filter((f) => renamedBy(f, renames)),
    warnings: shown.filter((f) => !f.blocks_deploy && f.severity !== "info"),
    notes: shown.filter((f) => !f.blocks_deploy && f.severity === "info"),
    download: c.findings.find((f) => f.kind === "download") ?? null,
  };
}

/** One button for several fixes of one kind: what it is called and what it does. */
function groupLabel(action: Fix["action"], fixes: Fix[]): string {
  if (action === "add_mod") {
    const n = new Set(fixes.flatMap((f) => (f.action === "add_mod" ? f.adds : []))).size;
    return `Add all ${n} missing mods`;
  }
  if (action === "pin_version") return `Pin all ${fixes.length} mods to the versions named`;
  return `Rename all ${fixes.length} keys at this deploy`;
}

/** Fixes of a kind that appears more than once in `findings` (they get one button together). */
function groupedActions(findings: CheckFinding[]): Map<Fix["action"], Fix[]> {
  const by = new Map<Fix["action"], Fix[]>();
  for (const f of findings) if (f.fix && f.fix.action !== "choose_scenario") (by.get(f.fix.action) ?? by.set(f.fix.action, []).get(f.fix.action)!).push(f.fix);
  for (const [k, v] of by) if (v.length < 2) by.delete(k);
  return by;
}

interface FixProps {
  /** May the caller make the fixes (add mods, pin: the list's rights; renames: only the deploy box)? */
  canFix: (fix: Fix) => boolean;
  fixing: boolean;
  onFix: (fixes: Fix[]) => void;
}

/** A finding's workshop ids and its place in the config: details, after the words. */
function Details({ f }: { f: CheckFinding }) {
  const parts = [f.path ? `key ${f.path}${f.line ? `, line ${f.line}` : ""}` : "", f.mods.length ? `workshop id${f.mods.length > 1 ? "s" : ""} ${f.mods.join(", ")}` : ""].filter(Boolean);
  if (parts.length === 0) return null;
  return <p className="finding-details mono">{parts.join(" · ")}</p>;
}

function FixLine({ f, grouped, props }: { f: CheckFinding; grouped: boolean; props: FixProps }) {
  const fix = f.fix;
  if (!fix) return null;
  if (fix.action === "choose_scenario")
    return <p className="finding-fix">To fix: {fix.label}: set game.scenarioId in the server's config, then run a connection test.</p>;
  if (grouped) return null; // the group's button above does it
  if (!props.canFix(fix)) return <p className="finding-fix">To fix: {fix.label}{fix.action === "rename_key" ? " (at a deploy from the server's page)" : " (someone who may edit the list can)"}.</p>;
  return (
    <button type="button" className="btn secondary" disabled={props.fixing} onClick={() => props.onFix([fix])}>
      {fix.label}
    </button>
  );
}

function FindingList({ label, findings, kind, grouped, props }: { label: string; findings: CheckFinding[]; kind: "stop" | "warn" | "note"; grouped: Map<Fix["action"], Fix[]>; props: FixProps }) {
  return (
    <ul className={`findings ${kind}`} aria-label={label}>
      {findings.map((f, i) => (
        <li key={`${f.kind}-${i}`}>
          <p className="finding-text">{f.message}</p>
          <Details f={f} />
          <FixLine f={f} grouped={!!f.fix && grouped.has(f.fix.action)} props={props} />
        </li>
      ))}
    </ul>
  );
}

function GroupButtons({ grouped, props }: { grouped: Map<Fix["action"], Fix[]>; props: FixProps }) {
  const shown = [...grouped].filter(([, fixes]) => fixes.every(props.canFix));
  if (shown.length === 0) return null;
  return (
    <div className="row">
      {shown.map(([action, fixes]) => (
        <button key={action} type="button" className="btn secondary" disabled={props.fixing} onClick={() => props.onFix(fixes)}>
          {groupLabel(action, fixes)}
        </button>
      ))}
    </div>
  );
}

/**
 * A check report in the severity model: the summary (what stops the deploy, or that nothing
 * does), the warnings, the notes, what players download. `server`: the server it was checked
 * against (null: the list alone).
 */
export function Findings({
  listId,
  report: c,
  serverName,
  canEdit,
  renames = [],
  onRename,
  level = 3,
}: {
  listId: string;
  report: CheckReport;
  /** The level of the groups' headings (2 where no heading of the page's is above them, as in the list's tab). */
  level?: 2 | 3;
  serverName: string | null;
  /** The caller may add and pin mods of the list. */
  canEdit: boolean;
  renames?: readonly RenameKey[];
  /** Given in the deploy box: a rename fix adds the rename to the deploy. */
  onRename?: (r: RenameKey) => void;
}) {
  const refresh = useListRefresh(listId);
  const fix = useMutation({
    mutationFn: async (fixes: Fix[]) => {
      // Adding a mod with its dependencies adds what its fix `adds`: a later fix of the group that
      // one of them covers is done already.
      const added = new Set<string>();
      const widestFirst = [...fixes].sort((a, b) => (b.action === "add_mod" ? b.adds.length : 0) - (a.action === "add_mod" ? a.adds.length : 0));
      for (const f of widestFirst) {
        if (f.action === "add_mod") {
          if (added.has(f.workshop_id)) continue;
          await addMod(listId, f.workshop_id, true);
          for (const id of f.adds) added.add(id);
        }
        else if (f.action === "pin_version") await pinVersion(listId, f.workshop_id, f.version);
        else if (f.action === "rename_key") onRename?.({ path: f.path, from: f.from, to: f.to });
      }
    },
    // What was added before a failure is in the list too: the check reads it anew either way.
    onSettled: refresh,
  });
  const g = groupFindings(c, renames);
  const props: FixProps = {
    canFix: (x) => (x.action === "rename_key" ? !!onRename : x.action !== "choose_scenario" && canEdit),
    fixing: fix.isPending,
    onFix: (xs) => fix.mutate(xs),
  };
  const stopGroups = groupedActions(g.stops);
  const warnGroups = groupedActions(g.warnings);
  const where = serverName ? `the deploy to ${serverName}` : "the deploy";
  const id = useId();
  const H = level === 2 ? "h2" : "h3";
  const gv = c.server?.game_version ? ` (game version ${c.server.game_version}${c.server.game_version_from === "live" ? ", as the live server list last saw it" : ""})` : "";
  const rest = g.warnings.length ? ` ${count(g.warnings.length, "warning")} below ${g.warnings.length === 1 ? "does" : "do"} not stop it.` : "";
  return (
    <div className="stack preflight">
      {g.stops.length > 0 ? (
        <div className="alert error preflight-stops">
          <p className="preflight-head">
            {g.stops.length === 1 ? "1 problem stops " : `${g.stops.length} problems stop `}
            {where}: fix {g.stops.length === 1 ? "it" : "them"} first{onRename ? ", or deploy anyway" : ""}.
          </p>
          <GroupButtons grouped={stopGroups} props={props} />
          <FindingList label="What stops the deploy" findings={g.stops} kind="stop" grouped={stopGroups} props={props} />
        </div>
      ) : (
        <div className="alert ok">
          <p className="preflight-head">
            {serverName ? (
              <>
                Pre-flight for {serverName}: nothing stops this deploy{gv}.{rest}
              </>
            ) : g.warnings.length ? (
              <>
                Nothing in the list stops a deploy ({count(c.mod_count, "mod")}, {bytes(c.total_download_size_bytes)} to download).{rest}
              </>
            ) : (
              <>
                Ready to deploy: {count(c.mod_count, "mod")}, {bytes(c.total_download_size_bytes)} to download. Nothing in the list stops a deploy.
              </>
            )}
          </p>
        </div>
      )}
      {g.renamed.length > 0 && (
        <ul className="findings fixed" aria-label="Fixed at this deploy">
          {g.renamed.map((f, i) =>
            f.fix?.action === "rename_key" ? (
              <li key={i}>
                <p className="finding-text">
                  <span aria-hidden="true">✓ </span>
                  <strong>Fixed at this deploy:</strong> <code>{f.fix.from}</code> will be renamed to <code>{f.fix.to}</code> in the server's config.
                </p>
              </li>
            ) : null,
          )}
        </ul>
      )}
      {g.warnings.length > 0 && (
        <section className="stack preflight-group" aria-labelledby={`${id}-warn`}>
          <H id={`${id}-warn`} className="preflight-title">
            <span aria-hidden="true">⚠ </span>Warnings ({g.warnings.length}): {g.warnings.length === 1 ? "it does" : "they do"} not stop the deploy
          </H>
          <GroupButtons grouped={warnGroups} props={props} />
          <FindingList label="Warnings" findings={g.warnings} kind="warn" grouped={warnGroups} props={props} />
        </section>
      )}
      {g.notes.length > 0 && (
        <section className="stack preflight-group" aria-labelledby={`${id}-note`}>
          <H id={`${id}-note`} className="preflight-title">
            Notes ({g.notes.length})
          </H>
          <FindingList label="Notes" findings={g.notes} kind="note" grouped={new Map()} props={props} />
        </section>
      )}
      {g.download && (
        <p className="muted" aria-label="What players download" style={{ margin: 0 }}>
          {g.download.message}
        </p>
      )}
      <ErrorMessage error={fix.error} />
    </div>
  );
}

/**
 * The check of `listId` against `serverId`, as a deploy would meet it. A rename fix is made by the
 * deploy itself (in the same write): with `onRename` its button adds the rename to the deploy.
 */
export function ServerPreflight({
  listId,
  serverId,
  canFix,
  renames = [],
  onRename,
  level,
}: {
  listId: string;
  serverId: string;
  canFix: boolean;
  level?: 2 | 3;
  renames?: readonly RenameKey[];
  onRename?: (r: RenameKey) => void;
}) {
  const check = useQuery(listQueries.check(listId, undefined, serverId));
  if (check.isLoading) return <Skeleton label="Checking the list against the server" />;
  if (check.error) return <ErrorMessage error={check.error} retry={() => check.refetch()} />;
  const c = check.data!;
  return (
    <section className="stack" aria-label="Pre-flight for this server" style={{ minWidth: 0, overflowWrap: "anywhere" }}>
      <Findings listId={listId} report={c} serverName={c.server?.server_name ?? "the server"} canEdit={canFix} renames={renames} onRename={onRename} level={level} />
    </section>
  );
}
