// A list's settings, for its owners: name, description and the age rule; where it is filed
// (folder, community) and its tags; the deploy approval gate with the requests waiting; deleting
// it (the primary owner only).
import { useState } from "react";
import { useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ConfirmButton, ErrorMessage, Field, Notice, SelectField, FormCard } from "../../ui/components";
import { dateTime } from "../../app/format";
import { decideRequest, listRequests, requireApproval } from "../../deploy/my-servers.services";
import { TagChip } from "../components/tag-chip";
import { invalidateList, organiseQueries } from "../lists.queries";
import type { ListTabProps } from "./tab";
import { ServerConfigCard } from "./server-config";
import { setCommunity } from "../communities.services";
import { deleteList, updateSettings, type ListDetail } from "../lists.services";
import { setFolder } from "../folders.services";
import { tagList, untagList } from "../tags.services";

export default function Settings({ list }: ListTabProps) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const refresh = () => {
    invalidateList.contents(qc, list.id);
    void invalidateList.collections(qc);
    void invalidateList.part(qc, organiseQueries.folders()); // their list counts
  };
  const [name, setName] = useState(list.name);
  const [description, setDescription] = useState(list.description);
  const [maxAge, setMaxAge] = useState(list.max_mod_age_days === null ? "" : String(list.max_mod_age_days));
  const save = useMutation({
    mutationFn: () => updateSettings(list.id, { name, description, max_mod_age_days: maxAge.trim() === "" ? null : Number(maxAge) }),
    onSuccess: refresh,
  });
  const folderList = useQuery({ ...organiseQueries.folders() });
  const communityList = useQuery({ ...organiseQueries.communities() });
  const tags = useQuery({ ...organiseQueries.tags() });
  const file = useMutation({
    mutationFn: (v: { folder?: string; community?: string }) =>
      v.folder !== undefined ? setFolder(list.id, v.folder || null) : setCommunity(list.id, v.community || null),
    onSuccess: refresh,
  });
  const tag = useMutation({ mutationFn: async (v: { id: string; on: boolean }) => void (v.on ? await tagList(list.id, v.id) : await untagList(list.id, v.id)), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: () => deleteList(list.id),
    onSuccess: async () => {
      await invalidateList.collections(qc);
      await navigate({ to: "/lists" });
    },
  });
  const onList = new Set(list.tags.map((t) => t.id));
  const folderKnown = !list.folder_id || folderList.data?.some((f) => f.id === list.folder_id);
  return (
    <div className="stack">
      <FormCard id="about-h" title="About this list" onSubmit={() => save.mutate()}>
        <Field label="Name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <Field label="Description" maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />
        <Field
          label="Oldest allowed mod (days since its last update)"
          hint="Adding a mod whose newest version is older is refused; empty means no limit."
          type="number"
          min={1}
          inputMode="numeric"
          value={maxAge}
          onChange={(e) => setMaxAge(e.target.value)}
        />
        <ErrorMessage error={save.error} />
        {save.isSuccess && !save.isPending && <Notice kind="ok">Saved.</Notice>}
        <div>
          <button type="submit" className="btn" disabled={save.isPending}>
            Save
          </button>
        </div>
      </FormCard>

      <ServerConfigCard list={list} />

      <section className="card stack" aria-labelledby="file-h">
        <h2 id="file-h" style={{ marginTop: 0 }}>
          Folder, community and tags
        </h2>
        <div className="row">
          <SelectField label="Folder" value={list.folder_id ?? ""} onChange={(e) => file.mutate({ folder: e.target.value })} disabled={file.isPending || !folderList.data}>
            <option value="">No folder</option>
            {!folderKnown && <option value={list.folder_id!}>Another owner's folder</option>}
            {(folderList.data ?? []).map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </SelectField>
          <SelectField label="Community" value={list.community_id ?? ""} onChange={(e) => file.mutate({ community: e.target.value })} disabled={file.isPending || !communityList.data}>
            <option value="">No community</option>
            {list.community_id && !communityList.data?.some((c) => c.id === list.community_id) && <option value={list.community_id}>A community you are not in</option>}
            {(communityList.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </SelectField>
        </div>
        <ErrorMessage error={file.error ?? folderList.error ?? communityList.error} />
        <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="small" style={{ fontWeight: 600 }}>
            Tags
          </legend>
          {list.tags.length > 0 && (
            <div>
              {list.tags.map((t) => (
                <span key={t.id} className="row" style={{ display: "inline-flex", alignItems: "center", gap: "0.25rem", marginRight: "0.75rem" }}>
                  <TagChip tag={t} />
                  <button type="button" className="btn link" onClick={() => tag.mutate({ id: t.id, on: false })} disabled={tag.isPending} aria-label={`Remove the tag ${t.name}`}>
                    remove
                  </button>
                </span>
              ))}
            </div>
          )}
          {(tags.data ?? []).filter((t) => !onList.has(t.id)).length > 0 ? (
            <div className="row">
              {(tags.data ?? [])
                .filter((t) => !onList.has(t.id))
                .map((t) => (
                  <button key={t.id} type="button" className="btn secondary" onClick={() => tag.mutate({ id: t.id, on: true })} disabled={tag.isPending} aria-label={`Add the tag ${t.name}`}>
                    + {t.name}
                  </button>
                ))}
            </div>
          ) : (
            <p className="muted small">Create tags on the lists page (Organise), then add them here.</p>
          )}
        </fieldset>
        <ErrorMessage error={tag.error ?? tags.error} />
      </section>

      <DeployApproval list={list} />

      {list.my_access.is_primary && (
        <section className="card stack" aria-labelledby="danger-h">
          <h2 id="danger-h" style={{ marginTop: 0 }}>
            Delete this list
          </h2>
          <p className="muted">Deletes the list, its mods, snapshots and history. Servers linked to it keep their current mods.</p>
          <div>
            <ConfirmButton question={`Delete ${list.name} for good?`} className="btn danger" onConfirm={() => remove.mutate()} disabled={remove.isPending}>
              Delete list
            </ConfirmButton>
          </div>
          <ErrorMessage error={remove.error} />
        </section>
      )}
    </div>
  );
}

/** The approval gate: while on, collaborators' deploys of this list wait here for an owner. */
export function DeployApproval({ list }: { list: ListDetail }) {
  const qc = useQueryClient();
  const reqs = useQuery({ queryKey: ["list-deploy-requests", list.id], queryFn: ({ signal }) => listRequests(list.id, signal) });
  const [notes, setNotes] = useState<Record<string, string>>({});
  // The box follows the click at once; a refused change puts it back.
  const [gated, setGated] = useState(list.require_deploy_approval);
  const gate = useMutation({
    mutationFn: (on: boolean) => requireApproval(list.id, on),
    onMutate: (on) => setGated(on),
    onError: (_e, on) => setGated(!on),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["list", list.id] }),
  });
  const decide = useMutation({
    mutationFn: (v: { id: string; status: "approved" | "rejected" }) => decideRequest(v.id, v.status, notes[v.id] ?? ""),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["list-deploy-requests", list.id] }),
  });
  const pending = (reqs.data ?? []).filter((r) => r.status === "pending");
  const done = (reqs.data ?? []).filter((r) => r.status !== "pending");
  return (
    <section className="card stack" aria-labelledby="approval-h">
      <h2 id="approval-h" style={{ marginTop: 0 }}>
        Deploy approval
      </h2>
      <label className="row" style={{ alignItems: "center", gap: "0.5rem" }}>
        <input type="checkbox" checked={gated} onChange={(e) => gate.mutate(e.target.checked)} disabled={gate.isPending} style={{ minHeight: 0 }} />
        Collaborators' deploys of this list wait for an owner's approval
      </label>
      <ErrorMessage error={gate.error ?? reqs.error} />
      {pending.length === 0 ? (
        <p className="muted">No deploy request is waiting.</p>
      ) : (
        <ul className="plain">
          {pending.map((r) => (
            <li key={r.id} className="card stack">
              <div>
                <strong>{r.requested_by_name ?? "Someone"}</strong> asks to deploy this list to <strong>{r.server_name}</strong>{" "}
                <span className="muted small">{dateTime(r.created_at)}</span>
              </div>
              <div className="row">
                <Field label={`Note to ${r.requested_by_name ?? "the requester"}`} maxLength={2000} value={notes[r.id] ?? ""} onChange={(e) => setNotes({ ...notes, [r.id]: e.target.value })} />
                <button type="button" className="btn" onClick={() => decide.mutate({ id: r.id, status: "approved" })} disabled={decide.isPending}>
                  Approve<span className="sr-only"> the deploy to {r.server_name}</span>
                </button>
                <button type="button" className="btn secondary" onClick={() => decide.mutate({ id: r.id, status: "rejected" })} disabled={decide.isPending}>
                  Reject<span className="sr-only"> the deploy to {r.server_name}</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ErrorMessage error={decide.error} />
      {done.length > 0 && (
        <details>
          <summary>Decided requests ({done.length})</summary>
          <ul>
            {done.map((r) => (
              <li key={r.id}>
                {r.requested_by_name ?? "Someone"} → {r.server_name}: {r.status}
                {r.note ? ` (${r.note})` : ""} <span className="muted small">{dateTime(r.decided_at)}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
