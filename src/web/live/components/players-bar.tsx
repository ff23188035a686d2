import { num } from "../../app/format";

/** Players against the limit: a bar, and the numbers beside it (never under its marker), for everyone. */
export function PlayersBar({ players, limit }: { players: number; limit: number }) {
  const pct = limit > 0 ? Math.min(100, Math.round((players / limit) * 100)) : 0;
  return (
    <div className="players" title={`${players} of ${limit} players`}>
      <div className="players-bar" aria-hidden="true">
        <div className="players-bar-fill" style={{ width: `${pct}%` }} />
      </div>
      <span className="players-text">
        {num(players)}/{num(limit)}
      </span>
    </div>
  );
}
