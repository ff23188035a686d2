// The History tab: snapshots (take, compare, restore) and the audited changes, filtered, each undoable.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dateTime, num, count } from "../../app/format";
import { ConfirmButton, DataTable, Empty, ErrorMessage, Field, Notice, SelectField, Skeleton } from "../../ui/components";
import { createSnapshot, diffSnapshots, importApply, revert, type ListDetail, type Snapshot } from "../lists.services";
import { invalidateList, listQueries, useListRefresh } from "../lists.queries";
import type { ListTabProps } from "./tab";

const LIVE = "live";

function Snapshots({ list }: { list: ListDetail }) {
  const refresh = useListRefresh(list.id);
  const qc = useQueryClient();
  const all = useQuery(listQueries.snapshots(list.id));
  const live = useQuery(listQueries.live(list.id, list.updated_at));
  const [name, setName] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState(LIVE);
  const create = useMutation({
    mutationFn: () => createSnapshot(list.id, { version_name: name || undefined }),
    onSuccess: () => {
      setName("");
      void invalidateList.part(qc, listQueries.snapshots(list.id));
    },
  });
  const restore = useMutation({
    // Restoring is an import of the snapshot: one audited change, undoable like any other.
    mutationFn: (snap: Snapshot) => importApply(list.id, JSON.stringify(snap.snapshot_json)),
    onSuccess: refresh,
  });
  const pick = (v: string) => (v === LIVE ? live.data?.snapshot_json : all.data?.find((x) => x.id === v)?.snapshot_json);
  const a = pick(from);
  const b = pick(to);
  const diff = a && b ? diffSnapshots(a, b) : null;
  const label = (x: Snapshot) => `${x.version_name ?? "Snapshot"} (${dateTime(x.created_at)})`;
  const options = (
    <>
      <option value={LIVE}>The list now</option>
      {(all.data ?? []).map((x) => (
        <option key={x.id} value={x.id}>
          {label(x)}
        </option>
      ))}
    </>
  );
  return (
    <section className="card stack" aria-labelledby="snap-h">
      <h2 id="snap-h" style={{ marginTop: 0 }}>
        Snapshots
      </h2>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Field label="Snapshot name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} hint="e.g. “Saturday op”" />
        <button type="submit" className="btn" disabled={create.isPending}>
          Take a snapshot
        </button>
      </form>
      <ErrorMessage error={create.error ?? restore.error ?? all.error} />
      {restore.data && <Notice kind="ok">Restored: {restore.data.added} added, {restore.data.removed} removed, {count(restore.data.version_changed, "version")} changed.</Notice>}
      {all.data && all.data.length > 0 && (
        <>
          <DataTable
            compact
            caption="Snapshots of this list"
            rows={all.data}
            rowKey={(x) => x.id}
            columns={[
              { header: "Snapshot", cell: (x) => x.version_name ?? "Snapshot" },
              { header: "Taken", cell: (x) => dateTime(x.created_at) },
              { header: "Mods", num: true, cell: (x) => num(x.snapshot_json.length) },
              {
                header: "Actions",
                hiddenHeader: true,
                cell: (x) => (
                  <ConfirmButton
                    question={`Make the list what “${x.version_name ?? "this snapshot"}” was? You can undo it in the history.`}
                    onConfirm={() => restore.mutate(x)}
                    label={`Restore ${label(x)}`}
                  >
                    Restore
                  </ConfirmButton>
                ),
              },
            ]}
          />
          <div className="row">
            <SelectField label="Compare" value={from} onChange={(e) => setFrom(e.target.value)}>
              <option value="">Choose</option>
              {options}
            </SelectField>
            <SelectField label="with" value={to} onChange={(e) => setTo(e.target.value)}>
              {options}
            </SelectField>
          </div>
          {diff && (
            <div aria-live="polite">
              <p>
                <span className="added">{diff.added.length} added</span>, <span className="removed">{diff.removed.length} removed</span>, {diff.changed.length} version
                changes.
              </p>
              <ul className="small">
                {diff.added.map((m) => (
                  <li key={`a${m.modId}`} className="added">
                    + {m.name || m.modId}
                  </li>
                ))}
                {diff.removed.map((m) => (
                  <li key={`r${m.modId}`} className="removed">
                    − {m.name || m.modId}
                  </li>
                ))}
                {diff.changed.map((m) => (
                  <li key={`c${m.modId}`}>
                    ~ {m.name}: {m.from} → {m.to}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
    </section>
  );
}

export default function History({ list }: ListTabProps) {
  const refresh = useListRefresh(list.id);
  const entries = useQuery(listQueries.audit(list.id));
  const undo = useMutation({ mutationFn: (entryId: string) => revert(list.id, entryId), onSuccess: refresh });
  const [action, setAction] = useState("");
  const [who, setWho] = useState("");
  if (entries.isLoading) return <Skeleton />;
  if (entries.error) return <ErrorMessage error={entries.error} retry={() => entries.refetch()} />;
  if (entries.data!.length === 0)
    return (
      <div className="stack">
        <Snapshots list={list} />
        <Empty title="No changes yet" />
      </div>
    );
  return (
    <section className="stack" aria-label="History">
      <Snapshots list={list} />
      <h2>Changes</h2>
      <div className="row">
        <SelectField label="What" value={action} onChange={(e) => setAction(e.target.value)}>
          <option value="">Every kind of change</option>
          {[...new Set(entries.data!.map((e) => e.action))].sort().map((a) => (
            <option key={a} value={a}>
              {a.replace(/_/g, " ")}
            </option>
          ))}
        </SelectField>
        <SelectField label="Who" value={who} onChange={(e) => setWho(e.target.value)}>
          <option value="">Anyone</option>
          {[...new Set(entries.data!.map((e) => e.display_name ?? "someone"))].sort().map((w) => (
            <option key={w} value={w}>
              {w}
            </option>
          ))}
        </SelectField>
      </div>
      {/* The API's reason when an undo is no longer possible (409), next to the table it came from. */}
      <ErrorMessage error={undo.error} />
      <DataTable
        compact
        caption={`Changes to ${list.name}, newest first`}
        rows={entries.data!.filter((e) => (!action || e.action === action) && (!who || (e.display_name ?? "someone") === who))}
        rowKey={(e) => e.id}
        columns={[
          { header: "When", cell: (e) => dateTime(e.created_at) },
          { header: "Who", cell: (e) => e.display_name ?? "someone" },
          { header: "What", cell: (e) => `${e.action.replace(/_/g, " ")}${e.mod_name ? `: ${e.mod_name}` : ""}` },
          {
            header: "Actions",
            hiddenHeader: true,
            cell: (e) =>
              e.reverted ? (
                <span className="muted">undone</span>
              ) : (
                <button type="button" className="btn secondary" onClick={() => undo.mutate(e.id)} aria-label={`Undo ${e.action.replace(/_/g, " ")} ${e.mod_name ?? ""}`}>
                  Undo
                </button>
              ),
          },
        ]}
      />
    </section>
  );
}
