// The Pre-flight check tab: the list's findings, with a one-click fix for a missing dependency;
// "Check against server…" (for my servers, when I may deploy the list) adds the server's
// findings (scenario, game version, file conflicts, what players download) with their fixes.
import { useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { bytes, count, num } from "../../app/format";
import { ErrorMessage, Notice, SelectField, Skeleton } from "../../ui/components";
import { ServerPreflight } from "../../deploy/components/preflight";
import { servers } from "../../deploy/my-servers.services";
import { addMod } from "../lists.services";
import { listQueries, useListRefresh } from "../lists.queries";
import type { ListTabProps } from "./tab";

export default function Check({ list, share }: ListTabProps) {
  const refresh = useListRefresh(list.id);
  const canDeploy = list.my_access.can_deploy && !list.my_access.via_share;
  const mine = useQuery({ queryKey: ["servers"], queryFn: ({ signal }) => servers(signal), enabled: canDeploy });
  const [serverId, setServerId] = useState("");
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
  const picker = canDeploy && (mine.data ?? []).length > 0 && (
    <SelectField label="Check against server…" value={serverId} onChange={(e) => setServerId(e.target.value)}>
      <option value="">No server (the list alone)</option>
      {(mine.data ?? []).map((s) => (
        <option key={s.id} value={s.id}>
          {s.name}
        </option>
      ))}
    </SelectField>
  );
  if (serverId)
    return (
      <section className="stack" aria-label="Pre-flight check">
        {picker}
        <ServerPreflight listId={list.id} serverId={serverId} canFix={list.my_access.can_add} />
      </section>
    );
  return (
    <section className="stack" aria-label="Pre-flight check">
      {picker}
      {c.ok ? (
        <Notice kind="ok">Ready to deploy: {count(c.mod_count, "mod")}, {bytes(c.total_download_size_bytes)} to download.</Notice>
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
