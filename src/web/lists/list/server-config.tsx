// The list's remembered server config (docs/web.md), on the settings tab: the settings of the file
// the list was imported from (scenario, players, rcon, operating, ...) as JSON to edit, and its
// passwords write-only (shown as set or not set, never in clear).
import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ConfirmButton, ErrorMessage, Field, FormCard, Notice } from "../../ui/components";
import { dateTime } from "../../app/format";
import { forgetServerConfig, serverConfig, updateServerConfig, type ListDetail } from "../lists.services";
import { invalidateList } from "../lists.queries";

export function ServerConfigCard({ list }: { list: ListDetail }) {
  const qc = useQueryClient();
  const key = ["list-server-config", list.id];
  const config = useQuery({ queryKey: key, queryFn: ({ signal }) => serverConfig(list.id, signal) });
  const [text, setText] = useState("");
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [parseError, setParseError] = useState<string | null>(null);
  useEffect(() => {
    if (config.data?.settings) setText(JSON.stringify(config.data.settings, null, 2));
  }, [config.data]);
  const done = () => {
    setSecrets({});
    void qc.invalidateQueries({ queryKey: key });
    invalidateList.contents(qc, list.id);
  };
  const save = useMutation({
    mutationFn: () => {
      let settings: Record<string, unknown>;
      try {
        settings = JSON.parse(text);
      } catch (e) {
        throw new Error(`the settings are not valid JSON: ${(e as Error).message}`);
      }
      const changed = Object.fromEntries(Object.entries(secrets).filter(([, v]) => v !== ""));
      return updateServerConfig(list.id, { settings, ...(Object.keys(changed).length ? { secrets: changed } : {}) });
    },
    onSuccess: done,
  });
  const clear = useMutation({ mutationFn: (path: string) => updateServerConfig(list.id, { secrets: { [path]: null } }), onSuccess: done });
  const forget = useMutation({ mutationFn: () => forgetServerConfig(list.id), onSuccess: done });
  const data = config.data;
  return (
    <FormCard id="server-config-h" title="Server config" onSubmit={() => save.mutate()}>
      <ErrorMessage error={config.error} />
      {data?.source === "defaults" && (
        <p>
          This list has no server config of its own: the complete config export writes the documented defaults (Conflict on Everon, 64 players, BattlEye on, port
          2001). Import a complete server.json in the Import tab and its settings are kept here.
        </p>
      )}
      {data?.source === "imported" && (
        <>
          <p>
            The settings of the server config this list was imported from (changed {dateTime(data.updated_at)}). The complete config export writes them back with the
            list's mods; deploys keep each server's own config.
          </p>
          <div className="field">
            <label htmlFor="server-config-settings">Settings (JSON, without the mods; a password shows as null)</label>
            <textarea
              id="server-config-settings"
              className="mono"
              rows={14}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setParseError(null);
              }}
              aria-invalid={parseError ? true : undefined}
            />
          </div>
          {data.secrets.length > 0 && (
            <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
              <legend className="small" style={{ fontWeight: 600 }}>
                Passwords (write-only: stored encrypted, never shown)
              </legend>
              {data.secrets.map((s) => (
                <div key={s.path} className="row" style={{ alignItems: "end" }}>
                  <Field
                    label={`${s.path} (${s.set ? "set" : "not set"})`}
                    type="password"
                    autoComplete="new-password"
                    placeholder={s.set ? "leave empty to keep" : "not set"}
                    value={secrets[s.path] ?? ""}
                    onChange={(e) => setSecrets({ ...secrets, [s.path]: e.target.value })}
                  />
                  {s.set && (
                    <button type="button" className="btn secondary" onClick={() => clear.mutate(s.path)} disabled={clear.isPending} aria-label={`Clear ${s.path}`}>
                      Clear
                    </button>
                  )}
                </div>
              ))}
            </fieldset>
          )}
          <ErrorMessage error={save.error ?? clear.error ?? forget.error} />
          {save.isSuccess && !save.isPending && <Notice kind="ok">Saved.</Notice>}
          <div className="row">
            <button type="submit" className="btn" disabled={save.isPending}>
              Save server config
            </button>
            <ConfirmButton question="Forget this server config? The complete config export then writes the defaults." onConfirm={() => forget.mutate()} disabled={forget.isPending}>
              Forget this config
            </ConfirmButton>
          </div>
        </>
      )}
    </FormCard>
  );
}
