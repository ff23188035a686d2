// The Mods tab: add a mod (its missing dependencies shown first, with sizes), pin a version,
// remove with undo, filter and sort; the table renders in chunks (a list may hold 1,000 mods).
import { memo, useCallback, useDeferredValue, useMemo, useState } from "react";
import { Link, useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery } from "@tanstack/react-query";
import { bytes, date, num, count } from "../../app/format";
import { ChunkedRows, Empty, ErrorMessage, Notice, SelectField } from "../../ui/components";
import { modDeps, modVersions } from "../../catalog/catalog.services";
import { ModPicker, type PickedMod } from "../../catalog/components/mod-picker";
import { addMod, pinVersion, removeMod, revert, setRequired, type ListDetail, type ListItem } from "../lists.services";
import { useListRefresh } from "../lists.queries";
import type { ListTabProps } from "./tab";

/** Choose a catalog mod; before adding, show which of its dependencies the list lacks, with sizes. */
function AddMod({ list }: { list: ListDetail }) {
  const refresh = useListRefresh(list.id);
  const [chosen, setChosen] = useState<PickedMod | null>(null);
  const deps = useQuery({ queryKey: ["mod-deps", chosen?.workshop_id], queryFn: ({ signal }) => modDeps(chosen!.workshop_id, signal), enabled: !!chosen });
  const inList = new Set(list.items.map((i) => i.workshop_id));
  const missing = (deps.data?.dependencies ?? []).filter((d) => !inList.has(d.workshop_id));
  const add = useMutation({
    mutationFn: () => addMod(list.id, chosen!.workshop_id, true),
    onSuccess: () => {
      setChosen(null);
      refresh();
    },
  });
  return (
    <section className="card stack" aria-labelledby="add-h">
      <h2 id="add-h" style={{ marginTop: 0 }}>
        Add a mod
      </h2>
      {!chosen ? (
        <ModPicker label="Find a mod in the catalog" onPick={setChosen} note={(id) => (inList.has(id) ? " (already in the list)" : "")} />
      ) : (
        <div className="stack">
          <p>
            Add <strong>{chosen.name}</strong>
            {deps.isLoading ? "…" : missing.length > 0 ? ` and the ${missing.length === 1 ? "mod" : `${missing.length} mods`} it needs that the list lacks:` : ". It needs nothing the list lacks."}
          </p>
          {missing.length > 0 && (
            <ul aria-label="Dependencies that will be added">
              {missing.map((d) => (
                <li key={d.workshop_id}>
                  {d.name || d.workshop_id} <span className="muted small">{bytes(d.size_bytes)}</span>
                </li>
              ))}
            </ul>
          )}
          <ErrorMessage error={add.error ?? deps.error} />
          <div className="row">
            <button type="button" className="btn" onClick={() => add.mutate()} disabled={add.isPending || deps.isLoading}>
              {missing.length > 0 ? `Add ${missing.length + 1} mods` : "Add"}
            </button>
            <button type="button" className="btn secondary" onClick={() => setChosen(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {add.isSuccess && <Notice kind="ok">Added {add.data.added.map((a) => a.name || a.workshop_id).join(", ")}.</Notice>}
    </section>
  );
}

function PinVersion({ list, item, onDone }: { list: ListDetail; item: ListItem; onDone: () => void }) {
  const refresh = useListRefresh(list.id);
  const versions = useQuery({ queryKey: ["mod-versions", item.workshop_id], queryFn: ({ signal }) => modVersions(item.workshop_id, signal) });
  const pin = useMutation({
    mutationFn: (v: string | null) => pinVersion(list.id, item.workshop_id, v),
    onSuccess: () => {
      refresh();
      onDone();
    },
  });
  return (
    <>
      <SelectField
        label={`Version of ${item.name}`}
        value={item.pinned_version ?? ""}
        onChange={(e) => pin.mutate(e.target.value || null)}
        disabled={versions.isLoading || pin.isPending}
        autoFocus
      >
        <option value="">Always the latest</option>
        {(versions.data ?? []).map((v) => (
          <option key={v.version} value={v.version}>
            {v.version}
          </option>
        ))}
      </SelectField>
      <button type="button" className="btn link" onClick={onDone}>
        Cancel
      </button>
      <ErrorMessage error={pin.error} />
    </>
  );
}

/** What a row's dependency column says: the missing mods it needs, or that all are in the list. */
function dependencyStatus(list: ListDetail): Map<string, string[]> {
  const needs = new Map<string, string[]>();
  for (const m of list.missing_dependencies)
    for (const by of m.required_by) {
      const arr = needs.get(by) ?? [];
      arr.push(m.name || m.workshop_id);
      needs.set(by, arr);
    }
  return needs;
}

interface RowProps {
  item: ListItem;
  missing: string[] | undefined;
  canPin: boolean;
  canRemove: boolean;
  busy: boolean;
  onPin: (id: string) => void;
  onRemove: (item: ListItem) => void;
  onRequired: (item: ListItem, required: boolean) => void;
}

/**
 * One row of the mods table. Plain elements only (no hooks, no router Link: a 1,000-mod list
 * renders 1,000 of these; the table's click handler routes the links), memoised so a filter
 * or an edit re-renders only the rows that changed (bench/web-list.ts).
 */
const ModRow = memo(function ModRow({ item: i, missing, canPin, canRemove, busy, onPin, onRemove, onRequired }: RowProps) {
  const version = i.pinned_version ? `pinned ${i.pinned_version}` : `latest (${i.version || "?"})`;
  return (
    <tr>
      <td>
        <a href={`/mods/${i.workshop_id}`} data-route>
          {i.name || i.workshop_id}
        </a>
      </td>
      <td data-label="Version">
        {canPin ? (
          <button type="button" className="btn link" onClick={() => onPin(i.workshop_id)}>
            {version}
            <span className="sr-only">: change the version of {i.name}</span>
          </button>
        ) : (
          version
        )}
        <br />
        {/* server.json's per-mod required: a required mod that cannot be loaded stops the server. */}
        {canPin ? (
          <label className="small" style={{ whiteSpace: "nowrap" }} title={i.required_stated === null ? "as the list's modsRequiredByDefault" : "set for this mod"}>
            <input type="checkbox" checked={i.required} disabled={busy} onChange={(e) => onRequired(i, e.target.checked)} style={{ minHeight: 0, marginRight: "0.3rem", verticalAlign: "middle" }} />
            required{i.required_stated === null ? "*" : ""}
            <span className="sr-only">
              {" "}
              ({i.name}{i.required_stated === null ? ", as the list's default" : ""})
            </span>
          </label>
        ) : (
          <span className="muted small">{i.required ? "required" : "optional"}</span>
        )}
      </td>
      <td className="num" data-label="Size">
        {bytes(i.size_bytes)}
      </td>
      <td data-label="Updated">
        {date(i.mod_updated_at)}
        {/* The server applies the list's age rule (too_old); the page only shows it. */}
        {i.too_old && <span className="badge warn"> too old</span>}
      </td>
      <td data-label="Dependencies">{missing ? <span className="badge warn">needs {missing.join(", ")}</span> : <span className="muted">complete</span>}</td>
      <td data-label="Added by">
        {i.added_by?.display_name ?? "–"}
        <br />
        <span className="muted small">{date(i.added_at)}</span>
      </td>
      {canRemove && (
        <td>
          <button type="button" className="btn secondary" onClick={() => onRemove(i)} aria-label={`Remove ${i.name}`} disabled={busy}>
            Remove
          </button>
        </td>
      )}
    </tr>
  );
});

export default function Mods({ list }: ListTabProps) {
  const { can_add: canAdd, can_remove: canRemove } = list.my_access;
  const refresh = useListRefresh(list.id);
  const navigate = useNavigate();
  const [filter, setFilter] = useState("");
  const deferredFilter = useDeferredValue(filter);
  const [sort, setSort] = useState<"position" | "name" | "size" | "updated">("position");
  const [editing, setEditing] = useState<string | null>(null);
  // The removal's audit entry (the DELETE names it), so undo reverts exactly that entry.
  const [removed, setRemoved] = useState<{ name: string; entryId: string | null } | null>(null);
  const remove = useMutation({
    mutationFn: (item: ListItem) => removeMod(list.id, item.workshop_id).then((entryId) => ({ name: item.name, entryId })),
    onSuccess: (r) => {
      setRemoved(r);
      refresh();
    },
  });
  const undo = useMutation({
    mutationFn: (entryId: string) => revert(list.id, entryId),
    onSuccess: () => {
      setRemoved(null);
      refresh();
    },
  });
  const needs = useMemo(() => dependencyStatus(list), [list]);
  const rows = useMemo(() => {
    const f = deferredFilter.trim().toLowerCase();
    const r = list.items.filter((i) => !f || i.name.toLowerCase().includes(f) || i.workshop_id.toLowerCase().includes(f));
    if (sort === "name") r.sort((a, b) => a.name.localeCompare(b.name));
    if (sort === "size") r.sort((a, b) => b.size_bytes - a.size_bytes);
    if (sort === "updated") r.sort((a, b) => (a.mod_updated_at ?? "").localeCompare(b.mod_updated_at ?? ""));
    return r;
  }, [list.items, deferredFilter, sort]);
  const onRemove = useCallback((i: ListItem) => remove.mutate(i), [remove.mutate]);
  const required = useMutation({ mutationFn: (v: { item: ListItem; required: boolean }) => setRequired(list.id, v.item.workshop_id, v.required), onSuccess: refresh });
  const onRequired = useCallback((item: ListItem, r: boolean) => required.mutate({ item, required: r }), [required.mutate]);
  const editingItem = editing ? list.items.find((i) => i.workshop_id === editing) : undefined;
  return (
    <div className="stack">
      {canAdd && <AddMod list={list} />}
      {removed && canAdd && (
        <div className="alert ok row" role="status" style={{ alignItems: "center" }}>
          Removed {removed.name}.
          {removed.entryId && (
            <button type="button" className="btn secondary" onClick={() => undo.mutate(removed.entryId!)} disabled={undo.isPending}>
              Undo
            </button>
          )}
        </div>
      )}
      <ErrorMessage error={remove.error ?? undo.error ?? required.error} />
      {list.missing_dependencies.length > 0 && (
        <Notice kind="warn">
          {list.missing_dependencies.length === 1 ? "1 dependency is" : `${num(list.missing_dependencies.length)} dependencies are`} missing.{" "}
          {canAdd ? (
            <>
              <Link to="/lists/$id" params={{ id: list.id }} search={{ tab: "check" }}>
                Fix them in the pre-flight check
              </Link>
              .
            </>
          ) : null}
        </Notice>
      )}
      {editingItem && (
        <section className="card stack" aria-label={`Version of ${editingItem.name}`}>
          <PinVersion list={list} item={editingItem} onDone={() => setEditing(null)} />
        </section>
      )}
      {list.items.length === 0 ? (
        <Empty title="No mods yet">{canAdd ? "Find mods above, or import a server.json in the Import section." : "Nothing has been added yet."}</Empty>
      ) : (
        <>
          <div className="row">
            <div className="field">
              <label htmlFor="filter-mods">Filter mods</label>
              <input id="filter-mods" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
            </div>
            <SelectField label="Order" value={sort} onChange={(e) => setSort(e.target.value as typeof sort)}>
              <option value="position">List order</option>
              <option value="name">Name</option>
              <option value="size">Largest first</option>
              <option value="updated">Oldest update first</option>
            </SelectField>
          </div>
          <p className="muted small" aria-live="polite">
            {rows.length === list.items.length ? count(rows.length, "mod") : `${num(rows.length)} of ${num(list.items.length)} mods`}
          </p>
          <div
            className="table-wrap"
            onClick={(e) => {
              // The rows' links are plain anchors: route them here without a reload.
              const a = (e.target as HTMLElement).closest("a[data-route]");
              if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
              e.preventDefault();
              void navigate({ href: a.getAttribute("href")! });
            }}
          >
            <table className="fixed cards-sm">
              <caption className="sr-only">Mods of {list.name}</caption>
              <colgroup>
                <col style={{ width: "27%" }} />
                <col style={{ width: "14%" }} />
                <col style={{ width: "8%" }} />
                <col style={{ width: "12%" }} />
                <col style={{ width: "15%" }} />
                <col style={{ width: "13%" }} />
                {canRemove && <col style={{ width: "7.5rem" }} />}
              </colgroup>
              <thead>
                <tr>
                  <th scope="col">Mod</th>
                  <th scope="col">Version</th>
                  <th scope="col" className="num">
                    Size
                  </th>
                  <th scope="col">Updated</th>
                  <th scope="col">Dependencies</th>
                  <th scope="col">Added by</th>
                  {canRemove && (
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <ChunkedRows
                rows={rows}
                columns={canRemove ? 7 : 6}
                resetKey={`${deferredFilter}|${sort}`}
                render={(i) => (
                  <ModRow
                    key={i.workshop_id}
                    item={i}
                    missing={needs.get(i.workshop_id)}
                    canPin={canAdd}
                    canRemove={canRemove}
                    busy={remove.isPending || required.isPending}
                    onPin={setEditing}
                    onRemove={onRemove}
                    onRequired={onRequired}
                  />
                )}
              />
            </table>
          </div>
        </>
      )}
    </div>
  );
}
