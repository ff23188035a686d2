// Two owner sections of a list's Sharing: permission groups assigned to the list (each right
// inherits the group's default or is overridden here; the effective rights are shown), and the
// people blocked from suggesting (blocked from the suggestions inbox, unblocked here).
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { invalidateList, listQueries, organiseQueries } from "../lists.queries";
import { date } from "../../app/format";
import { ConfirmButton, DataTable, ErrorMessage, SelectField } from "../../ui/components";
import { assignGroup, setGroupOverrides, unassignGroup, type ListGroup, type Overrides } from "../groups.services";
import { unblockUser, type ListDetail } from "../lists.services";

const RIGHTS = [
  ["can_add", "Add"],
  ["can_remove", "Remove"],
  ["can_deploy", "Deploy"],
] as const;

const INHERIT: Overrides = { can_add: null, can_remove: null, can_deploy: null };
const toValue = (v: boolean | null) => (v === null ? "inherit" : v ? "yes" : "no");
const fromValue = (v: string) => (v === "inherit" ? null : v === "yes");

/** One right of one group on this list: inherit the group's default, or yes / no here. */
function OverrideSelect({ g, right, label, onChange, disabled }: { g: ListGroup; right: keyof Overrides; label: string; onChange: (o: Overrides) => void; disabled: boolean }) {
  return (
    <SelectField label={`${label} (${g.name})`} value={toValue(g.overrides[right])} onChange={(e) => onChange({ ...g.overrides, [right]: fromValue(e.target.value) })} disabled={disabled}>
      <option value="inherit">Group default ({g.defaults[right] ? "yes" : "no"})</option>
      <option value="yes">Yes on this list</option>
      <option value="no">No on this list</option>
    </SelectField>
  );
}

export function ListGroups({ list }: { list: ListDetail }) {
  const qc = useQueryClient();
  const assigned = useQuery(listQueries.groups(list.id));
  const mine = useQuery({ ...organiseQueries.groups() });
  const again = () => invalidateList.part(qc, listQueries.groups(list.id));
  const [pick, setPick] = useState("");
  const add = useMutation({ mutationFn: () => assignGroup(list.id, { group_id: pick, ...INHERIT }), onSuccess: () => (setPick(""), again()) });
  const change = useMutation({ mutationFn: (v: { gid: string; o: Overrides }) => setGroupOverrides(list.id, v.gid, v.o), onSuccess: again });
  const remove = useMutation({ mutationFn: (gid: string) => unassignGroup(list.id, gid), onSuccess: again });
  const on = new Set((assigned.data ?? []).map((g) => g.group_id));
  const free = (mine.data ?? []).filter((g) => !on.has(g.id));
  return (
    <div className="card stack">
      <h2 style={{ marginTop: 0 }}>Permission groups</h2>
      <p className="muted">
        Everyone in a group gets its rights on this list. <Link to="/groups">Manage your groups</Link>.
      </p>
      {assigned.data && (
        <DataTable
          compact
          empty="No group has rights on this list."
          caption="Groups with rights on this list"
          rows={assigned.data}
          rowKey={(g) => g.group_id}
          columns={[
            {
              header: "Group",
              cell: (g) => (
                <>
                  {g.name} <span className="muted small">({g.member_count} {g.member_count === 1 ? "member" : "members"})</span>
                </>
              ),
            },
            {
              header: "Rights here",
              cell: (g) => (
                <div className="row">
                  {RIGHTS.map(([k, label]) => (
                    <OverrideSelect key={k} g={g} right={k} label={label} disabled={change.isPending} onChange={(o) => change.mutate({ gid: g.group_id, o })} />
                  ))}
                </div>
              ),
            },
            {
              header: "Effective",
              cell: (g) => RIGHTS.filter(([k]) => g[k]).map(([, l]) => l.toLowerCase()).join(", ") || "read only",
            },
            {
              header: "Actions",
              hiddenHeader: true,
              cell: (g) => (
                <ConfirmButton question={`Take ${g.name}'s rights on this list away?`} label={`Remove group ${g.name}`} onConfirm={() => remove.mutate(g.group_id)}>
                  Remove
                </ConfirmButton>
              ),
            },
          ]}
        />
      )}
      {free.length > 0 && (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (pick) add.mutate();
          }}
        >
          <SelectField label="Give a group rights here" value={pick} onChange={(e) => setPick(e.target.value)} required>
            <option value="">Choose a group…</option>
            {free.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </SelectField>
          <button type="submit" className="btn secondary" disabled={!pick || add.isPending}>
            Assign group
          </button>
        </form>
      )}
      <ErrorMessage error={add.error ?? change.error ?? remove.error ?? assigned.error ?? mine.error} />
    </div>
  );
}

export function Blocks({ list }: { list: ListDetail }) {
  const qc = useQueryClient();
  const all = useQuery(listQueries.blocks(list.id));
  const unblock = useMutation({ mutationFn: (userId: string) => unblockUser(list.id, userId), onSuccess: () => invalidateList.part(qc, listQueries.blocks(list.id)) });
  return (
    <div className="card stack">
      <h2 style={{ marginTop: 0 }}>Blocked from suggesting</h2>
      {all.data && all.data.length === 0 && <p className="muted">Nobody is blocked. Block someone from their suggestion in the Suggestions section.</p>}
      {all.data && all.data.length > 0 && (
        <ul className="plain">
          {all.data.map((b) => (
            <li key={b.user_id} className="row" style={{ alignItems: "center" }}>
              <span style={{ flex: 1 }}>
                {b.display_name} <span className="muted small">since {date(b.created_at)}</span>
              </span>
              <button type="button" className="btn secondary" onClick={() => unblock.mutate(b.user_id)} disabled={unblock.isPending} aria-label={`Unblock ${b.display_name}`}>
                Unblock
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorMessage error={unblock.error ?? all.error} />
    </div>
  );
}
