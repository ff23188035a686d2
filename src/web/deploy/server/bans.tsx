// The Bans tab: the bans covering this server, in force and ended (lifted or run out): who, why,
// how long, until when, by whom, where; lifting one (on every server it covers). Who may lift which
// is the API's to say: its {error} shows where Lift was pressed.
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dateTime } from "../../app/format";
import { ConfirmButton, DataTable, ErrorMessage, Notice, Skeleton } from "../../ui/components";
import { banLength, scopeWords } from "../components/moderation";
import { liftBan, type Ban } from "../players.services";
import { invalidateModeration, serverQueries } from "../server.queries";
import type { ServerTabProps } from "./tab";

export default function Bans({ serverId }: ServerTabProps) {
  const qc = useQueryClient();
  const bans = useQuery(serverQueries.bans(serverId));
  const [lifted, setLifted] = useState<string | null>(null);
  const lift = useMutation({
    mutationFn: (b: Ban) => liftBan(b.id).then(() => b),
    onSuccess: (b) => {
      setLifted(`The ban on ${b.name} is lifted.`);
      invalidateModeration(qc, serverId);
    },
  });
  if (bans.isLoading) return <Skeleton lines={4} label="Loading the bans" />;
  if (bans.error) return <ErrorMessage error={bans.error} retry={() => bans.refetch()} />;
  const active = bans.data!.filter((b) => b.active);
  const ended = bans.data!.filter((b) => !b.active);
  const player = (b: Ban) => (
    <Link to="/my-servers/$id/players/$uid" params={{ id: serverId, uid: b.uid }}>
      {b.name}
    </Link>
  );
  return (
    <div className="stack">
      <section className="card stack" aria-labelledby="active-h">
        <h2 id="active-h" style={{ margin: 0 }}>
          In force
        </h2>
        <p className="muted small" style={{ margin: 0 }}>
          Loadout's list is the one that counts: a ban the game server forgot (after a restart) is given again when RCON reconnects. Ban someone from the Players
          tab or their page.
        </p>
        <ErrorMessage error={lift.error} />
        {lifted && !lift.isPending && <Notice kind="ok">{lifted}</Notice>}
        <DataTable
          caption="Bans in force on this server, newest first"
          compact
          empty="Nobody is banned from this server."
          rows={active}
          rowKey={(b) => b.id}
          columns={[
            { header: "Player", cell: player },
            { header: "Reason", cell: (b) => b.reason },
            { header: "Length", cell: (b) => banLength(b.duration_s) },
            { header: "Until", cell: (b) => (b.expires_at ? dateTime(b.expires_at) : "never") },
            { header: "By", cell: (b) => b.created_by_name ?? "–" },
            { header: "Where", cell: (b) => scopeWords(b) },
            { header: "Given", cell: (b) => dateTime(b.created_at) },
            {
              header: "Actions",
              hiddenHeader: true,
              num: true,
              cell: (b) => (
                <ConfirmButton
                  className="btn secondary small-btn"
                  question={`Lift the ban on ${b.name}${b.scope === "all" ? " on every server it covers" : ""}?`}
                  label={`Lift the ban on ${b.name}`}
                  onConfirm={() => (setLifted(null), lift.mutate(b))}
                  disabled={lift.isPending}
                >
                  Lift
                </ConfirmButton>
              ),
            },
          ]}
        />
      </section>
      <section className="card stack" aria-labelledby="ended-h">
        <h2 id="ended-h" style={{ margin: 0 }}>
          Lifted or run out
        </h2>
        <DataTable
          caption="Bans that ended, newest first"
          compact
          empty="No ban has ended yet."
          rows={ended}
          rowKey={(b) => b.id}
          columns={[
            { header: "Player", cell: player },
            { header: "Reason", cell: (b) => b.reason },
            { header: "Length", cell: (b) => banLength(b.duration_s) },
            { header: "Ended", cell: (b) => (b.lifted_at ? `lifted ${dateTime(b.lifted_at)}` : `ran out ${dateTime(b.expires_at)}`) },
            { header: "By", cell: (b) => b.created_by_name ?? "–" },
            { header: "Where", cell: (b) => scopeWords(b) },
            { header: "Given", cell: (b) => dateTime(b.created_at) },
          ]}
        />
      </section>
    </div>
  );
}
