// One list: its mods (add with dependencies shown first, remove with undo, pin a version,
// filter and sort), the pre-flight check with one-click fixes, import (paste or upload, preview,
// apply), export (fragment or full config; copy or download) and the history with undo.
import { memo, useCallback, useDeferredValue, useMemo, useState } from "react";
import { Link, useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { bytes, date, dateTime, num } from "../app/format";
import { LIST_TABS, type ListTab } from "../app/router";
import { useSession } from "../app/session";
import { ChunkedRows, ConfirmButton, DataTable, Empty, ErrorMessage, Field, Notice, SelectField, Skeleton } from "../ui/components";
import { modDeps, modVersions } from "../catalog/catalog.services";
import { ModPicker, type PickedMod } from "../catalog/mod-picker";
import { Settings } from "./list-settings";
import { Blocks, CopyFromServer, ListGroups } from "./list-access";
import { FormFields } from "./form-fields";
import {
  addMod,
  audit,
  checkList,
  exportText,
  importApply,
  importPreview,
  listDetail,
  pinVersion,
  removeMod,
  revert,
  pinnedLists,
  togglePin,
  updateList,
  resetShareToken,
  resetSuggestionToken,
  suggestionsOf,
  formFields,
  vote,
  review,
  collaborators,
  addCollaborator,
  setCollaboratorRights,
  removeCollaborator,
  snapshots,
  liveSnapshot,
  createSnapshot,
  diffSnapshots,
  templates,
  createTemplate,
  templateLinks,
  applyTemplate,
  unsubscribe,
  pushTemplate,
  coOwners,
  addCoOwner,
  removeCoOwner,
  blockUser,
  type Snapshot,
  type Collaborator,
  type ImportDiff,
  type ListDetail,
  type ListItem,
} from "./lists.services";

const TAB_LABELS: Record<ListTab, string> = {
  mods: "Mods",
  check: "Pre-flight check",
  suggestions: "Suggestions",
  templates: "Templates",
  import: "Import",
  export: "Export",
  history: "History",
  sharing: "Sharing",
  settings: "Settings",
};

/** Which sections the caller's rights open: readers check and export; editors also import and undo; owners share. */
function tabsFor(l: ListDetail): ListTab[] {
  const a = l.my_access;
  const edit = a.can_add || a.can_remove;
  return LIST_TABS.filter((t) =>
    t === "import" || t === "templates" ? a.can_add && a.can_remove : t === "history" || t === "suggestions" ? edit : t === "sharing" || t === "settings" ? a.is_owner : true,
  );
}

export function ListPage() {
  const { id } = useParams({ from: "/lists/$id" });
  const { tab = "mods", share } = useSearch({ from: "/lists/$id" });
  const list = useQuery({ queryKey: ["list", id, share], queryFn: ({ signal }) => listDetail(id, share, signal) });
  if (list.isLoading) return <Skeleton lines={6} label="Loading the list" />;
  if (list.error) return <ErrorMessage error={list.error} retry={() => list.refetch()} />;
  const l = list.data!;
  const tabs = tabsFor(l);
  return (
    <article className="stack">
      <div>
        <h1>{l.name}</h1>
        {l.description && <p className="prose">{l.description}</p>}
        <p className="muted">
          {num(l.items.length)} mods · {bytes(l.total_size_bytes)} to download · {l.is_public ? "public" : "private"}
        </p>
        <PinButton id={l.id} />
      </div>
      {l.my_access.via_share && <Notice>You are viewing this list through its share link: you can read and export it.</Notice>}
      <nav className="tabs" aria-label="Sections of this list">
        {tabs.map((t) => (
          <Link key={t} to="/lists/$id" params={{ id }} search={{ tab: t, share }} activeOptions={{ exact: true, includeSearch: true }} aria-current={t === tab ? "page" : undefined}>
            {TAB_LABELS[t]}
          </Link>
        ))}
      </nav>
      {!tabs.includes(tab) && <Notice kind="warn">This section is for people who may change the list.</Notice>}
      {tab === "mods" && <Mods list={l} />}
      {tab === "check" && <Check list={l} share={share} />}
      {tab === "import" && tabs.includes("import") && <Import list={l} />}
      {tab === "export" && <Export list={l} share={share} />}
      {tab === "history" && tabs.includes("history") && <History list={l} />}
      {tab === "sharing" && tabs.includes("sharing") && <Sharing list={l} />}
      {tab === "suggestions" && tabs.includes("suggestions") && <Suggestions list={l} />}
      {tab === "templates" && tabs.includes("templates") && <Templates list={l} />}
      {tab === "settings" && tabs.includes("settings") && <Settings list={l} />}
    </article>
  );
}

/** Pin the list to the top of your lists page (signed-in readers). */
function PinButton({ id }: { id: string }) {
  const { me } = useSession();
  const qc = useQueryClient();
  const pins = useQuery({ queryKey: ["lists", "pins"], queryFn: ({ signal }) => pinnedLists(signal), enabled: !!me });
  const pinned = !!pins.data?.some((p) => p.id === id);
  const toggle = useMutation({ mutationFn: () => togglePin(id), onSuccess: () => qc.invalidateQueries({ queryKey: ["lists"] }) });
  if (!me || !pins.data) return null;
  return (
    <>
      <button type="button" className="btn secondary" aria-pressed={pinned} onClick={() => toggle.mutate()} disabled={toggle.isPending}>
        {pinned ? "Pinned" : "Pin to my lists"}
      </button>
      <ErrorMessage error={toggle.error} />
    </>
  );
}

function useRefresh(id: string) {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: ["list", id] });
    void qc.invalidateQueries({ queryKey: ["list-check", id] });
    void qc.invalidateQueries({ queryKey: ["list-audit", id] });
  };
}

