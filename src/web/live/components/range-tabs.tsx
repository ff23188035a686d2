// The chart ranges (24 h, 14 d, 365 d) as links: the range is in the URL, so a chart view can be
// shared and reloaded. The current one is marked for screen readers and styled as selected.
import { Link } from "@tanstack/react-router";
import type { ChartRange } from "../live.search";
import { RANGES } from "../live.services";

export function RangeTabs({ current, label = "Range" }: { current: ChartRange; label?: string }) {
  return (
    <nav className="range-tabs tabs" aria-label={label}>
      {RANGES.map((r) => (
        <Link
          key={r.key}
          to="."
          // Keep the page's other search params (pages of tables), change only the range.
          search={(s: Record<string, unknown>) => ({ ...s, range: r.key === "24h" ? undefined : r.key })}
          aria-current={r.key === current ? "page" : undefined}
          replace
        >
          {r.label}
        </Link>
      ))}
    </nav>
  );
}
