// Permission groups: a named set of people with default rights (add, remove, deploy), assigned
// to lists in a list's Sharing section. The primary owner renames the group, sets its defaults,
// chooses co-owners and deletes it; co-owners manage its members.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "../app/session";
import { date } from "../app/format";
import { ConfirmButton, Empty, ErrorMessage, Field, SelectField, SignInFirst, Skeleton, FormCard } from "../ui/components";
import { addGroupMember, addGroupOwner, createGroup, deleteGroup, groupCommunity, groupMembers, groupOwners, removeGroupMember, removeGroupOwner, updateGroup, type Flags, type Group } from "./groups.services";
import { type Person } from "./lists.services";
import { invalidateList, organiseQueries } from "./lists.queries";

const RIGHTS: [keyof Flags, string][] = [
  ["can_add", "add mods"],
  ["can_remove", "remove mods"],
  ["can_deploy", "deploy"],
];

export function RightsBoxes({ value, onChange, disabled, legend }: { value: Flags; onChange: (v: Flags) => void; disabled?: boolean; legend: string }) {
  return (
    <fieldset className="row" style={{ border: 0, padding: 0, margin: 0, alignItems: "center" }}>
      <legend className="small" style={{ fontWeight: 600, marginBottom: "0.25rem" }}>
        {legend}
      </legend>
      {RIGHTS.map(([k, label]) => (
        <label key={k} className="check">
          <input type="checkbox" checked={value[k]} disabled={disabled} onChange={(e) => onChange({ ...value, [k]: e.target.checked })} style={{ minHeight: 0 }} />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/** Members or co-owners of a group: add by display name or e-mail, remove. */
function People({ group, kind, canEdit }: { group: Group; kind: "members" | "owners"; canEdit: boolean }) {
  const qc = useQueryClient();
  const key = ["group", group.id, kind];
  const people = useQuery({ queryKey: key, queryFn: ({ signal }) => (kind === "members" ? groupMembers(group.id, signal) : groupOwners(group.id, signal)) });
  const [search, setSearch] = useState("");
  const again = () => {
    void qc.invalidateQueries({ queryKey: key });
    void invalidateList.part(qc, organiseQueries.groups());
  };
  const add = useMutation({ mutationFn: () => (kind === "members" ? addGroupMember(group.id, search) : addGroupOwner(group.id, search)), onSuccess: () => (setSearch(""), again()) });
  const remove = useMutation({ mutationFn: (p: Person) => (kind === "members" ? removeGroupMember(group.id, p.user_id) : removeGroupOwner(group.id, p.user_id)), onSuccess: again });
  const title = kind === "members" ? "Members" : "Co-owners";
  return (
    <div className="stack">
      <h3 style={{ margin: 0 }}>{title}</h3>
      {people.isLoading ? (
        <Skeleton lines={2} />
      ) : people.error ? (
        <ErrorMessage error={people.error} retry={() => people.refetch()} />
      ) : people.data!.length === 0 ? (
        <p className="muted small">{kind === "members" ? "No members yet." : "No co-owners."}</p>
      ) : (
        <ul className="plain">
          {people.data!.map((p) => (
            <li key={p.user_id} className="row" style={{ alignItems: "center" }}>
              <span style={{ flex: 1 }}>
                {p.display_name} <span className="muted small">since {date(p.added_at)}</span>
              </span>
              {canEdit && (
                <ConfirmButton question={`Remove ${p.display_name} from ${group.name}?`} label={`Remove ${p.display_name} from the ${title.toLowerCase()} of ${group.name}`} onConfirm={() => remove.mutate(p)}>
                  Remove
                </ConfirmButton>
              )}
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <form
          className="row"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <Field label={`Add to ${title.toLowerCase()} of ${group.name} (display name or e-mail)`} required value={search} onChange={(e) => setSearch(e.target.value)} />
          <button type="submit" className="btn secondary" disabled={add.isPending}>
            Add
          </button>
        </form>
      )}
      <ErrorMessage error={add.error ?? remove.error} />
    </div>
  );
}

function GroupCard({ group }: { group: Group }) {
  const qc = useQueryClient();
  const again = () => invalidateList.part(qc, organiseQueries.groups());
  const primary = group.is_primary_owner;
  const [name, setName] = useState(group.name);
  const [description, setDescription] = useState(group.description);
  const [rights, setRights] = useState<Flags>({ can_add: group.can_add, can_remove: group.can_remove, can_deploy: group.can_deploy });
  const save = useMutation({ mutationFn: () => updateGroup(group.id, { name, description, ...rights }), onSuccess: again });
  const remove = useMutation({ mutationFn: () => deleteGroup(group.id), onSuccess: again });
  const communityList = useQuery({ ...organiseQueries.communities(), enabled: primary });
  const assign = useMutation({ mutationFn: (cid: string) => groupCommunity(group.id, cid || null), onSuccess: again });
  return (
    <section className="card stack" aria-labelledby={`g-${group.id}`}>
      <h2 id={`g-${group.id}`} style={{ marginTop: 0 }}>
        {group.name}
      </h2>
      <p className="muted small">
        {primary ? "You own this group." : `Owned by ${group.owner_name}; you are a co-owner and manage its members.`} {group.member_count} {group.member_count === 1 ? "member" : "members"}.
      </p>
      {primary ? (
        <form
          className="stack"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <Field label={`Name of ${group.name}`} required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          <Field label={`Description of ${group.name}`} maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />
          <RightsBoxes legend="Default rights on the lists it is given" value={rights} onChange={setRights} />
          <div className="row">
            <button type="submit" className="btn" disabled={save.isPending}>
              Save group
            </button>
            <SelectField label={`Community of ${group.name}`} value={group.community_id ?? ""} onChange={(e) => assign.mutate(e.target.value)} disabled={assign.isPending}>
              <option value="">No community</option>
              {(communityList.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </SelectField>
          </div>
          <ErrorMessage error={save.error ?? assign.error} />
        </form>
      ) : (
        <p>
          {group.description || <span className="muted">No description.</span>} Default rights:{" "}
          {RIGHTS.filter(([k]) => group[k])
            .map(([, l]) => l)
            .join(", ") || "read only"}
          .
        </p>
      )}
      <div className="grid">
        <People group={group} kind="members" canEdit />
        {primary && <People group={group} kind="owners" canEdit />}
      </div>
      {primary && (
        <div>
          <ConfirmButton question={`Delete ${group.name}? Its members lose the access it gave them.`} className="btn danger" onConfirm={() => remove.mutate()} disabled={remove.isPending}>
            Delete group
          </ConfirmButton>
          <ErrorMessage error={remove.error} />
        </div>
      )}
    </section>
  );
}

export function GroupsPage() {
  const { me, token } = useSession();
  const qc = useQueryClient();
  const all = useQuery({ ...organiseQueries.groups(), enabled: !!token });
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [rights, setRights] = useState<Flags>({ can_add: true, can_remove: false, can_deploy: false });
  const create = useMutation({
    mutationFn: () => createGroup({ name, description, ...rights }),
    onSuccess: () => {
      setName("");
      setDescription("");
      void invalidateList.part(qc, organiseQueries.groups());
    },
  });
  if (!token) return <SignInFirst next="/groups" what="manage permission groups" />;
  return (
    <div className="stack">
      <h1>Permission groups</h1>
      <p className="prose muted">
        A group gives its members rights on every list it is assigned to (in a list's Sharing section), with the group's defaults or per-list overrides.
      </p>
      {all.isLoading || !me ? (
        <Skeleton />
      ) : all.error ? (
        <ErrorMessage error={all.error} retry={() => all.refetch()} />
      ) : all.data!.length === 0 ? (
        <Empty title="No groups yet">Create one below, e.g. "Mod team" or "Server admins".</Empty>
      ) : (
        all.data!.map((g) => <GroupCard key={`${g.id}-${g.updated_at}`} group={g} />)
      )}
      <FormCard id="new-group-h" title="New group" onSubmit={() => create.mutate()}>
        <Field label="Group name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <Field label="Group description" maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />
        <RightsBoxes legend="Default rights" value={rights} onChange={setRights} />
        <ErrorMessage error={create.error} />
        <div>
          <button type="submit" className="btn" disabled={create.isPending}>
            Create group
          </button>
        </div>
      </FormCard>
    </div>
  );
}
