// The Players tab: who is on now (the roster Loadout reads over RCON, asked again every 10 s), how
// long each has been on, a link to each player's page, kick and ban; whether the roster is current,
// in words; and who was on in the last 24 hours, as a timeline and as a table (the timeline's text).
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { count, dateTime } from "../../app/format";
import { DataTable, Empty, ErrorMessage, Notice, Skeleton } from "../../ui/components";
import { BanDialog, KickDialog, timeOn, type Target } from "../components/moderation";
import type { PlayerSession, Roster } from "../players.services";
import { ROSTER_REFRESH_MS, serverQueries } from "../server.queries";
import type { ServerTabProps } from "./tab";
import { RconStatus } from "./rcon";

const timeOfDay = new Intl.DateTimeFormat(undefined, { timeStyle: "short" }); // as the rest of the app writes a time of day ("8:44 PM")
const clockTime = new Intl.DateTimeFormat(undefined, { timeStyle: "medium" });

export default function Players({ serverId, role, server }: ServerTabProps) {
  // The owner knows whether RCON is set; without it there is nothing to read (a moderator asks, and reads the API's answer).
  if (server && !server.rcon)
    return (
      <Empty title="No RCON yet">
        <p>
          Loadout reads who is on over the server's RCON.{" "}
          <Link to="/my-servers/$id" params={{ id: serverId }} search={{ tab: "deploy" }} hash="rcon-h">
            Set it up in Deploy and settings
          </Link>
          .
        </p>
      </Empty>
    );
  return (
    <div className="stack">
      <OnNow serverId={serverId} role={role} server={server} />
      <LastDay serverId={serverId} />
    </div>
  );
}

function OnNow({ serverId, role, server }: ServerTabProps) {
  const roster = useQuery(serverQueries.roster(serverId));
  // The owner sees the connection too (and its error), asked as often as the roster.
  const view = useQuery({ ...serverQueries.server(serverId), enabled: role === "owner", refetchInterval: ROSTER_REFRESH_MS });
  const rcon = (view.data ?? server)?.rcon ?? null;
  const [acting, setActing] = useState<{ kind: "kick" | "ban"; target: Target } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  return (
    <section className="card stack" aria-labelledby="on-h">
      <h2 id="on-h" style={{ margin: 0 }}>
        On the server now
      </h2>
      {roster.isLoading && <Skeleton lines={3} label="Reading who is on" />}
      <ErrorMessage error={roster.error} retry={() => roster.refetch()} />
      {roster.data && <Freshness roster={roster.data} readAt={roster.dataUpdatedAt} />}
      {roster.data?.stale && rcon && rcon.status !== "connected" && <RconStatus rcon={rcon} />}
      {done && <Notice kind="ok">{done}</Notice>}
      {roster.data && (roster.data.fetched_at || roster.data.players.length > 0) && (
        <DataTable
          caption="Players on the server now"
          compact
          empty="Nobody is on."
          rows={roster.data.players}
          rowKey={(p) => p.uid}
          columns={[
            {
              header: "Player",
              cell: (p) => (
                <Link to="/my-servers/$id/players/$uid" params={{ id: serverId, uid: p.uid }}>
                  {p.name}
                </Link>
              ),
            },
            { header: "Number", num: true, cell: (p) => `#${p.player_id}` },
            { header: "On for", num: true, cell: (p) => timeOn((roster.dataUpdatedAt - Date.parse(p.joined_at)) / 1000) },
            { header: "Joined", cell: (p) => dateTime(p.joined_at) },
            {
              header: "Actions",
              hiddenHeader: true,
              num: true,
              cell: (p) => (
                <span className="row tight">
                  <button type="button" className="btn secondary small-btn" aria-label={`Kick ${p.name}`} onClick={() => (setDone(null), setActing({ kind: "kick", target: { name: p.name, player_id: p.player_id } }))}>
                    Kick
                  </button>
                  <button type="button" className="btn danger small-btn" aria-label={`Ban ${p.name}`} onClick={() => (setDone(null), setActing({ kind: "ban", target: { name: p.name, player_id: p.player_id } }))}>
                    Ban
                  </button>
                </span>
              ),
            },
          ]}
        />
      )}
      {acting?.kind === "kick" && <KickDialog serverId={serverId} target={acting.target} onClose={() => setActing(null)} onDone={(m) => (setActing(null), setDone(m))} />}
      {acting?.kind === "ban" && (
        <BanDialog serverId={serverId} target={acting.target} owner={role === "owner"} onClose={() => setActing(null)} onDone={(m) => (setActing(null), setDone(m))} />
      )}
    </section>
  );
}

