// The Import tab: paste or upload a server.json, preview what would change, apply (one audited,
// undoable change); owners may also copy a live server's mods.
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { bytes } from "../../app/format";
import { ErrorMessage, Notice } from "../../ui/components";
import { importApply, importPreview, type ImportDiff } from "../lists.services";
import { useListRefresh } from "../lists.queries";
import { CopyFromServer } from "./access";
import { listTab, mayAddAndRemove, type ListTabProps } from "./tab";

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

function Import({ list }: ListTabProps) {
  const refresh = useListRefresh(list.id);
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

export const importTab = listTab({ id: "import", label: "Import", open: mayAddAndRemove, Component: Import });
