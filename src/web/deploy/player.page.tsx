// One player on one of my servers (or one I moderate): the names they went by, their time on the
// server, every stay Loadout kept, and their bans; banning them from here (by their identity id,
// whether or not they are on).
import { useState } from "react";
import { Link, useParams } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { dateTime } from "../app/format";
import { useSession } from "../app/session";
import { DataTable, ErrorMessage, Notice, SignInFirst, Skeleton } from "../ui/components";
import { BanDialog, banLength, scopeWords, timeOn, useServerRole } from "./components/moderation";
import { serverQueries } from "./server.queries";

export function PlayerPage() {
  const { id, uid } = useParams({ from: "/my-servers/$id/players/$uid" });
  const { token } = useSession();
  const access = useServerRole(id);
  const p = useQuery({ ...serverQueries.player(id, uid), enabled: !!access.role });
  const bans = useQuery({ ...serverQueries.bans(id), enabled: !!access.role });
  const [banning, setBanning] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  if (!token) return <SignInFirst next={`/my-servers/${id}/players/${uid}`} what="your servers' players" />;
  if (access.loading || p.isLoading) return <Skeleton lines={6} label="Loading the player" />;
  if (!access.role) return <ErrorMessage error={access.error} retry={access.retry} />;
  if (p.error) return <ErrorMessage error={p.error} retry={() => p.refetch()} />;
  const player = p.data!;
  const name = player.names[0]?.name ?? uid;
  const theirs = (bans.data ?? []).filter((b) => b.uid === uid);
  const banned = theirs.some((b) => b.active);
  return (
    <article className="stack">
      <div>
        <p className="muted small" style={{ margin: 0 }}>
          <Link to="/my-servers/$id" params={{ id }} search={{ tab: "players" }}>
            Players of {access.name}
          </Link>
        </p>
        <h1>{name}</h1>
        <p className="muted break-anywhere" style={{ margin: 0 }}>
          Identity id {player.uid}
        </p>
      </div>
      <section className="card stack" aria-labelledby="facts-h">
        <h2 id="facts-h" style={{ margin: 0 }}>
          On {access.name}
        </h2>
        <dl className="facts">
          <dt>Time on the server</dt>
          <dd>{timeOn(player.total_seconds)} in all</dd>
          <dt>Stays</dt>
          <dd>{player.sessions.length}</dd>
          <dt>Now</dt>
          <dd>{player.sessions.some((s) => !s.left_at) ? "on the server" : "not on the server"}</dd>
          <dt>Banned</dt>
          <dd>{banned ? "yes (below)" : "no"}</dd>
        </dl>
        {done && <Notice kind="ok">{done}</Notice>}
        <div>
          <button type="button" className="btn danger" onClick={() => (setDone(null), setBanning(true))}>
            Ban {name}
          </button>
        </div>
        {banning && (
          <BanDialog serverId={id} target={{ name, uid }} owner={access.role === "owner"} onClose={() => setBanning(false)} onDone={(m) => (setBanning(false), setDone(m))} />
        )}
      </section>
      <section className="card stack" aria-labelledby="names-h">
        <h2 id="names-h" style={{ margin: 0 }}>
          Names
        </h2>
        <DataTable
          caption="The names this player went by, the latest first"
          rows={player.names}
          rowKey={(n) => n.name}
          columns={[
            { header: "Name", cell: (n) => n.name },
            { header: "First seen", cell: (n) => dateTime(n.first_seen) },
            { header: "Last seen", cell: (n) => dateTime(n.last_seen) },
          ]}
        />
      </section>
      <section className="card stack" aria-labelledby="bans-h">
        <h2 id="bans-h" style={{ margin: 0 }}>
          Bans
        </h2>
        <ErrorMessage error={bans.error} retry={() => bans.refetch()} />
        <DataTable
          caption="This player's bans, newest first"
          compact
          empty="Never banned here."
          rows={theirs}
          rowKey={(b) => b.id}
          columns={[
            { header: "Status", cell: (b) => (b.active ? "in force" : b.lifted_at ? `lifted ${dateTime(b.lifted_at)}` : `ran out ${dateTime(b.expires_at)}`) },
            { header: "Reason", cell: (b) => b.reason },
            { header: "Length", cell: (b) => banLength(b.duration_s) },
            { header: "Until", cell: (b) => (b.expires_at ? dateTime(b.expires_at) : "never") },
            { header: "By", cell: (b) => b.created_by_name ?? "–" },
            { header: "Where", cell: (b) => scopeWords(b) },
          ]}
        />
        <p className="muted small" style={{ margin: 0 }}>
          <Link to="/my-servers/$id" params={{ id }} search={{ tab: "bans" }}>
            All bans of {access.name}
          </Link>
        </p>
      </section>
      <section className="card stack" aria-labelledby="stays-h">
        <h2 id="stays-h" style={{ margin: 0 }}>
          Stays
        </h2>
        <DataTable
          caption="This player's stays on the server, newest first"
          compact
          empty="No stay kept."
          rows={player.sessions}
          rowKey={(s) => s.joined_at}
          columns={[
            { header: "Joined", cell: (s) => dateTime(s.joined_at) },
            { header: "Left", cell: (s) => (s.left_at ? dateTime(s.left_at) : "still on") },
            { header: "Name", cell: (s) => s.name },
            { header: "Time", num: true, cell: (s) => timeOn(s.seconds) },
          ]}
        />
      </section>
    </article>
  );
}
