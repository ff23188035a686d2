// The Export tab: the mods fragment or a complete server config, fixed or latest versions; copy or download.
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ErrorMessage, SelectField } from "../../ui/components";
import { listQueries } from "../lists.queries";
import { listTab, type ListTabProps } from "./tab";

function Export({ list, share }: ListTabProps) {
  const [kind, setKind] = useState<"fragment" | "game">("fragment");
  const [type, setType] = useState<"fixed" | "latest">("fixed");
  const [copied, setCopied] = useState(false);
  const text = useQuery(listQueries.export(list.id, kind, type, list.updated_at, share));
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

export const exportTab = listTab({ id: "export", label: "Export", open: () => true, Component: Export });
