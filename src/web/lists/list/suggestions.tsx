// The Suggestions tab: players' suggestions with their answers, votes, accept or reject with a
// note, block a suggester; owners edit the form's questions.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dateTime } from "../../app/format";
import { ConfirmButton, Empty, ErrorMessage, Notice, SelectField, Skeleton } from "../../ui/components";
import { blockUser, review, vote } from "../lists.services";
import { invalidateList, listQueries, useListRefresh } from "../lists.queries";
import { FormFields } from "./form-fields";
import type { ListTabProps } from "./tab";

export default function Suggestions({ list }: ListTabProps) {
  const refresh = useListRefresh(list.id);
  const qc = useQueryClient();
  const [status, setStatus] = useState<"pending" | "accepted" | "rejected">("pending");
  const [notes, setNotes] = useState<Record<string, string>>({});
  const all = useQuery(listQueries.suggestions(list.id));
  const fields = useQuery(listQueries.formFields(list.id));
  const labelOf = (fieldId: string) => fields.data?.find((f) => f.id === fieldId)?.label ?? "Answer";
  const again = () => void invalidateList.part(qc, listQueries.suggestions(list.id));
  const voteOn = useMutation({ mutationFn: (x: { id: string; v: 0 | 1 }) => vote(list.id, x.id, x.v), onSuccess: again });
  const decide = useMutation({
    mutationFn: (x: { id: string; status: "accepted" | "rejected" }) => review(list.id, x.id, x.status, notes[x.id] ?? ""),
    onSuccess: () => (again(), refresh()),
  });
  const block = useMutation({ mutationFn: (userId: string) => blockUser(list.id, userId), onSuccess: () => invalidateList.part(qc, listQueries.blocks(list.id)) });
  if (all.isLoading) return <Skeleton />;
  if (all.error) return <ErrorMessage error={all.error} retry={() => all.refetch()} />;
  const shown = all.data!.filter((x) => x.status === status).sort((a, b) => b.votes - a.votes);
  return (
    <section className="stack" aria-label="Suggestions">
      <div className="row">
        <SelectField label="Show" value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
          <option value="pending">Waiting ({all.data!.filter((x) => x.status === "pending").length})</option>
          <option value="accepted">Accepted</option>
          <option value="rejected">Rejected</option>
        </SelectField>
      </div>
      <ErrorMessage error={voteOn.error ?? decide.error ?? block.error} />
      {block.isSuccess && <Notice kind="ok">{block.data.display_name} can no longer suggest mods for this list (undo in Sharing).</Notice>}
      {shown.length === 0 ? (
        <Empty title={status === "pending" ? "No suggestions waiting" : `No ${status} suggestions`}>
          {status === "pending" ? "Share the suggestion link (Sharing) so players can propose mods." : null}
        </Empty>
      ) : (
        <ul className="stack" style={{ listStyle: "none", padding: 0 }}>
          {shown.map((x) => (
            <li key={x.id} className="card stack">
              <div>
                <strong>{x.mod_name ?? x.workshop_id}</strong> <span className="muted small">suggested by {x.display_name}, {dateTime(x.created_at)}</span>
              </div>
              {x.reason && <p className="prose">{x.reason}</p>}
              {Object.keys(x.form_answers).length > 0 && (
                <ul className="small">
                  {Object.entries(x.form_answers).map(([k, v]) => (
                    <li key={k}>
                      {labelOf(k)}: {typeof v === "boolean" ? (v ? "yes" : "no") : v}
                    </li>
                  ))}
                </ul>
              )}
              <div className="row" style={{ alignItems: "center" }}>
                <span>
                  {x.votes} {x.votes === 1 ? "vote" : "votes"}
                </span>
                <button type="button" className="btn secondary" onClick={() => voteOn.mutate({ id: x.id, v: x.voted ? 0 : 1 })} aria-pressed={x.voted}>
                  {x.voted ? "Retract my vote" : "Vote for it"}
                  <span className="sr-only"> ({x.mod_name ?? x.workshop_id})</span>
                </button>
              </div>
              {x.status === "pending" ? (
                <div className="row">
                  <div className="field" style={{ flex: "1 1 16rem" }}>
                    <label htmlFor={`note-${x.id}`}>Note to {x.display_name}</label>
                    <input id={`note-${x.id}`} maxLength={2000} value={notes[x.id] ?? ""} onChange={(e) => setNotes({ ...notes, [x.id]: e.target.value })} />
                  </div>
                  <button type="button" className="btn" onClick={() => decide.mutate({ id: x.id, status: "accepted" })} disabled={decide.isPending}>
                    Accept<span className="sr-only"> {x.mod_name ?? x.workshop_id}</span>
                  </button>
                  <button type="button" className="btn secondary" onClick={() => decide.mutate({ id: x.id, status: "rejected" })} disabled={decide.isPending}>
                    Reject<span className="sr-only"> {x.mod_name ?? x.workshop_id}</span>
                  </button>
                  {list.my_access.is_owner && (
                    <ConfirmButton question={`Block ${x.display_name} from suggesting mods for this list?`} label={`Block ${x.display_name}`} onConfirm={() => block.mutate(x.user_id)} disabled={block.isPending}>
                      Block
                    </ConfirmButton>
                  )}
                </div>
              ) : (
                <p className="muted small">
                  {x.status} {x.reviewed_at ? dateTime(x.reviewed_at) : ""}
                  {x.note ? `: ${x.note}` : ""}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
      {list.my_access.is_owner && <FormFields list={list} />}
    </section>
  );
}
