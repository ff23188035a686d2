// The Moderators tab (the owner's): who moderates this server (sees its players, bans and log, kicks
// and bans, lifts their own bans), adding one by e-mail, removing one.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dateTime } from "../../app/format";
import { ConfirmButton, DataTable, ErrorMessage, Field, FormCard, Skeleton } from "../../ui/components";
import { addModerator, removeModerator } from "../players.services";
import { serverQueries } from "../server.queries";
import type { ServerTabProps } from "./tab";

export default function Moderators({ serverId }: ServerTabProps) {
  const qc = useQueryClient();
  const list = useQuery(serverQueries.moderators(serverId));
  const [email, setEmail] = useState("");
  const add = useMutation({
    mutationFn: () => addModerator(serverId, email.trim()),
    onSuccess: (all) => {
      setEmail("");
      qc.setQueryData(serverQueries.moderators(serverId).queryKey, all);
    },
  });
  const remove = useMutation({
    mutationFn: (userId: string) => removeModerator(serverId, userId),
    onSuccess: () => void qc.invalidateQueries({ queryKey: serverQueries.moderators(serverId).queryKey }),
  });
  return (
    <div className="stack">
      <section className="card stack" aria-labelledby="mods-h">
        <h2 id="mods-h" style={{ margin: 0 }}>
          Moderators
        </h2>
        <p className="muted" style={{ margin: 0 }}>
          A moderator sees who is on and who was, the bans and the log; kicks and bans; and lifts their own bans. Nothing else of this server: no settings, no
          deploys, no credentials.
        </p>
        {list.isLoading && <Skeleton lines={2} label="Loading the moderators" />}
        <ErrorMessage error={list.error ?? remove.error} retry={() => list.refetch()} />
        {list.data && (
          <DataTable
            caption="Moderators of this server"
            compact
            empty="Nobody moderates this server yet."
            rows={list.data}
            rowKey={(m) => m.user_id}
            columns={[
              { header: "Name", cell: (m) => m.display_name },
              { header: "Since", cell: (m) => dateTime(m.added_at) },
              {
                header: "Actions",
                hiddenHeader: true,
                num: true,
                cell: (m) => (
                  <ConfirmButton className="btn secondary small-btn" question={`Remove ${m.display_name} as a moderator?`} label={`Remove ${m.display_name}`} onConfirm={() => remove.mutate(m.user_id)} disabled={remove.isPending}>
                    Remove
                  </ConfirmButton>
                ),
              },
            ]}
          />
        )}
      </section>
      <FormCard id="add-mod-h" title="Add a moderator" onSubmit={() => add.mutate()}>
        <p className="muted" style={{ margin: 0 }}>
          They need an account here; they find the server under My servers.
        </p>
        <div className="row">
          <Field label="Their e-mail" type="email" autoComplete="off" style={{ width: "20rem" }} value={email} onChange={(e) => setEmail(e.target.value)} />
          <button type="submit" className="btn secondary" disabled={add.isPending || !email.trim()}>
            Add moderator
          </button>
        </div>
        <ErrorMessage error={add.error} />
      </FormCard>
    </div>
  );
}
