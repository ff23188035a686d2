// A list's settings, for its owners: name, description and the age rule; where it is filed
// (folder, community) and its tags; deleting it (the primary owner only).
import { useState, type FormEvent } from "react";
import { useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ConfirmButton, ErrorMessage, Field, Notice, SelectField } from "../ui/components";
import { TagChip } from "./my-lists.page";
import { communities, deleteList, folders, myTags, setCommunity, setFolder, tagList, untagList, updateSettings, type ListDetail } from "./lists.services";

export function Settings({ list }: { list: ListDetail }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ["list", list.id] });
    void qc.invalidateQueries({ queryKey: ["lists"] });
    void qc.invalidateQueries({ queryKey: ["folders"] }); // their list counts
  };
  const [name, setName] = useState(list.name);
  const [description, setDescription] = useState(list.description);
  const [maxAge, setMaxAge] = useState(list.max_mod_age_days === null ? "" : String(list.max_mod_age_days));
  const save = useMutation({
    mutationFn: () => updateSettings(list.id, { name, description, max_mod_age_days: maxAge.trim() === "" ? null : Number(maxAge) }),
    onSuccess: refresh,
  });
  const folderList = useQuery({ queryKey: ["folders"], queryFn: ({ signal }) => folders(signal) });
  const communityList = useQuery({ queryKey: ["communities"], queryFn: ({ signal }) => communities(signal) });
  const tags = useQuery({ queryKey: ["tags", "mine"], queryFn: ({ signal }) => myTags(signal) });
  const file = useMutation({
    mutationFn: (v: { folder?: string; community?: string }) =>
      v.folder !== undefined ? setFolder(list.id, v.folder || null) : setCommunity(list.id, v.community || null),
    onSuccess: refresh,
  });
  const tag = useMutation({ mutationFn: async (v: { id: string; on: boolean }) => void (v.on ? await tagList(list.id, v.id) : await untagList(list.id, v.id)), onSuccess: refresh });
  const remove = useMutation({
    mutationFn: () => deleteList(list.id),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ["lists"] });
      await navigate({ to: "/lists" });
    },
  });
  const onList = new Set(list.tags.map((t) => t.id));
  const folderKnown = !list.folder_id || folderList.data?.some((f) => f.id === list.folder_id);
  return (
    <div className="stack">
      <form
        className="card stack"
        aria-labelledby="about-h"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <h2 id="about-h" style={{ marginTop: 0 }}>
          About this list
        </h2>
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
      </form>

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
