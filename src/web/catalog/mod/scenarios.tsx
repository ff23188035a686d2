// The Scenarios tab: the scenarios the mod brings, with their game ids.
import { useQuery } from "@tanstack/react-query";
import { count } from "../../app/format";
import { Empty, ErrorMessage, Skeleton } from "../../ui/components";
import { modMissions } from "../catalog.services";
import type { ModTabProps } from "./tab";

export default function Scenarios({ id }: ModTabProps) {
  const s = useQuery({ queryKey: ["mod-missions", id], queryFn: ({ signal }) => modMissions(id, signal) });
  if (s.isLoading) return <Skeleton />;
  if (s.error) return <ErrorMessage error={s.error} retry={() => s.refetch()} />;
  if (s.data!.missions.length === 0) return <Empty title="No scenarios">This mod brings no scenarios.</Empty>;
  return (
    <section className="grid" aria-label="Scenarios">
      {s.data!.missions.map((x) => (
        <div className="card" key={x.game_id}>
          <h2 className="h3" style={{ marginTop: 0 }}>
            {x.name}
          </h2>
          <p className="muted small">
            {x.game_mode ?? "Scenario"}
            {x.player_count ? ` · up to ${count(x.player_count, "player")}` : ""}
          </p>
          {x.description && <p className="prose">{x.description}</p>}
          <code className="small" style={{ overflowWrap: "anywhere" }}>
            {x.game_id}
          </code>
        </div>
      ))}
    </section>
  );
}
