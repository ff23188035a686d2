// The Pre-flight check tab: the server's findings, with a one-click fix for a missing dependency.
import { useMutation, useQuery } from "@tanstack/react-query";
import { bytes, num } from "../../app/format";
import { ErrorMessage, Notice, Skeleton } from "../../ui/components";
import { addMod } from "../lists.services";
import { listQueries, useListRefresh } from "../lists.queries";
import { listTab, type ListTabProps } from "./tab";

function Check({ list, share }: ListTabProps) {
  const refresh = useListRefresh(list.id);
  const check = useQuery(listQueries.check(list.id, share));
  const fix = useMutation({
    mutationFn: async (ids: string[]) => {
      for (const id of ids) await addMod(list.id, id, true);
    },
    onSuccess: refresh,
  });
  if (check.isLoading) return <Skeleton />;
  if (check.error) return <ErrorMessage error={check.error} retry={() => check.refetch()} />;
  const c = check.data!;
  return (
    <section className="stack" aria-label="Pre-flight check">
      {c.ok ? (
        <Notice kind="ok">Ready to deploy: {num(c.mod_count)} mods, {bytes(c.total_download_size_bytes)} to download.</Notice>
      ) : (
        <Notice kind="warn">Fix the problems below before deploying.</Notice>
      )}
      {c.findings.map((f, i) => (
        <div key={i} className={`alert ${f.severity === "error" ? "error" : f.severity === "warning" ? "warn" : "info"}`}>
          <p style={{ margin: 0 }}>
            <strong>{f.severity}</strong>: {f.message}
          </p>
          {f.kind === "missing_dependency" && f.mods.length > 0 && list.my_access.can_add && (
            // mods[0] is the missing one; the rest are the mods that require it
            <button type="button" className="btn" onClick={() => fix.mutate([f.mods[0]!])} disabled={fix.isPending}>
              Add the missing mods
            </button>
          )}
        </div>
      ))}
      <ErrorMessage error={fix.error} />
    </section>
  );
}

export const checkTab = listTab({ id: "check", label: "Pre-flight check", open: () => true, Component: Check });
