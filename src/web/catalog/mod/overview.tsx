// The Overview tab: the summary, how many servers and players use the mod now, its description
// and links (http(s) only), its licence and when it was last read from the workshop.
import { Link } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { count, dateTime, num, safeHref } from "../../app/format";
import { ErrorMessage } from "../../ui/components";
import { modStats } from "../catalog.services";
import type { ModTabProps } from "./tab";

export default function Overview({ mod }: ModTabProps) {
  const stats = useQuery({ queryKey: ["mod-stats", mod.workshop_id], queryFn: ({ signal }) => modStats(mod.workshop_id, signal) });
  return (
    <div className="stack">
      {mod.summary && <p>{mod.summary}</p>}
      <section className="card" aria-labelledby="now-h">
        <h2 id="now-h" style={{ marginTop: 0 }}>
          Live now
        </h2>
        {stats.data ? (
          <p>
            On <strong>{num(stats.data.used_by_servers_count)}</strong> {stats.data.used_by_servers_count === 1 ? "server" : "servers"} with{" "}
            <strong>{num(stats.data.players_using_count)}</strong> {stats.data.players_using_count === 1 ? "player" : "players"} (seen in the last hour) ·{" "}
            needs {count(stats.data.dependencies_count, "mod")} directly · needed by {count(stats.data.dependents_count, "mod")}.{" "}
            <Link to="/mods/$id" params={{ id: mod.workshop_id }} search={{ tab: "usage" }}>
              Usage over time
            </Link>
          </p>
        ) : (
          <ErrorMessage error={stats.error} />
        )}
      </section>
      <section aria-labelledby="desc-h">
        <h2 id="desc-h">Description</h2>
        {mod.description ? <div className="prose card">{mod.description}</div> : <p className="muted">No description.</p>}
      </section>
      {mod.external_links.length > 0 && (
        <section aria-labelledby="links-h">
          <h2 id="links-h">Links</h2>
          <ul>
            {mod.external_links.map((l) =>
              safeHref(l.url) ? (
                <li key={l.url}>
                  <a href={safeHref(l.url)} rel="noopener noreferrer nofollow">
                    {l.label}
                  </a>
                </li>
              ) : null,
            )}
          </ul>
        </section>
      )}
      <p className="muted small">
        {mod.license ? `License: ${mod.license}. ` : ""}Workshop ID <code>{mod.workshop_id}</code>. Last read from the workshop {dateTime(mod.scraped_at)}.
      </p>
    </div>
  );
}
