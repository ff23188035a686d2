import { num } from "../../app/format";

/** Players against the limit as a bar (the numbers are the bar's text, for everyone). */
export function PlayersBar({ players, limit }: { players: number; limit: number }) {
  const pct = limit > 0 ? Math.min(100, Math.round((players / limit) * 100)) : 0;
  return (
    <div className="players-bar" title={`${players} of ${limit} players`}>
      <div className="players-bar-fill" style={{ width: `${pct}%` }} />
      <span className="players-bar-text">
        {num(players)}/{num(limit)}
      </span>
    </div>
  );
}
