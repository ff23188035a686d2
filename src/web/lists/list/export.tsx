// The Export tab: the mods fragment or a complete server config, fixed or latest versions; copy or download.
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ErrorMessage, SelectField } from "../../ui/components";
import { listQueries } from "../lists.queries";
import type { ListTabProps } from "./tab";

export default function Export({ list, share }: ListTabProps) {
  const [kind, setKind] = useState<"fragment" | "game">("fragment");
  const [type, setType] = useState<"fixed" | "latest">("fixed");
  const [copied, setCopied] = useState(false);
  const text = useQuery(listQueries.export(list.id, kind, type, list.updated_at, share));
  const href = useMemo(() => (text.data ? URL.createObjectURL(new Blob([text.data.text], { type: "application/json" })) : undefined), [text.data]);
  return (
    <section className="stack" aria-label="Export">
      <div className="row">
        <SelectField label="What" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
          <option value="fragment">The mods fragment of server.json</option>
          <option value="game">A complete server config</option>
        </SelectField>
        <SelectField label="Versions" value={type} onChange={(e) => setType(e.target.value as typeof type)}>
          <option value="fixed">Fixed: pins only, other mods without a version</option>
          <option value="latest">Latest: every mod at today's newest version</option>
        </SelectField>
      </div>
      <p className="muted" id="export-versions-help">
        {type === "fixed"
          ? "Fixed writes a version only for the mods you pinned; every other mod has no version, so the server downloads its newest version each time it starts."
          : "Latest writes every mod with the newest version the catalog knows now, pinned or not: the server keeps exactly these versions until you export again."}
      </p>
      <ErrorMessage error={text.error} />
      {text.data?.config === "defaults" && (
        <p role="note">
          This list was not imported from a complete server config, so the file has the documented defaults (Conflict on Everon, 64 players, BattlEye on, port 2001):
          check them before you use it.
        </p>
      )}
      {text.data?.config === "imported" && (
        <p role="note">
          The settings are those of the server config this list was imported from{text.data.secretsWithheld ? "; its passwords are left empty because only the list's owners may read them" : ""}.
        </p>
      )}
      {text.data && (
        <>
          <div className="field">
            <label htmlFor="export-text">Exported configuration</label>
            <textarea id="export-text" className="mono" rows={12} readOnly value={text.data.text} />
          </div>
          <div className="row">
            <button
              type="button"
              className="btn"
              onClick={async () => {
                await navigator.clipboard.writeText(text.data!.text).then(
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
