// The Import tab: paste or upload a server.json, preview what would change, apply (one audited,
// undoable change); owners may also copy a live server's mods.
import { Fragment, useId, useState, type ReactNode } from "react";
import { useMutation } from "@tanstack/react-query";
import { bytes, count } from "../../app/format";
import { ApiError } from "../../app/api";
import { ErrorMessage, Notice } from "../../ui/components";
import { decodeTextFile } from "../../../shared/text-file";
import { importApply, importPreview, type ConfigChoice, type ImportDiff, type PinResolutions } from "../lists.services";
import { useListRefresh } from "../lists.queries";
import { CopyFromServer } from "../components/copy-from-server";
import type { ListTabProps } from "./tab";

/** One change: its mark (+, −, → …, never colour alone), the mod, what happens to it. */
type Change = { key: string; mark: string; what: string; how?: string };
type Group = { title: string; danger?: boolean; note?: string; items: Change[] };

const pinWord = (v: string | null) => (v === null ? "its newest version" : v);

/** Where a file's path names a mod entry ("game.mods[2].modid"), the entry in words: "mod entry 3". */
const entryWords = (message: string) =>
  message.replace(/\b(?:game\.)?mods\[(\d+)\](?:\.([\w"[\]]+))?/g, (_m, i: string, key?: string) => (key ? `“${key}” of mod entry ${Number(i) + 1}` : `mod entry ${Number(i) + 1}`));

/** Every change the import makes, grouped; a group without changes is not shown. */
function groupsOf(diff: ImportDiff): Group[] {
  const all: Group[] = [
    {
      title: "Removed",
      danger: true,
      note: "These mods leave the list (the change is in the history and can be undone).",
      items: diff.removed.map((r) => ({ key: r.workshop_id, mark: "−", what: r.name || r.workshop_id })),
    },
    {
      title: "Added",
      items: diff.added.map((a) => ({
        key: a.workshop_id,
        mark: "+",
        what: a.name || a.workshop_id,
        how: `${a.pinned ? `pinned to ${a.version}` : `${a.version}, follows its newest version`} · ${bytes(a.size_bytes)}`,
      })),
    },
    {
      title: "Not in the catalog yet",
      note: "Added to the list and read from the workshop right after.",
      items: diff.not_in_catalog.map((n) => ({ key: n.mod_id, mark: "+", what: n.name || n.mod_id, how: n.version ? `pinned to ${n.version}` : "follows its newest version" })),
    },
    {
      title: "Version pins changed",
      items: diff.version_changed.map((v) => ({
        key: v.workshop_id,
        mark: "→",
        what: v.name,
        how: v.new_version === null ? `unpinned: follows its newest version (was pinned to ${v.old_version})` : `pinned to ${v.new_version} (was ${pinWord(v.old_version)})`,
      })),
    },
    {
      title: "Pins on the newest version",
      note: "The file names the version these mods are at today. The list already follows their newest version, so they stay unpinned and move on with the next update; pin one in the Mods tab to keep it at this version.",
      items: diff.kept_latest.map((k) => ({ key: k.workshop_id, mark: "=", what: k.name, how: `${k.version}, stays unpinned` })),
    },
    {
      title: "Required changed",
      items: diff.required_changed.map((r) => ({ key: r.workshop_id, mark: "→", what: r.name, how: `${requiredWord(r.old_required)} → ${requiredWord(r.new_required)}` })),
    },
    {
      title: "Order changed",
      items: diff.order_changed.map((o) => ({ key: o.workshop_id, mark: "↕", what: o.name || o.workshop_id, how: `position ${o.old_index + 1} → ${o.new_index + 1}` })),
    },
  ];
  return all.filter((g) => g.items.length > 0);
}

/** The import in one sentence: what it adds, removes (marked: it is destructive) and changes. */
function Summary({ diff }: { diff: ImportDiff }) {
  const parts: ReactNode[] = [];
  const added = diff.added.length + diff.not_in_catalog.length;
  if (added) parts.push(`adds ${count(added, "mod")}`);
  if (diff.removed.length)
    parts.push(
      <span key="removed" className="removed">
        removes {count(diff.removed.length, "mod")}
      </span>,
    );
  if (diff.version_changed.length) parts.push(`changes ${count(diff.version_changed.length, "version pin")}`);
  if (diff.required_changed.length) parts.push(`changes whether ${diff.required_changed.length === 1 ? "1 mod is" : `${diff.required_changed.length} mods are`} required`);
  if (diff.order_changed.length) parts.push(`moves ${count(diff.order_changed.length, "mod")}`);
  if (!parts.length) return <p>The list's mods stay as they are.</p>;
  return (
    <p>
      <strong>
        Applying{" "}
        {parts.map((p, i) => (
          <Fragment key={i}>
            {i > 0 && (i === parts.length - 1 ? " and " : ", ")}
            {p}
          </Fragment>
        ))}
        .
      </strong>
    </p>
  );
}

function DiffView({ diff }: { diff: ImportDiff }) {
  const groups = groupsOf(diff);
  const ids = useId();
  return (
    <div className="stack">
      <Summary diff={diff} />
      {diff.notes.length > 0 && (
        <section className="diff-card" aria-labelledby="about-h">
          <h3 id="about-h">About the file</h3>
          <ul aria-label="About the file" className="plain-list">
            {diff.notes.map((n) => (
              <li key={n}>{entryWords(n)}</li>
            ))}
          </ul>
        </section>
      )}
      {groups.map((g, i) => (
        <section key={g.title} aria-labelledby={`${ids}-${i}`} className={g.danger ? "diff-card danger" : "diff-card"}>
          <h3 id={`${ids}-${i}`}>
            {g.title} ({g.items.length})
          </h3>
          {g.note && <p className="muted small flush">{g.note}</p>}
          <ul className="change-list">
            {g.items.map((i) => (
              <li key={i.key}>
                <span className="mark" aria-hidden="true">
                  {i.mark}
                </span>
                <span className="what">{i.what}</span>
                {i.how && <span className="how">{i.how}</span>}
              </li>
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
    <section aria-labelledby="settings-h" className="diff-card stack">
      <h3 id="settings-h">Server settings</h3>
      {ACTION_WORDS[config.action] && <p>{ACTION_WORDS[config.action]}</p>}
      {config.problems.length > 0 && (
        <section aria-label="What the game would refuse" className="diff-card danger">
          <h4>The game would {config.problems.some((p) => p.fatal) ? "refuse" : "misread"} {count(config.problems.length, "setting")} of this file</h4>
          <p className="muted">The server checks its config when it starts and stops on these; the import itself goes ahead.</p>
          <ul className="plain-list">
            {config.problems.map((p) => (
              <li key={`${p.path}:${p.line}:${p.kind}`}>
                <span className="mono">line {p.line}</span> {entryWords(p.message)}
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
        <section aria-label="Settings removed" className={replacing ? "diff-card danger" : "diff-card"}>
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
        <section aria-label="Settings changed" className="diff-card">
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
    <section role="group" aria-labelledby="stale-h" className={open > 0 ? "diff-card attention stack" : "diff-card stack"}>
      <h3 id="stale-h">{diff.stale_pins.length === 1 ? "1 pinned version the catalog does not have" : `${diff.stale_pins.length} pinned versions the catalog does not have`}</h3>
      <p className="flush">
        The file pins versions the workshop no longer offers (or never did). Import one unpinned and it follows its newest version; skip it and{" "}
        {diff.stale_pins.some((p) => p.in_list) ? "the list keeps its own entry (a new mod is left out)" : "it is left out"}.
      </p>
      <p className="flush" aria-live="polite">
        <strong>{open > 0 ? `Choose what to do with each (${open} left) before you apply.` : "Every one has a choice; apply imports them all in one go."}</strong>
      </p>
      <ul className="choice-list">
        {diff.stale_pins.map((p) => (
          <li key={p.workshop_id}>
            <div role="radiogroup" aria-label={`${p.name || p.workshop_id} ${p.version}`}>
              <div>
                <strong>{p.name || p.workshop_id}</strong> <span className="muted">pinned to {p.version}; the newest the catalog knows is {p.latest_version || "unknown"}</span>
              </div>
              <div className="choices-inline">
                <label className="radio">
                  <input type="radio" name={`pin-${p.workshop_id}`} checked={choices[p.workshop_id] === "unpinned"} onChange={() => onChoose(p.workshop_id, "unpinned")} />
                  <span>Import unpinned</span>
                </label>
                <label className="radio">
                  <input type="radio" name={`pin-${p.workshop_id}`} checked={choices[p.workshop_id] === "skip"} onChange={() => onChoose(p.workshop_id, "skip")} />
                  <span>{p.in_list ? "Skip (keep the list's entry as it is)" : "Skip (leave it out)"}</span>
                </label>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </section>
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
      <label className="check">
        <input
          type="checkbox"
          checked={order}
          onChange={(e) => {
            setOrder(e.target.checked);
            resetPreview();
          }}
        />
        <span>Also take the file's order of mods</span>
      </label>
      <div className="row">
        <button type="button" className={diff ? "btn secondary" : "btn"} disabled={!text.trim() || preview.isPending} onClick={() => preview.mutate({ pins: choices, config: configChoice })}>
          Preview changes
        </button>
      </div>
      {/* The API names a refused entry by its path; read here as words ("mod entry 3"). */}
      <ErrorMessage error={preview.error instanceof ApiError ? new ApiError(preview.error.status, entryWords(preview.error.message), preview.error.code) : preview.error} />
      {apply.data && (
        <Notice kind="ok">
          Applied: {apply.data.added} added, {apply.data.removed} removed, {count(apply.data.version_changed, "version")} changed.
        </Notice>
      )}
      {diff && !apply.data && (
        <section className="stack" aria-labelledby="preview-h">
          <h2 id="preview-h">What would change</h2>
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
          <div className="row" style={{ alignItems: "center" }}>
            <button type="button" className={diff.removed.length ? "btn danger" : "btn"} disabled={unresolved || apply.isPending} onClick={() => apply.mutate()}>
              {diff.removed.length ? `Apply and remove ${count(diff.removed.length, "mod")}` : "Apply"}
            </button>
            <span className="muted small">One change in the list's history: it can be undone there.</span>
          </div>
          <ErrorMessage error={apply.error} />
        </section>
      )}
      {list.my_access.is_owner && <CopyFromServer list={list} onDone={() => refresh()} />}
    </section>
  );
}
