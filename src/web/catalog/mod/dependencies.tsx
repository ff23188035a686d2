// The Dependencies tab: what the mod needs, as a tree (a cycle marked and cut), with the sizes.
import { useMemo } from "react";
import { Link } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { bytes, count, num } from "../../app/format";
import type { ModDependencies } from "../../app/types";
import { Empty, ErrorMessage, Notice, Skeleton } from "../../ui/components";
import { modDeps } from "../catalog.services";
import type { ModTabProps } from "./tab";

/** The dependency tree from the flat graph: children by dependency_ids, a cycle marked and cut. */
function DepTree({ deps }: { deps: ModDependencies }) {
  const byId = useMemo(() => new Map(deps.dependencies.map((d) => [d.workshop_id, d])), [deps]);
  const cycle = useMemo(() => new Set(deps.cycle_edges.map(([a, b]) => `${a}>${b}`)), [deps]);
  const rootChildren = deps.dependencies.filter((d) => d.depth === 1).map((d) => d.workshop_id);
  const render = (ids: string[], parent: string, path: Set<string>) => (
    <ul>
      {ids.map((cid) => {
        const d = byId.get(cid);
        const isCycle = cycle.has(`${parent}>${cid}`) || path.has(cid);
        return (
          <li key={`${parent}>${cid}`}>
            {d?.in_catalog ? (
              <Link to="/mods/$id" params={{ id: cid }} search={{ tab: "dependencies" }}>
                {d.name || cid}
              </Link>
            ) : (
              <span>{d?.name || cid}</span>
            )}{" "}
            <span className="muted small">
              {d?.version ? `requires ${d.version} · ` : ""}
              {bytes(d?.size_bytes)}
              {d && !d.in_catalog ? " · not in the catalog yet" : ""}
            </span>
            {isCycle ? (
              <strong className="removed small"> ↻ cycle: depends back on an earlier mod</strong>
            ) : (
              d && d.dependency_ids.length > 0 && render(d.dependency_ids, cid, new Set([...path, cid]))
            )}
          </li>
        );
      })}
    </ul>
  );
  return <div className="tree card">{render(rootChildren, deps.workshop_id, new Set([deps.workshop_id]))}</div>;
}

export default function Dependencies({ id }: ModTabProps) {
  const d = useQuery({ queryKey: ["mod-deps", id], queryFn: ({ signal }) => modDeps(id, signal) });
  if (d.isLoading) return <Skeleton />;
  if (d.error) return <ErrorMessage error={d.error} retry={() => d.refetch()} />;
  const deps = d.data!;
  if (deps.dependencies.length === 0) return <Empty title="No dependencies">This mod needs no other mod.</Empty>;
  const direct = deps.dependencies.filter((x) => x.depth === 1).length;
  return (
    <section className="stack" aria-label="Dependencies">
      <p>
        Needs {count(deps.dependencies.length, "mod")}
        {direct < deps.dependencies.length ? ` (${num(direct)} directly, the others through them)` : direct === 1 ? "" : ", all directly"}, {bytes(deps.dependencies_size_bytes)}; with this mod{" "}
        <strong>{bytes(deps.total_size_bytes)}</strong> to download in all.
      </p>
      {deps.has_cycle && <Notice kind="warn">The dependencies form a cycle; it is marked below and cut where it closes.</Notice>}
      <DepTree deps={deps} />
    </section>
  );
}