/** Whether the roster is current, in words: when it was read, or why it is out of date. */
function Freshness({ roster, readAt }: { roster: Roster; readAt: number }) {
  if (!roster.fetched_at)
    return <Notice kind="warn">Not read yet: the roster comes once Loadout reaches the server over RCON.</Notice>;
  const ago = timeOn((readAt - Date.parse(roster.fetched_at)) / 1000);
  if (roster.stale)
    return (
      <Notice kind="warn">
        Out of date: RCON has not answered since {dateTime(roster.fetched_at)} ({ago} ago). The players below were on then.
      </Notice>
    );
  return (
    <p className="muted small" style={{ margin: 0 }}>
      {count(roster.count, "player")} on · read over RCON at {clockTime.format(new Date(roster.fetched_at))} · this list refreshes every {ROSTER_REFRESH_MS / 1000} seconds.
    </p>
  );
}

/** Who was on in the last 24 hours: a timeline (one row a player) and the same sessions as a table. */
function LastDay({ serverId }: { serverId: string }) {
  const sessions = useQuery(serverQueries.sessions(serverId));
  return (
    <section className="card stack" aria-labelledby="day-h">
      <h2 id="day-h" style={{ margin: 0 }}>
        The last 24 hours
      </h2>
      {sessions.isLoading && <Skeleton lines={3} label="Reading the sessions" />}
      <ErrorMessage error={sessions.error} retry={() => sessions.refetch()} />
      {sessions.data && sessions.data.length > 0 && <Timeline sessions={sessions.data} now={sessions.dataUpdatedAt} />}
      {sessions.data && (
        <DataTable
          caption="Sessions of the last 24 hours, newest first"
          compact
          empty="Nobody was on in the last 24 hours."
          rows={sessions.data}
          rowKey={(s) => `${s.uid} ${s.joined_at}`}
          columns={[
            {
              header: "Player",
              cell: (s) => (
                <Link to="/my-servers/$id/players/$uid" params={{ id: serverId, uid: s.uid }}>
                  {s.name}
                </Link>
              ),
            },
            { header: "Joined", cell: (s) => dateTime(s.joined_at) },
            { header: "Left", cell: (s) => (s.left_at ? dateTime(s.left_at) : "still on") },
            { header: "Time", num: true, cell: (s) => timeOn(s.seconds) },
          ]}
        />
      )}
    </section>
  );
}

const DAY_MS = 86_400_000;
const TIMELINE_ROWS = 25;

/**
 * The sessions on a 24-hour line, one row a player (the most recent first). A picture for the eye:
 * the table under it says the same in text, and the figure says so to screen readers.
 */
function Timeline({ sessions, now }: { sessions: PlayerSession[]; now: number }) {
  const from = now - DAY_MS;
  const rows = new Map<string, { name: string; spans: { left: number; width: number; open: boolean }[] }>();
  for (const s of sessions) {
    const start = Math.max(from, Date.parse(s.joined_at));
    const end = Math.min(now, s.left_at ? Date.parse(s.left_at) : now);
    if (end < from) continue;
    const row = rows.get(s.uid) ?? { name: s.name, spans: [] };
    row.spans.push({ left: ((start - from) / DAY_MS) * 100, width: Math.max(0.4, ((end - start) / DAY_MS) * 100), open: !s.left_at });
    rows.set(s.uid, row);
  }
  const shown = [...rows.values()].slice(0, TIMELINE_ROWS);
  const ticks = [0, 6, 12, 18, 24].map((h) => ({ at: (h / 24) * 100, label: h === 0 ? "24 h ago" : h === 24 ? "now" : timeOfDay.format(new Date(from + h * 3_600_000)) }));
  return (
    <figure className="timeline" aria-label={`Timeline of ${count(rows.size, "player")} over the last 24 hours; the table below lists the same sessions`}>
      <div aria-hidden="true">
        {shown.map((r, i) => (
          <div className="timeline-row" key={i}>
            <span className="timeline-name">{r.name}</span>
            <span className="timeline-track">
              {r.spans.map((s, j) => (
                <span key={j} className={s.open ? "timeline-bar open" : "timeline-bar"} style={{ left: `${s.left}%`, width: `${s.width}%` }} />
              ))}
            </span>
          </div>
        ))}
        <div className="timeline-row">
          <span className="timeline-name" />
          <span className="timeline-axis">
            {ticks.map((t) => (
              <span key={t.at} style={{ left: `${t.at}%` }}>
                {t.label}
              </span>
            ))}
          </span>
        </div>
      </div>
      <figcaption className="muted small">
        Each bar is a stay on the server; a bar that reaches the right edge with a marker is a player still on.
        {rows.size > TIMELINE_ROWS ? ` The ${TIMELINE_ROWS} most recent players are drawn; the table lists everyone.` : ""}
      </figcaption>
    </figure>
  );
}