/** Choose a catalog mod; before adding, show which of its dependencies the list lacks, with sizes. */
function AddMod({ list }: { list: ListDetail }) {
  const refresh = useRefresh(list.id);
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
            {deps.isLoading ? "…" : missing.length > 0 ? ` and the ${missing.length} mods it needs that the list lacks:` : ". It needs nothing the list lacks."}
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
  const refresh = useRefresh(list.id);
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

const DAY_MS = 86_400_000;

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
  tooOld: boolean;
  canPin: boolean;
  canRemove: boolean;
  busy: boolean;
  onPin: (id: string) => void;
  onRemove: (item: ListItem) => void;
}

/**
 * One row of the mods table. Plain elements only (no hooks, no router Link: a 1,000-mod list
 * renders 1,000 of these; the table's click handler routes the links), memoised so a filter
 * or an edit re-renders only the rows that changed (bench/web-list.ts).
 */
const ModRow = memo(function ModRow({ item: i, missing, tooOld, canPin, canRemove, busy, onPin, onRemove }: RowProps) {
  const version = i.pinned_version ? `pinned ${i.pinned_version}` : `latest (${i.version || "?"})`;
  return (
    <tr>
      <td>
        <a href={`/mods/${i.workshop_id}`} data-route>
          {i.name || i.workshop_id}
        </a>
      </td>
      <td>
        {canPin ? (
          <button type="button" className="btn link" onClick={() => onPin(i.workshop_id)}>
            {version}
            <span className="sr-only">: change the version of {i.name}</span>
          </button>
        ) : (
          version
        )}
      </td>
      <td className="num">{bytes(i.size_bytes)}</td>
      <td>
        {date(i.mod_updated_at)}
        {tooOld && <span className="badge warn"> too old</span>}
      </td>
      <td>{missing ? <span className="badge warn">needs {missing.join(", ")}</span> : <span className="muted">complete</span>}</td>
      <td>
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

function Mods({ list }: { list: ListDetail }) {
  const { can_add: canAdd, can_remove: canRemove } = list.my_access;
  const refresh = useRefresh(list.id);
  const navigate = useNavigate();
  const [filter, setFilter] = useState("");
  const deferredFilter = useDeferredValue(filter);
  const [sort, setSort] = useState<"position" | "name" | "size" | "updated">("position");
  const [editing, setEditing] = useState<string | null>(null);
  const [removed, setRemoved] = useState<{ workshop_id: string; name: string } | null>(null);
  const remove = useMutation({
    mutationFn: (item: ListItem) => removeMod(list.id, item.workshop_id).then(() => item),
    onSuccess: (item) => {
      setRemoved({ workshop_id: item.workshop_id, name: item.name });
      refresh();
    },
  });
  const undo = useMutation({
    mutationFn: async () => {
      const entries = await audit(list.id);
      const entry = entries.find((e) => e.action === "remove_mod" && e.workshop_id === removed!.workshop_id && !e.reverted);
      if (!entry) throw new Error("the removal is no longer in the history");
      return revert(list.id, entry.id);
    },
    onSuccess: () => {
      setRemoved(null);
      refresh();
    },
  });
  const needs = useMemo(() => dependencyStatus(list), [list]);
  const oldBefore = list.max_mod_age_days == null ? null : Date.now() - list.max_mod_age_days * DAY_MS;
  const rows = useMemo(() => {
    const f = deferredFilter.trim().toLowerCase();
    const r = list.items.filter((i) => !f || i.name.toLowerCase().includes(f) || i.workshop_id.toLowerCase().includes(f));
    if (sort === "name") r.sort((a, b) => a.name.localeCompare(b.name));
    if (sort === "size") r.sort((a, b) => b.size_bytes - a.size_bytes);
    if (sort === "updated") r.sort((a, b) => (a.mod_updated_at ?? "").localeCompare(b.mod_updated_at ?? ""));
    return r;
  }, [list.items, deferredFilter, sort]);
  const onRemove = useCallback((i: ListItem) => remove.mutate(i), [remove.mutate]);
  const editingItem = editing ? list.items.find((i) => i.workshop_id === editing) : undefined;
  return (
    <div className="stack">
      {canAdd && <AddMod list={list} />}
      {removed && canAdd && (
        <div className="alert ok row" role="status" style={{ alignItems: "center" }}>
          Removed {removed.name}.
          <button type="button" className="btn secondary" onClick={() => undo.mutate()} disabled={undo.isPending}>
            Undo
          </button>
        </div>
      )}
      <ErrorMessage error={remove.error ?? undo.error} />
      {list.missing_dependencies.length > 0 && (
        <Notice kind="warn">
          {list.missing_dependencies.length} dependencies are missing.{" "}
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
            {rows.length === list.items.length ? `${num(rows.length)} mods` : `${num(rows.length)} of ${num(list.items.length)} mods`}
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
            <table className="fixed">
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
                    tooOld={oldBefore !== null && i.mod_updated_at !== null && Date.parse(i.mod_updated_at) < oldBefore}
                    canPin={canAdd}
                    canRemove={canRemove}
                    busy={remove.isPending}
                    onPin={setEditing}
                    onRemove={onRemove}
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

function Check({ list, share }: { list: ListDetail; share?: string }) {
  const refresh = useRefresh(list.id);
  const check = useQuery({ queryKey: ["list-check", list.id, share], queryFn: ({ signal }) => checkList(list.id, share, signal) });
  const fix = useMutation({
    mutationFn: async (ids: string[]) => {
      for (const id of ids) await addMod(list.id, id, true);
    },
    onSuccess: refresh,
  });
  if (check.isLoading) return <Skeleton />;
  if (check.error) return <ErrorMessage error={check.error} retry={() => check.refetch()} />;
  const c = check.data!;
  return (
    <section className="stack" aria-label="Pre-flight check">
      {c.ok ? (
        <Notice kind="ok">Ready to deploy: {num(c.mod_count)} mods, {bytes(c.total_download_size_bytes)} to download.</Notice>
      ) : (
        <Notice kind="warn">Fix the problems below before deploying.</Notice>
      )}
      {c.findings.map((f, i) => (
        <div key={i} className={`alert ${f.severity === "error" ? "error" : f.severity === "warning" ? "warn" : "info"}`}>
          <p style={{ margin: 0 }}>
            <strong>{f.severity}</strong>: {f.message}
          </p>
          {f.kind === "missing_dependency" && f.mods.length > 0 && list.my_access.can_add && (
            // mods[0] is the missing one; the rest are the mods that require it
            <button type="button" className="btn" onClick={() => fix.mutate([f.mods[0]!])} disabled={fix.isPending}>
              Add the missing mods
            </button>
          )}
        </div>
      ))}
      <ErrorMessage error={fix.error} />
    </section>
  );
}

function DiffView({ diff }: { diff: ImportDiff }) {
  const groups: [string, { key: string; text: string }[]][] = [
    ["Added", diff.added.map((a) => ({ key: a.workshop_id, text: `${a.name || a.workshop_id} ${a.version} (${bytes(a.size_bytes)})` }))],
    ["Removed", diff.removed.map((r) => ({ key: r.workshop_id, text: r.name || r.workshop_id }))],
    ["Version changed", diff.version_changed.map((v) => ({ key: v.workshop_id, text: `${v.name}: ${v.old_version ?? "latest"} → ${v.new_version ?? "latest"}` }))],
    ["Not in the catalog (will be fetched)", diff.not_in_catalog.map((n) => ({ key: n.mod_id, text: `${n.name || n.mod_id}` }))],
    ...(diff.order_changed.length > 0
      ? ([["Order changed", diff.order_changed.map((o) => ({ key: o.workshop_id, text: `${o.name || o.workshop_id}: position ${o.old_index + 1} → ${o.new_index + 1}` }))]] as [string, { key: string; text: string }[]][])
      : []),
  ];
  return (
    <div className="stack">
      {groups.map(([title, items]) => (
        <div key={title}>
          <h3>
            {title} ({items.length})
          </h3>
          {items.length > 0 && (
            <ul>
              {items.map((i) => (
                <li key={i.key}>{i.text}</li>
              ))}
            </ul>
          )}
        </div>
      ))}
    </div>
  );
}

function Import({ list }: { list: ListDetail }) {
  const refresh = useRefresh(list.id);
  const [text, setText] = useState("");
  const [order, setOrder] = useState(false);
  const preview = useMutation({ mutationFn: () => importPreview(list.id, text, order) });
  const apply = useMutation({ mutationFn: () => importApply(list.id, text, order), onSuccess: refresh });
  return (
    <section className="stack" aria-label="Import">
      <p>
        Paste a server.json (the whole file, <code>{'{"mods": […]}'}</code>, the <code>"mods": […]</code> fragment or a bare array), or choose the file. The list
        becomes exactly what it names; nothing changes until you apply.
      </p>
      <div className="field">
        <label htmlFor="import-file">server.json file</label>
        <input
          id="import-file"
          type="file"
          accept=".json,application/json,text/plain"
          onChange={async (e) => {
            const f = e.target.files?.[0];
            if (f) setText(await f.text());
          }}
        />
      </div>
      <div className="field">
        <label htmlFor="import-text">Configuration text</label>
        <textarea id="import-text" rows={10} className="mono" value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <label className="row" style={{ alignItems: "center", gap: "0.5rem" }}>
        <input
          type="checkbox"
          checked={order}
          onChange={(e) => {
            setOrder(e.target.checked);
            preview.reset();
          }}
          style={{ minHeight: 0 }}
        />{" "}
        Also take the file's order of mods
      </label>
      <div className="row">
        <button type="button" className="btn secondary" disabled={!text.trim() || preview.isPending} onClick={() => preview.mutate()}>
          Preview changes
        </button>
        <button type="button" className="btn" disabled={!preview.data || apply.isPending} onClick={() => apply.mutate()}>
          Apply
        </button>
      </div>
      <ErrorMessage error={preview.error ?? apply.error} />
      {apply.data && (
        <Notice kind="ok">
          Applied: {apply.data.added} added, {apply.data.removed} removed, {apply.data.version_changed} versions changed.
        </Notice>
      )}
      {preview.data && !apply.data && (
        <>
          <h2>What would change</h2>
          <DiffView diff={preview.data} />
        </>
      )}
      {list.my_access.is_owner && <CopyFromServer list={list} onDone={() => refresh()} />}
    </section>
  );
}

function Export({ list, share }: { list: ListDetail; share?: string }) {
  const [kind, setKind] = useState<"fragment" | "game">("fragment");
  const [type, setType] = useState<"fixed" | "latest">("fixed");
  const [copied, setCopied] = useState(false);
  const text = useQuery({ queryKey: ["list-export", list.id, kind, type, list.updated_at, share], queryFn: () => exportText(list.id, kind, type, share) });
  const href = useMemo(() => (text.data ? URL.createObjectURL(new Blob([text.data], { type: "application/json" })) : undefined), [text.data]);
  return (
    <section className="stack" aria-label="Export">
      <div className="row">
        <SelectField label="What" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
          <option value="fragment">The mods fragment of server.json</option>
          <option value="game">A complete server config</option>
        </SelectField>
        <SelectField label="Versions" value={type} onChange={(e) => setType(e.target.value as typeof type)}>
          <option value="fixed">Fixed (pins and current versions)</option>
          <option value="latest">Latest (no versions: the server takes the newest)</option>
        </SelectField>
      </div>
      <ErrorMessage error={text.error} />
      {text.data && (
        <>
          <div className="field">
            <label htmlFor="export-text">Exported configuration</label>
            <textarea id="export-text" className="mono" rows={12} readOnly value={text.data} />
          </div>
          <div className="row">
            <button
              type="button"
              className="btn"
              onClick={async () => {
                await navigator.clipboard.writeText(text.data!).then(
                  () => setCopied(true),
                  () => setCopied(false),
                );
              }}
            >
              {copied ? "Copied" : "Copy"}
            </button>
            <a className="btn secondary" href={href} download={kind === "game" ? "config.json" : "server.json"}>
              Download
            </a>
          </div>
        </>
      )}
    </section>
  );
}

const LIVE = "live";

function Snapshots({ list }: { list: ListDetail }) {
  const refresh = useRefresh(list.id);
  const qc = useQueryClient();
  const all = useQuery({ queryKey: ["list-snapshots", list.id], queryFn: ({ signal }) => snapshots(list.id, undefined, signal) });
  const live = useQuery({ queryKey: ["list-live", list.id, list.updated_at], queryFn: ({ signal }) => liveSnapshot(list.id, undefined, signal) });
  const [name, setName] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState(LIVE);
  const create = useMutation({
    mutationFn: () => createSnapshot(list.id, { version_name: name || undefined }),
    onSuccess: () => {
      setName("");
      void qc.invalidateQueries({ queryKey: ["list-snapshots", list.id] });
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
      {restore.data && <Notice kind="ok">Restored: {restore.data.added} added, {restore.data.removed} removed, {restore.data.version_changed} versions changed.</Notice>}
      {all.data && all.data.length > 0 && (
        <>
          <DataTable
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

function History({ list }: { list: ListDetail }) {
  const refresh = useRefresh(list.id);
  const entries = useQuery({ queryKey: ["list-audit", list.id], queryFn: ({ signal }) => audit(list.id, signal) });
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
  const owners = useQuery({ queryKey: ["list-owners", list.id], queryFn: ({ signal }) => coOwners(list.id, signal) });
  const again = () => qc.invalidateQueries({ queryKey: ["list-owners", list.id] });
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

function Sharing({ list }: { list: ListDetail }) {
  const refresh = useRefresh(list.id);
  const qc = useQueryClient();
  const origin = typeof location === "undefined" ? "" : location.origin;
  const visibility = useMutation({ mutationFn: (is_public: boolean) => updateList(list.id, { is_public }), onSuccess: refresh });
  const share = useMutation({ mutationFn: () => resetShareToken(list.id), onSuccess: refresh });
  const suggestReset = useMutation({ mutationFn: () => resetSuggestionToken(list.id), onSuccess: refresh });
  const collab = useQuery({ queryKey: ["list-collaborators", list.id], queryFn: ({ signal }) => collaborators(list.id, signal) });
  const refreshCollab = () => qc.invalidateQueries({ queryKey: ["list-collaborators", list.id] });
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

function Suggestions({ list }: { list: ListDetail }) {
  const refresh = useRefresh(list.id);
  const qc = useQueryClient();
  const [status, setStatus] = useState<"pending" | "accepted" | "rejected">("pending");
  const [notes, setNotes] = useState<Record<string, string>>({});
  const all = useQuery({ queryKey: ["list-suggestions", list.id], queryFn: ({ signal }) => suggestionsOf(list.id, signal) });
  const fields = useQuery({ queryKey: ["form-fields", list.id], queryFn: ({ signal }) => formFields(list.id, undefined, signal) });
  const labelOf = (fieldId: string) => fields.data?.find((f) => f.id === fieldId)?.label ?? "Answer";
  const again = () => void qc.invalidateQueries({ queryKey: ["list-suggestions", list.id] });
  const voteOn = useMutation({ mutationFn: (x: { id: string; v: 0 | 1 }) => vote(list.id, x.id, x.v), onSuccess: again });
  const decide = useMutation({
    mutationFn: (x: { id: string; status: "accepted" | "rejected" }) => review(list.id, x.id, x.status, notes[x.id] ?? ""),
    onSuccess: () => (again(), refresh()),
  });
  const block = useMutation({ mutationFn: (userId: string) => blockUser(list.id, userId), onSuccess: () => qc.invalidateQueries({ queryKey: ["list-blocks", list.id] }) });
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

/** Templates: make one of this list, follow one (its mods are applied, later pushes too), push yours. */
function Templates({ list }: { list: ListDetail }) {
  const { me } = useSession();
  const refresh = useRefresh(list.id);
  const qc = useQueryClient();
  const all = useQuery({ queryKey: ["templates"], queryFn: ({ signal }) => templates(signal) });
  const links = useQuery({ queryKey: ["template-links", list.id], queryFn: ({ signal }) => templateLinks(list.id, signal) });
  const again = () => (void qc.invalidateQueries({ queryKey: ["templates"] }), void qc.invalidateQueries({ queryKey: ["template-links", list.id] }));
  const [name, setName] = useState(`${list.name} template`);
  const [chosen, setChosen] = useState("");
  const make = useMutation({ mutationFn: () => createTemplate(list.id, name), onSuccess: again });
  const apply = useMutation({ mutationFn: () => applyTemplate(list.id, chosen), onSuccess: () => (again(), refresh()) });
  const drop = useMutation({ mutationFn: (tid: string) => unsubscribe(list.id, tid), onSuccess: again });
  const push = useMutation({ mutationFn: (tid: string) => pushTemplate(tid), onSuccess: () => (again(), refresh()) });
  const mine = (all.data ?? []).filter((t) => t.owner_id === me?.id);
  return (
    <section className="stack" aria-label="Templates">
      <ErrorMessage error={make.error ?? apply.error ?? drop.error ?? push.error ?? all.error ?? links.error} />
      <div className="card stack">
        <h2 style={{ marginTop: 0 }}>Follow a template</h2>
        <p className="muted">Its mods are added now, and the changes its owner pushes later are applied to this list.</p>
        <div className="row">
          <SelectField label="Template" value={chosen} onChange={(e) => setChosen(e.target.value)}>
            <option value="">Choose</option>
            {(all.data ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.mod_count} mods)
              </option>
            ))}
          </SelectField>
          <button type="button" className="btn" disabled={!chosen || apply.isPending} onClick={() => apply.mutate()}>
            Follow and apply
          </button>
        </div>
        {apply.data && (
          <Notice kind="ok">
            Applied: {apply.data.added} added, {apply.data.removed} removed, {apply.data.version_changed} versions changed.
          </Notice>
        )}
        {links.data && links.data.length > 0 && (
          <DataTable
            caption="Templates this list follows"
            rows={links.data}
            rowKey={(t) => t.template_id}
            columns={[
              { header: "Template", cell: (t) => t.name },
              { header: "Mods", num: true, cell: (t) => num(t.mod_count) },
              {
                header: "Actions",
                hiddenHeader: true,
                cell: (t) => (
                  <ConfirmButton question={`Stop following “${t.name}”? Its mods stay in the list.`} onConfirm={() => drop.mutate(t.template_id)} label={`Stop following ${t.name}`}>
                    Stop following
                  </ConfirmButton>
                ),
              },
            ]}
          />
        )}
      </div>
      <form
        className="card stack"
        onSubmit={(e) => {
          e.preventDefault();
          make.mutate();
        }}
      >
        <h2 style={{ marginTop: 0 }}>Make a template of this list</h2>
        <Field label="Template name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <div>
          <button type="submit" className="btn secondary" disabled={make.isPending}>
            Make template
          </button>
        </div>
        {make.data && <Notice kind="ok">Template “{make.data.name}” made with {make.data.mod_count} mods.</Notice>}
      </form>
      {mine.length > 0 && (
        <div className="card stack">
          <h2 style={{ marginTop: 0 }}>Your templates</h2>
          <p className="muted">Pushing takes the template's list as it is now and applies it to every list that follows the template.</p>
          <DataTable
            caption="Templates you own"
            rows={mine}
            rowKey={(t) => t.id}
            columns={[
              { header: "Template", cell: (t) => t.name },
              { header: "Mods", num: true, cell: (t) => num(t.mod_count) },
              { header: "Updated", cell: (t) => dateTime(t.updated_at) },
              {
                header: "Actions",
                hiddenHeader: true,
                cell: (t) => (
                  <button type="button" className="btn secondary" onClick={() => push.mutate(t.id)} disabled={push.isPending}>
                    Push updates<span className="sr-only"> of {t.name} to its followers</span>
                  </button>
                ),
              },
            ]}
          />
          {push.data && (
            <Notice kind="ok">
              Pushed to {push.data.lists} lists: {push.data.results.reduce((n, r) => n + r.added, 0)} mods added, {push.data.results.reduce((n, r) => n + r.removed, 0)} removed.
            </Notice>
          )}
        </div>
      )}
    </section>
  );
}
