// The Import tab: paste or upload a server.json, preview what would change, apply (one audited,
// undoable change); owners may also copy a live server's mods.
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { bytes, count } from "../../app/format";
import { ErrorMessage, Notice } from "../../ui/components";
import { decodeTextFile } from "../../../shared/text-file";
import { importApply, importPreview, type ConfigChoice, type ImportDiff, type PinResolutions } from "../lists.services";
import { useListRefresh } from "../lists.queries";
import { CopyFromServer } from "../components/copy-from-server";
import type { ListTabProps } from "./tab";

type Group = { title: string; tone?: "removed"; note?: string; items: { key: string; text: string }[] };

function DiffView({ diff }: { diff: ImportDiff }) {
  const all: Group[] = [
    { title: "Added", items: diff.added.map((a) => ({ key: a.workshop_id, text: `${a.name || a.workshop_id} ${a.version} (${bytes(a.size_bytes)})` })) },
    {
      title: "Removed",
      tone: "removed" as const,
      note: "These mods leave the list.",
      items: diff.removed.map((r) => ({ key: r.workshop_id, text: r.name || r.workshop_id })),
    },
    { title: "Version changed", items: diff.version_changed.map((v) => ({ key: v.workshop_id, text: `${v.name}: ${v.old_version ?? "latest"} → ${v.new_version ?? "latest"}` })) },
    { title: "Required changed", items: diff.required_changed.map((r) => ({ key: r.workshop_id, text: `${r.name}: ${requiredWord(r.old_required)} → ${requiredWord(r.new_required)}` })) },
    { title: "Not in the catalog (will be fetched)", items: diff.not_in_catalog.map((n) => ({ key: n.mod_id, text: `${n.name || n.mod_id}` })) },
    { title: "Order changed", items: diff.order_changed.map((o) => ({ key: o.workshop_id, text: `${o.name || o.workshop_id}: position ${o.old_index + 1} → ${o.new_index + 1}` })) },
  ];
  const groups = all.filter((g) => g.items.length > 0);
  const nothing = groups.length === 0;
  return (
    <div className="stack">
      {diff.notes.length > 0 && (
        <ul aria-label="About the file" className="plain-list">
          {diff.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      {nothing && <p>The list's mods stay as they are.</p>}
      {groups.map((g) => (
        <section key={g.title} aria-label={g.title} className={g.tone === "removed" ? "diff-group removed-group" : "diff-group"}>
          <h3>
            {g.title} ({g.items.length})
          </h3>
          {g.note && <p className="muted">{g.note}</p>}
          <ul className="plain-list">
            {g.items.map((i) => (
              <li key={i.key}>{i.text}</li>
            ))}
          </ul>
        </section>
      ))}
      {diff.config && <SettingsView config={diff.config} />}
    </div>
  );
}

type ConfigPreview = NonNullable<ImportDiff["config"]>;

const ACTION_WORDS: Record<ConfigPreview["action"], string> = {
  remember: "The file's server settings will be remembered with the list (its passwords stored encrypted) and written back by the complete config export.",
  replace: "The file's server settings will replace the ones the list remembers.",
  keep: "The list's remembered server settings stay as they are.",
  none: "",
};

/** What the import does with a full config's settings, and what the game would refuse in them. */
function SettingsView({ config }: { config: ConfigPreview }) {
  if (config.file !== "settings") return null;
  const replacing = config.action === "replace";
  return (
    <section aria-label="Server settings" className="stack">
      <h3>Server settings</h3>
      {ACTION_WORDS[config.action] && <p>{ACTION_WORDS[config.action]}</p>}
      {config.problems.length > 0 && (
        <section aria-label="What the game would refuse" className="diff-group removed-group">
          <h4>The game would {config.problems.some((p) => p.fatal) ? "refuse" : "misread"} {count(config.problems.length, "setting")} of this file</h4>
          <p className="muted">The server checks its config when it starts and stops on these; the import itself goes ahead.</p>
          <ul className="plain-list">
            {config.problems.map((p) => (
              <li key={`${p.path}:${p.line}:${p.kind}`}>
                <span className="mono">line {p.line}</span> {p.message}
                {p.fix && (
                  <>
                    {" "}
                    (fix: rename <code>{p.fix.from}</code> to <code>{p.fix.to}</code>)
                  </>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {config.removed.length > 0 && (
        <section aria-label="Settings removed" className={replacing ? "diff-group removed-group" : "diff-group"}>
          <h4>
            {replacing ? "Removed" : "Would be removed by replacing"} ({config.removed.length})
          </h4>
          <p className="muted">Remembered settings this file does not have.</p>
          <ul className="plain-list mono">
            {config.removed.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </section>
      )}
      {config.changed.length + config.added.length > 0 && (
        <section aria-label="Settings changed" className="diff-group">
          <h4>Differ from the remembered settings ({config.changed.length + config.added.length})</h4>
          <ul className="plain-list mono">
            {[...config.changed, ...config.added].map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </section>
      )}
      {config.secrets.length > 0 && (
        <p className="muted">
          {config.may_replace
            ? `Passwords that differ: ${config.secrets.map((x) => x.path).join(", ")}.`
            : `The file sets ${config.secrets.map((x) => x.path).join(", ")}; the remembered values are kept unless an owner applies it.`}
        </p>
      )}
    </section>
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
              <strong>{p.name || p.workshop_id}</strong> {p.version} (newest known {p.latest_version || "unknown"})
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
  const [configChoice, setConfigChoice] = useState<ConfigChoice>("keep");
  // The last answer stays on screen while a new choice is previewed (no flicker under the radio buttons).
  const [diff, setDiff] = useState<ImportDiff | null>(null);
  const preview = useMutation({
    mutationFn: ({ pins, config }: { pins: PinResolutions; config: ConfigChoice }) => importPreview(list.id, text, order, pins, config),
    onSuccess: setDiff,
  });
  const resetPreview = () => {
    preview.reset();
    setDiff(null);
  };
  const apply = useMutation({ mutationFn: () => importApply(list.id, text, order, choices, configChoice), onSuccess: refresh });
  const canReplace = !!diff?.config && diff.config.may_replace && diff.config.remembered && diff.config.file === "settings" && (diff.config.action === "keep" || diff.config.action === "replace") && diff.config_changes.length > 0;
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
            setConfigChoice("keep");
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
            setConfigChoice("keep");
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
        <button type="button" className="btn secondary" disabled={!text.trim() || preview.isPending} onClick={() => preview.mutate({ pins: choices, config: configChoice })}>
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
              preview.mutate({ pins: next, config: configChoice });
            }}
          />
          <DiffView diff={diff} />
          {canReplace && (
            <label className="row check-row">
              <input
                type="checkbox"
                checked={configChoice === "replace"}
                onChange={(e) => {
                  const next: ConfigChoice = e.target.checked ? "replace" : "keep";
                  setConfigChoice(next);
                  preview.mutate({ pins: choices, config: next });
                }}
              />
              Replace the remembered server settings with this file's
            </label>
          )}
        </>
      )}
      {list.my_access.is_owner && <CopyFromServer list={list} onDone={() => refresh()} />}
    </section>
  );
}
