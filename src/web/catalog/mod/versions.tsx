// The Versions tab: every version the catalog kept, newest first, with its changelog as text.
import { useQuery } from "@tanstack/react-query";
import { bytes, date } from "../../app/format";
import { ErrorMessage, Skeleton } from "../../ui/components";
import { modVersions } from "../catalog.services";
import type { ModTabProps } from "./tab";

export default function Versions({ id }: ModTabProps) {
  const v = useQuery({ queryKey: ["mod-versions", id], queryFn: ({ signal }) => modVersions(id, signal) });
  if (v.isLoading) return <Skeleton />;
  if (v.error) return <ErrorMessage error={v.error} retry={() => v.refetch()} />;
  return (
    <section aria-label="Versions" className="stack">
      {v.data!.map((x) => (
        <div className="card" key={x.version}>
          <h2 className="h3" style={{ marginTop: 0 }}>
            {x.version} <span className="muted small">{date(x.created_at)} · {bytes(x.size_bytes)}{x.game_version ? ` · game ${x.game_version}` : ""}</span>
          </h2>
          {x.changelog ? <div className="prose">{x.changelog}</div> : <p className="muted small">No changelog kept for this version.</p>}
        </div>
      ))}
    </section>
  );
}
