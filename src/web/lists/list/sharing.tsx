// The Sharing tab (owners): public or private, the share and suggestion links, co-owners (the
// primary owner), collaborators and their rights, permission groups, blocked users.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dateTime } from "../../app/format";
import { ConfirmButton, DataTable, ErrorMessage, Field } from "../../ui/components";
import {
  addCoOwner,
  addCollaborator,
  removeCoOwner,
  removeCollaborator,
  resetShareToken,
  resetSuggestionToken,
  setCollaboratorRights,
  updateList,
  type Collaborator,
  type ListDetail,
} from "../lists.services";
import { invalidateList, listQueries, useListRefresh } from "../lists.queries";
import { Blocks, ListGroups } from "./access";
import type { ListTabProps } from "./tab";

function CopyField({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const id = label.toLowerCase().replace(/\W+/g, "-");
  return (
    <div className="row">
      <div className="field" style={{ flex: "1 1 20rem" }}>
        <label htmlFor={id}>{label}</label>
        <input id={id} readOnly value={value} className="mono" />
      </div>
      <button type="button" className="btn secondary" onClick={() => navigator.clipboard.writeText(value).then(() => setCopied(true), () => setCopied(false))}>
        {copied ? "Copied" : `Copy ${label.toLowerCase()}`}
      </button>
    </div>
  );
}

/** Co-owners manage the list like its owner, except deleting it and managing co-owners (primary owner only). */
function CoOwners({ list }: { list: ListDetail }) {
  const qc = useQueryClient();
  const owners = useQuery(listQueries.owners(list.id));
  const again = () => invalidateList.part(qc, listQueries.owners(list.id));
  const [search, setSearch] = useState("");
  const add = useMutation({ mutationFn: () => addCoOwner(list.id, search), onSuccess: () => (setSearch(""), again()) });
  const remove = useMutation({ mutationFn: (userId: string) => removeCoOwner(list.id, userId), onSuccess: again });
  return (
    <div className="card stack">
      <h2 style={{ marginTop: 0 }}>Co-owners</h2>
      <p className="muted">Co-owners may do everything but delete the list and choose co-owners.</p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <Field label="Co-owner's display name or e-mail" required value={search} onChange={(e) => setSearch(e.target.value)} />
        <button type="submit" className="btn" disabled={add.isPending}>
          Add co-owner
        </button>
      </form>
      <ErrorMessage error={add.error ?? remove.error ?? owners.error} />
      {owners.data && (
        <DataTable
          compact
          empty="No co-owners."
          caption="Co-owners"
          rows={owners.data}
          rowKey={(o) => o.user_id}
          columns={[
            { header: "Who", cell: (o) => o.display_name },
            { header: "Since", cell: (o) => dateTime(o.added_at) },
            {
              header: "Actions",
              hiddenHeader: true,
              cell: (o) => (
                <ConfirmButton question={`Remove ${o.display_name} as a co-owner?`} onConfirm={() => remove.mutate(o.user_id)} label={`Remove co-owner ${o.display_name}`}>
                  Remove
                </ConfirmButton>
              ),
            },
          ]}
        />
      )}
    </div>
  );
}

export default function Sharing({ list }: ListTabProps) {
  const refresh = useListRefresh(list.id);
  const qc = useQueryClient();
  const origin = typeof location === "undefined" ? "" : location.origin;
  const visibility = useMutation({ mutationFn: (is_public: boolean) => updateList(list.id, { is_public }), onSuccess: refresh });
  const share = useMutation({ mutationFn: () => resetShareToken(list.id), onSuccess: refresh });
  const suggestReset = useMutation({ mutationFn: () => resetSuggestionToken(list.id), onSuccess: refresh });
  const collab = useQuery(listQueries.collaborators(list.id));
  const refreshCollab = () => invalidateList.part(qc, listQueries.collaborators(list.id));
  const [search, setSearch] = useState("");
  const [rights, setRights] = useState({ can_add: true, can_remove: false, can_deploy: false });
  const add = useMutation({ mutationFn: () => addCollaborator(list.id, { search, ...rights }), onSuccess: () => (setSearch(""), refreshCollab()) });
  const update = useMutation({ mutationFn: (c: Collaborator) => setCollaboratorRights(list.id, c.user_id, c), onSuccess: refreshCollab });
  const remove = useMutation({ mutationFn: (userId: string) => removeCollaborator(list.id, userId), onSuccess: refreshCollab });
  const flag = (c: Collaborator, key: "can_add" | "can_remove" | "can_deploy", label: string) => (
    <label>
      <input type="checkbox" checked={c[key]} onChange={(e) => update.mutate({ ...c, [key]: e.target.checked })} style={{ minHeight: 0 }} /> {label}
      <span className="sr-only"> for {c.display_name}</span>
    </label>
  );
  return (
    <section className="stack" aria-label="Sharing">
      <div className="card stack">
        <h2 style={{ marginTop: 0 }}>Who can see it</h2>
        <p>
          This list is <strong>{list.is_public ? "public" : "private"}</strong>
          {list.is_public ? ": anyone can find and read it." : ": only you, its co-owners and collaborators, and people with the share link."}
        </p>
        <div>
          <button type="button" className="btn secondary" onClick={() => visibility.mutate(!list.is_public)} disabled={visibility.isPending}>
            {list.is_public ? "Make it private" : "Make it public"}
          </button>
        </div>
        <ErrorMessage error={visibility.error} />
        {list.share_token && <CopyField label="Share link" value={`${origin}/lists/${list.id}?share=${list.share_token}`} />}
        <div className="row">
          <ConfirmButton question="Reset the share link? The old link stops working at once." onConfirm={() => share.mutate()}>
            Reset the share link
          </ConfirmButton>
        </div>
        <ErrorMessage error={share.error} />
        {list.suggestion_token && (
          <>
            <CopyField label="Suggestion link" value={`${origin}/lists/${list.id}/suggest?token=${list.suggestion_token}`} />
            <p className="muted small">Anyone signed in with this link can suggest mods, even for a private list; they cannot see the list.</p>
            <div className="row">
              <ConfirmButton question="Reset the suggestion link? The old link stops working at once." onConfirm={() => suggestReset.mutate()}>
                Reset the suggestion link
              </ConfirmButton>
            </div>
            <ErrorMessage error={suggestReset.error} />
          </>
        )}
      </div>
      {list.my_access.is_primary && <CoOwners list={list} />}
      <div className="card stack">
        <h2 style={{ marginTop: 0 }}>Collaborators</h2>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <div className="field" style={{ flex: "1 1 16rem" }}>
            <label htmlFor="collab-search">Display name or e-mail</label>
            <input id="collab-search" required value={search} onChange={(e) => setSearch(e.target.value)} />
          </div>
          <fieldset className="row" style={{ border: "none", padding: 0, margin: 0 }}>
            <legend className="sr-only">Rights of the new collaborator</legend>
            {(["can_add", "can_remove", "can_deploy"] as const).map((k) => (
              <label key={k}>
                <input type="checkbox" checked={rights[k]} onChange={(e) => setRights({ ...rights, [k]: e.target.checked })} style={{ minHeight: 0 }} />{" "}
                {k === "can_add" ? "may add" : k === "can_remove" ? "may remove" : "may deploy"}
              </label>
            ))}
          </fieldset>
          <button type="submit" className="btn" disabled={add.isPending}>
            Add collaborator
          </button>
        </form>
        <ErrorMessage error={add.error ?? update.error ?? remove.error ?? collab.error} />
        {collab.data && (
          <DataTable
            compact
            empty="No collaborators yet."
            caption="Collaborators and their rights"
            rows={collab.data}
            rowKey={(c) => c.user_id}
            columns={[
              { header: "Who", cell: (c) => c.display_name },
              {
                header: "Rights",
                cell: (c) => (
                  <span className="row" style={{ gap: "1rem" }}>
                    {flag(c, "can_add", "add")}
                    {flag(c, "can_remove", "remove")}
                    {flag(c, "can_deploy", "deploy")}
                  </span>
                ),
              },
              {
                header: "Actions",
                hiddenHeader: true,
                cell: (c) => (
                  <ConfirmButton question={`Remove ${c.display_name} from this list?`} onConfirm={() => remove.mutate(c.user_id)} label={`Remove collaborator ${c.display_name}`}>
                    Remove
                  </ConfirmButton>
                ),
              },
            ]}
          />
        )}
      </div>
      <ListGroups list={list} />
      <Blocks list={list} />
    </section>
  );
}
