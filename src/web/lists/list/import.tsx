// The Import tab: paste or upload a server.json, preview what would change, apply (one audited,
// undoable change); owners may also copy a live server's mods.
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { bytes, count } from "../../app/format";
import { ErrorMessage, Notice } from "../../ui/components";
import { decodeTextFile } from "../../../shared/text-file";
import { importApply, importPreview, type ImportDiff, type PinResolutions } from "../lists.services";
import { useListRefresh } from "../lists.queries";
import { CopyFromServer } from "../components/copy-from-server";
import type { ListTabProps } from "./tab";

function DiffView({ diff }: { diff: ImportDiff }) {
  const groups: [string, { key: string; text: string }[]][] = [
    ["Added", diff.added.map((a) => ({ key: a.workshop_id, text: `${a.name || a.workshop_id} ${a.version} (${bytes(a.size_bytes)})` }))],
    ["Removed", diff.removed.map((r) => ({ key: r.workshop_id, text: r.name || r.workshop_id }))],
    ["Version changed", diff.version_changed.map((v) => ({ key: v.workshop_id, text: `${v.name}: ${v.old_version ?? "latest"} → ${v.new_version ?? "latest"}` }))],
    [
      "Required changed",
      diff.required_changed.map((r) => ({ key: r.workshop_id, text: `${r.name}: ${requiredWord(r.old_required)} → ${requiredWord(r.new_required)}` })),
    ],
    ["Not in the catalog (will be fetched)", diff.not_in_catalog.map((n) => ({ key: n.mod_id, text: `${n.name || n.mod_id}` }))],
    ...(diff.order_changed.length > 0
      ? ([["Order changed", diff.order_changed.map((o) => ({ key: o.workshop_id, text: `${o.name || o.workshop_id}: position ${o.old_index + 1} → ${o.new_index + 1}` }))]] as [string, { key: string; text: string }[]][])
      : []),
    ...(diff.config_changes.length > 0
      ? ([["Server settings changed", diff.config_changes.map((c) => ({ key: c, text: c }))]] as [string, { key: string; text: string }[]][])
      : []),
  ];
  return (
    <div className="stack">
      {diff.notes.length > 0 && (
        <ul aria-label="About the file">
          {diff.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
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

const requiredWord = (r: boolean | null) => (r === null ? "as the default" : r ? "required" : "optional");

/** Every pin the catalog lacks, each with its choice; the choices go with the preview and the apply. */
function StalePins({ diff, choices, onChoose }: { diff: ImportDiff; choices: PinResolutions; onChoose: (id: string, how: "unpinned" | "skip") => void }) {
  if (diff.stale_pins.length === 0) return null;
  const open = diff.stale_pins.filter((p) => !choices[p.workshop_id]).length;
  return (
    <fieldset className="stack">
      <legend>
        {diff.stale_pins.length === 1 ? "1 pinned version the catalog does not have" : `${diff.stale_pins.length} pinned versions the catalog does not have`}
      </legend>
      <p>{open > 0 ? `Choose what to do with each (${open} left) before you apply.` : "Every one has a choice; apply imports them all in one go."}</p>
      <ul className="stack">
        {diff.stale_pins.map((p) => (
          <li key={p.workshop_id}>
            <div role="radiogroup" aria-label={`${p.name || p.workshop_id} ${p.version}`}>
              <strong>{p.name || p.workshop_id}</strong> {p.version} ({p.entry}; newest known {p.latest_version || "unknown"})
              <label className="row" style={{ alignItems: "center", gap: "0.35rem" }}>
                <input type="radio" name={`pin-${p.workshop_id}`} checked={choices[p.workshop_id] === "unpinned"} onChange={() => onChoose(p.workshop_id, "unpinned")} style={{ minHeight: 0 }} />
                Import unpinned
              </label>
              <label className="row" style={{ alignItems: "center", gap: "0.35rem" }}>
                <input type="radio" name={`pin-${p.workshop_id}`} checked={choices[p.workshop_id] === "skip"} onChange={() => onChoose(p.workshop_id, "skip")} style={{ minHeight: 0 }} />
                {p.in_list ? "Skip (keep the list's entry as it is)" : "Skip (leave it out)"}
              </label>
            </div>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

export default function Import({ list }: ListTabProps) {
  const refresh = useListRefresh(list.id);
  const [text, setText] = useState("");
  const [order, setOrder] = useState(false);
  const [choices, setChoices] = useState<PinResolutions>({});
  // The last answer stays on screen while a new choice is previewed (no flicker under the radio buttons).
  const [diff, setDiff] = useState<ImportDiff | null>(null);
  const preview = useMutation({ mutationFn: (c: PinResolutions) => importPreview(list.id, text, order, c), onSuccess: setDiff });
  const resetPreview = () => {
    preview.reset();
    setDiff(null);
  };
  const apply = useMutation({ mutationFn: () => importApply(list.id, text, order, choices), onSuccess: refresh });
  const unresolved = diff ? diff.stale_pins.some((p) => !choices[p.workshop_id]) : false;
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
            if (!f) return;
            // UTF-8 (BOM dropped) or UTF-16 with a BOM, as the server reads a pasted body.
            const decoded = decodeTextFile(new Uint8Array(await f.arrayBuffer()));
            setText(decoded ? decoded.text : await f.text());
            setChoices({});
            resetPreview();
          }}
        />
      </div>
      <div className="field">
        <label htmlFor="import-text">Configuration text</label>
        <textarea
          id="import-text"
          rows={10}
          className="mono"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setChoices({});
            resetPreview();
          }}
        />
      </div>
      <label className="row" style={{ alignItems: "center", gap: "0.5rem" }}>
        <input
          type="checkbox"
          checked={order}
          onChange={(e) => {
            setOrder(e.target.checked);
            resetPreview();
          }}
          style={{ minHeight: 0 }}
        />{" "}
        Also take the file's order of mods
      </label>
      <div className="row">
        <button type="button" className="btn secondary" disabled={!text.trim() || preview.isPending} onClick={() => preview.mutate(choices)}>
          Preview changes
        </button>
        <button type="button" className="btn" disabled={!diff || unresolved || apply.isPending} onClick={() => apply.mutate()}>
          Apply
        </button>
      </div>
      <ErrorMessage error={preview.error ?? apply.error} />
      {apply.data && (
        <Notice kind="ok">
          Applied: {apply.data.added} added, {apply.data.removed} removed, {count(apply.data.version_changed, "version")} changed.
        </Notice>
      )}
      {diff && !apply.data && (
        <>
          <h2>What would change</h2>
          <StalePins
            diff={diff}
            choices={choices}
            onChoose={(id, how) => {
              const next = { ...choices, [id]: how };
              setChoices(next);
              preview.mutate(next);
            }}
          />
          <DiffView diff={diff} />
        </>
      )}
      {list.my_access.is_owner && <CopyFromServer list={list} onDone={() => refresh()} />}
    </section>
  );
}
