// The credential fields for a connection type. Write-only: the API stores them encrypted and
// never returns them; the page only knows whether they are set.
import { useEffect, useState } from "react";
import { Field, SelectField } from "../../ui/components";
import type { PanelCredentials, SftpCredentials } from "../my-servers.services";

export function CredentialsForm({ type, onChange, idPrefix = "cred" }: { type: "panel" | "sftp"; onChange: (c: PanelCredentials | SftpCredentials | null) => void; idPrefix?: string }) {
  const [panel, setPanel] = useState<PanelCredentials>({ panel_url: "", api_key: "", server_uuid: "" });
  const [sftp, setSftp] = useState({ host: "", port: "22", username: "", password: "" });
  useEffect(() => {
    if (type === "panel") onChange(panel.panel_url && panel.api_key && panel.server_uuid ? panel : null);
    else onChange(sftp.host && sftp.username && sftp.password ? { ...sftp, port: Number(sftp.port) || 22 } : null);
  }, [type, panel, sftp, onChange]);
  return (
    <fieldset className="stack" style={{ border: "1px solid var(--border)", borderRadius: "var(--radius)", padding: "0.75rem" }}>
      <legend className="small" style={{ fontWeight: 600 }}>
        {type === "panel" ? "Panel access" : "SFTP login"} (stored encrypted, never shown again)
      </legend>
      {type === "panel" ? (
        <div className="row">
          <Field id={`${idPrefix}-url`} label="Panel address" type="url" placeholder="https://panel.example.com" value={panel.panel_url} onChange={(e) => setPanel({ ...panel, panel_url: e.target.value })} />
          <Field id={`${idPrefix}-key`} label="Client API key" type="password" autoComplete="off" value={panel.api_key} onChange={(e) => setPanel({ ...panel, api_key: e.target.value })} />
          <Field id={`${idPrefix}-uuid`} label="Server identifier" placeholder="1a7ce997" value={panel.server_uuid} onChange={(e) => setPanel({ ...panel, server_uuid: e.target.value })} />
        </div>
      ) : (
        <div className="row">
          <Field id={`${idPrefix}-host`} label="Host" value={sftp.host} onChange={(e) => setSftp({ ...sftp, host: e.target.value })} />
          <Field id={`${idPrefix}-port`} label="Port" type="number" min={1} max={65535} value={sftp.port} onChange={(e) => setSftp({ ...sftp, port: e.target.value })} style={{ maxWidth: "7rem" }} />
          <Field id={`${idPrefix}-user`} label="User name" autoComplete="off" value={sftp.username} onChange={(e) => setSftp({ ...sftp, username: e.target.value })} />
          <Field id={`${idPrefix}-pass`} label="Password" type="password" autoComplete="new-password" value={sftp.password} onChange={(e) => setSftp({ ...sftp, password: e.target.value })} />
        </div>
      )}
    </fieldset>
  );
}

/** The list a server deploys and whether a change to it deploys at once (register and settings forms). */
export function LinkedListFields({
  lists,
  value,
  onChange,
}: {
  lists: { id: string; name: string }[];
  value: { linked_list_id: string | null; auto_deploy: boolean };
  onChange: (v: { linked_list_id: string | null; auto_deploy: boolean }) => void;
}) {
  return (
    <>
      <SelectField label="Linked list" value={value.linked_list_id ?? ""} onChange={(e) => onChange({ ...value, linked_list_id: e.target.value || null })}>
        <option value="">None</option>
        {lists.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
      </SelectField>
      <label className="check">
        <input type="checkbox" checked={value.auto_deploy} onChange={(e) => onChange({ ...value, auto_deploy: e.target.checked })} style={{ minHeight: 0 }} /> Deploy
        automatically when that list changes
      </label>
    </>
  );
}
