// Pre-flight for the target server (docs/deploy.md): the list's check against one of my servers
// (its scenario, its game version, files two mods both ship, what players download), errors first,
// each with its fix; the fixes that are one API call (add a mod, pin a version) are buttons. Used
// by the server page's deploy box and the list's Pre-flight check tab.
import { useMutation, useQuery } from "@tanstack/react-query";
import { ErrorMessage, Notice, Skeleton } from "../../ui/components";
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

const SEVERITY_WORD = { error: "Error", warning: "Warning", info: "Note" } as const;

export function FindingItem({ f, canFix, onFix, fixing, renamed }: { f: CheckFinding; canFix: boolean; onFix: (fix: Fix) => void; fixing: boolean; renamed?: boolean }) {
  const fix = f.fix;
  if (renamed && fix?.action === "rename_key")
    return (
      <li className="alert ok" style={{ listStyle: "none" }}>
        <p style={{ margin: 0 }}>
          <strong>Fixed at this deploy</strong>: <code>{fix.from}</code> will be renamed to <code>{fix.to}</code> in the server's config.
        </p>
      </li>
    );
  return (
    <li className={`alert ${f.severity === "error" ? "error" : f.severity === "warning" ? "warn" : "info"}`} style={{ listStyle: "none" }}>
      <p style={{ margin: 0 }}>
        <strong>{SEVERITY_WORD[f.severity]}</strong>: {f.message}
      </p>
      {fix && fix.action !== "choose_scenario" && canFix && (
        <button type="button" className="btn" style={{ marginTop: "0.5rem" }} disabled={fixing} onClick={() => onFix(fix)}>
          Fix: {fix.label}
        </button>
      )}
      {fix && (fix.action === "choose_scenario" || !canFix) && (
        <p style={{ margin: "0.25rem 0 0" }}>
          Fix: {fix.label}
          {fix.action === "choose_scenario" ? " (set game.scenarioId in the server's config, then run a connection test)" : ""}
        </p>
      )}
    </li>
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
}: {
  listId: string;
  serverId: string;
  canFix: boolean;
  renames?: readonly RenameKey[];
  onRename?: (r: RenameKey) => void;
}) {
  const refresh = useListRefresh(listId);
  const check = useQuery(listQueries.check(listId, undefined, serverId));
  const fix = useMutation({
    mutationFn: async (f: Fix) => {
      if (f.action === "add_mod") await addMod(listId, f.workshop_id, true);
      else if (f.action === "pin_version") await pinVersion(listId, f.workshop_id, f.version);
      else if (f.action === "rename_key") onRename?.({ path: f.path, from: f.from, to: f.to });
    },
    onSuccess: refresh,
  });
  if (check.isLoading) return <Skeleton />;
  if (check.error) return <ErrorMessage error={check.error} retry={() => check.refetch()} />;
  const c = check.data!;
  const errors = blockingErrors(c, renames);
  const download = c.findings.find((f) => f.kind === "download");
  const shown = c.findings.filter((f) => f.kind !== "download");
  return (
    <section className="stack" aria-label="Pre-flight for this server" style={{ minWidth: 0, overflowWrap: "anywhere" }}>
      {errors.length > 0 ? (
        <Notice kind="error">
          {errors.length === 1 ? "One problem" : `${errors.length} problems`} would stop {c.server?.server_name ?? "the server"} from starting with this list. Fix{" "}
          {errors.length === 1 ? "it" : "them"} first, or deploy anyway.
        </Notice>
      ) : (
        <Notice kind="ok">
          Pre-flight for {c.server?.server_name ?? "the server"}: nothing stops this deploy
          {c.server?.game_version ? ` (game version ${c.server.game_version}${c.server.game_version_from === "live" ? ", as the live server list last saw it" : ""})` : ""}.
        </Notice>
      )}
      {shown.length > 0 && (
        <ul className="stack" style={{ padding: 0, margin: 0 }} aria-label="Pre-flight findings">
          {shown.map((f, i) => (
            <FindingItem
              key={`${f.kind}-${i}`}
              f={f}
              canFix={canFix && (f.fix?.action !== "rename_key" || !!onRename)}
              fixing={fix.isPending}
              onFix={(x) => fix.mutate(x)}
              renamed={renamedBy(f, renames)}
            />
          ))}
        </ul>
      )}
      {download && (
        <p className="muted" aria-label="What players download" style={{ margin: 0 }}>
          {download.message}
        </p>
      )}
      <ErrorMessage error={fix.error} />
    </section>
  );
}
