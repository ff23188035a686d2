// Pre-flight for the target server (docs/deploy.md): the list's check against one of my servers
// (its scenario, its game version, files two mods both ship, what players download), errors first,
// each with its fix; the fixes that are one API call (add a mod, pin a version) are buttons. Used
// by the server page's deploy box and the list's Pre-flight check tab.
import { useMutation, useQuery } from "@tanstack/react-query";
import { ErrorMessage, Notice, Skeleton } from "../../ui/components";
import { addMod, pinVersion, type CheckFinding, type CheckReport } from "../../lists/lists.services";
import { listQueries, useListRefresh } from "../../lists/lists.queries";

type Fix = NonNullable<CheckFinding["fix"]>;

/** The server findings that stop a deploy (list-level errors never do). */
const BLOCKING = new Set(["scenario_missing", "game_version_newer"]);
export const blockingErrors = (c: CheckReport | undefined) => (c?.findings ?? []).filter((f) => f.severity === "error" && BLOCKING.has(f.kind));

const SEVERITY_WORD = { error: "Error", warning: "Warning", info: "Note" } as const;

export function FindingItem({ f, canFix, onFix, fixing }: { f: CheckFinding; canFix: boolean; onFix: (fix: Fix) => void; fixing: boolean }) {
  const fix = f.fix;
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

/** The check of `listId` against `serverId`, as a deploy would meet it. */
export function ServerPreflight({ listId, serverId, canFix }: { listId: string; serverId: string; canFix: boolean }) {
  const refresh = useListRefresh(listId);
  const check = useQuery(listQueries.check(listId, undefined, serverId));
  const fix = useMutation({
    mutationFn: async (f: Fix) => {
      if (f.action === "add_mod") await addMod(listId, f.workshop_id, true);
      else if (f.action === "pin_version") await pinVersion(listId, f.workshop_id, f.version);
    },
    onSuccess: refresh,
  });
  if (check.isLoading) return <Skeleton />;
  if (check.error) return <ErrorMessage error={check.error} retry={() => check.refetch()} />;
  const c = check.data!;
  const errors = blockingErrors(c);
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
            <FindingItem key={`${f.kind}-${i}`} f={f} canFix={canFix} fixing={fix.isPending} onFix={(x) => fix.mutate(x)} />
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
