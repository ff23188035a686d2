// The Pre-flight check tab: the list's findings in the one severity model of the server page
// (deploy/components/preflight.tsx: what stops a deploy at the top, warnings, notes; fixes that say
// what they do); "Check against server…" (for my servers, when I may deploy the list) adds the
// server's findings (scenario, game version, config, file conflicts, what players download).
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ErrorMessage, SelectField, Skeleton } from "../../ui/components";
import { Findings, ServerPreflight } from "../../deploy/components/preflight";
import { servers } from "../../deploy/my-servers.services";
import { listQueries } from "../lists.queries";
import type { ListTabProps } from "./tab";

export default function Check({ list, share }: ListTabProps) {
  const canDeploy = list.my_access.can_deploy && !list.my_access.via_share;
  const mine = useQuery({ queryKey: ["servers"], queryFn: ({ signal }) => servers(signal), enabled: canDeploy });
  const [serverId, setServerId] = useState("");
  const check = useQuery(listQueries.check(list.id, share));
  if (check.isLoading) return <Skeleton label="Checking the list" />;
  if (check.error) return <ErrorMessage error={check.error} retry={() => check.refetch()} />;
  const hasServers = canDeploy && (mine.data ?? []).length > 0;
  const picker = hasServers && (
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
        <ServerPreflight listId={list.id} serverId={serverId} canFix={list.my_access.can_add && !list.my_access.via_share} level={2} />
      </section>
    );
  return (
    <section className="stack" aria-label="Pre-flight check">
      {picker}
      {hasServers && <p className="muted small flush">What only a server can tell (its scenario, game version and config) is checked against one of your servers.</p>}
      <Findings listId={list.id} report={check.data!} serverName={null} canEdit={list.my_access.can_add && !list.my_access.via_share} level={2} />
    </section>
  );
}
