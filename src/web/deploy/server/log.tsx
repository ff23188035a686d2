// The Moderation log tab: every kick, ban and lift on this server, and what Loadout did by itself
// (bans given again after a restart, bans run out), newest first, with the game server's answer when
// it was not "ok".
import { Link } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { dateTime } from "../../app/format";
import { DataTable, ErrorMessage, Skeleton } from "../../ui/components";
import { banLength } from "../components/moderation";
import type { LogEntry } from "../players.services";
import { serverQueries } from "../server.queries";
import type { ServerTabProps } from "./tab";

const ACTIONS: Record<LogEntry["action"], string> = {
  kick: "kicked",
  ban: "banned",
  unban: "ban lifted",
  reapplied: "ban given again",
  expired: "ban ran out",
};

export default function Log({ serverId }: ServerTabProps) {
  const log = useQuery(serverQueries.log(serverId));
  if (log.isLoading) return <Skeleton lines={4} label="Loading the moderation log" />;
  if (log.error) return <ErrorMessage error={log.error} retry={() => log.refetch()} />;
  return (
    <section className="card stack" aria-labelledby="log-h">
      <h2 id="log-h" style={{ margin: 0 }}>
        Moderation log
      </h2>
      <p className="muted small" style={{ margin: 0 }}>
        What people did here, and what Loadout did by itself (&ldquo;Loadout&rdquo; as who): a ban given again when the game server had forgotten it, a ban that ran
        out. When the game server did not answer &ldquo;ok&rdquo;, its words are kept.
      </p>
      <DataTable
        caption="Moderation on this server, newest first"
        compact
        empty="Nothing yet: kicks, bans and lifts appear here."
        rows={log.data!}
        rowKey={(e) => e.id}
        columns={[
          { header: "When", cell: (e) => dateTime(e.created_at) },
          { header: "What", cell: (e) => ACTIONS[e.action] },
          {
            header: "Player",
            cell: (e) =>
              e.uid ? (
                <Link to="/my-servers/$id/players/$uid" params={{ id: serverId, uid: e.uid }}>
                  {e.name ?? e.uid}
                </Link>
              ) : (
                (e.name ?? "–")
              ),
          },
          { header: "By", cell: (e) => (e.actor === "loadout" ? "Loadout" : e.actor.display_name) },
          { header: "Reason", cell: (e) => e.reason || "–" },
          { header: "Length", cell: (e) => (e.duration_s === null ? "–" : banLength(e.duration_s)) },
          {
            header: "Server's answer",
            cell: (e) => (e.result === "ok" ? "ok" : <span className="error-text">Failed: {e.result}</span>),
          },
        ]}
      />
    </section>
  );
}
