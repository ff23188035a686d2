// The server's RCON, in its settings (the owner's "Deploy and settings" tab): how the connection is
// (with its error in words), the config's own rcon block offered when the server has one, host,
// port and the password (write-only), the test with its answer in words, forgetting it, and whether
// a deploy restarts the server through its connection or over RCON.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dateTime } from "../../app/format";
import { ConfirmButton, ErrorMessage, Field, Notice, SelectField } from "../../ui/components";
import type { Server } from "../my-servers.services";
import { deleteRcon, setRcon, setRestartVia, testRcon, type RestartVia } from "../players.services";
import { invalidateRcon, serverQueries } from "../server.queries";

/** The connection in words: a status never told by colour alone. */
export function RconStatus({ rcon }: { rcon: NonNullable<Server["rcon"]> }) {
  if (rcon.status === "connected")
    return (
      <p>
        <span className="badge ok">connected</span> RCON answers on {rcon.host}:{rcon.port}
        {rcon.connected_at ? ` since ${dateTime(rcon.connected_at)}` : ""}.
      </p>
    );
  if (rcon.status === "connecting")
    return rcon.error ? (
      <div className="alert warn">
        <span className="badge warn">reconnecting</span> {rcon.host}:{rcon.port}: {rcon.error}. Loadout is trying again.
      </div>
    ) : (
      <p>
        <span className="badge">connecting</span> Reaching {rcon.host}:{rcon.port}…
      </p>
    );
  return (
    <div className="alert warn">
      <span className="badge warn">not connected</span> {rcon.host}:{rcon.port}: {rcon.error ?? "no answer"}. Loadout keeps trying
      {rcon.last_seen_at ? `; last heard from ${dateTime(rcon.last_seen_at)}` : ""}.
    </div>
  );
}

export function RconSettings({ srv }: { srv: Server }) {
  const qc = useQueryClient();
  // While the connection is being made, the status is asked again every 2 seconds.
  useQuery({ ...serverQueries.server(srv.id), refetchInterval: (q) => (q.state.data?.rcon?.status === "connecting" ? 2000 : false) });
  const [form, setForm] = useState({ host: srv.rcon?.host ?? "", port: srv.rcon ? String(srv.rcon.port) : "", password: "" });
  const saved = () => {
    setForm((f) => ({ ...f, password: "" })); // the password is not kept on the page
    invalidateRcon(qc, srv.id);
    test.reset();
  };
  const save = useMutation({
    mutationFn: () => setRcon(srv.id, { ...(form.host.trim() ? { host: form.host.trim() } : {}), ...(form.port.trim() ? { port: Number(form.port) } : {}), password: form.password }),
    onSuccess: saved,
  });
  const fromConfig = useMutation({ mutationFn: () => setRcon(srv.id, { from_config: true }), onSuccess: saved });
  const forget = useMutation({ mutationFn: () => deleteRcon(srv.id), onSuccess: () => (setForm({ host: "", port: "", password: "" }), invalidateRcon(qc, srv.id)) });
  const test = useMutation({ mutationFn: () => testRcon(srv.id) });
  return (
    <section className="card stack" aria-labelledby="rcon-h">
      <h2 id="rcon-h" style={{ margin: 0 }}>
        RCON
      </h2>
      <p className="muted">
        With the server's RCON (the <code>rcon</code> block of its config), Loadout sees who is on, keeps who played and for how long, kicks and bans, and can
        restart the server by <code>#shutdown</code>.
      </p>
      {srv.rcon ? <RconStatus rcon={srv.rcon} /> : <p>Not set up.</p>}
      {srv.rcon_suggested && (
        <div className="alert info stack">
          <p style={{ margin: 0 }}>The server's config has an rcon block (port {srv.rcon_suggested.port}) with a password.</p>
          <div>
            <button type="button" className="btn secondary" onClick={() => fromConfig.mutate()} disabled={fromConfig.isPending}>
              Use the config's RCON
            </button>
          </div>
          <ErrorMessage error={fromConfig.error} />
        </div>
      )}
      <form
        className="stack"
        aria-label="RCON address and password"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <div className="row">
          <Field label="RCON host" hint="Empty: the SFTP host, else the query address's host." value={form.host} onChange={(e) => setForm({ ...form, host: e.target.value })} autoComplete="off" />
          <Field label="RCON port" hint="Empty: 19999." type="number" min={1} max={65535} value={form.port} onChange={(e) => setForm({ ...form, port: e.target.value })} style={{ maxWidth: "8rem" }} />
          <Field
            label="RCON password"
            hint={srv.rcon ? "Set; never shown. Enter it to save a change." : "Stored encrypted, never shown again."}
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={(e) => setForm({ ...form, password: e.target.value })}
          />
        </div>
        <ErrorMessage error={save.error} />
        {save.isSuccess && !save.isPending && <Notice kind="ok">RCON stored; Loadout connects now.</Notice>}
        <div>
          <button type="submit" className="btn secondary" disabled={save.isPending}>
            Save RCON settings
          </button>
        </div>
      </form>
      {srv.rcon && (
        <>
          <div className="row">
            <button type="button" className="btn secondary" onClick={() => test.mutate()} disabled={test.isPending}>
              {test.isPending ? "Testing RCON…" : "Test RCON"}
            </button>
            <ConfirmButton question={`Forget the RCON of ${srv.name}? Loadout stops seeing who is on.`} onConfirm={() => forget.mutate()} disabled={forget.isPending}>
              Forget RCON
            </ConfirmButton>
          </div>
          <ErrorMessage error={test.error ?? forget.error} />
          {test.data &&
            (test.data.ok ? (
              <Notice kind="ok">
                RCON answered: {test.data.players} {test.data.players === 1 ? "player" : "players"} on the server now.
              </Notice>
            ) : (
              <div className="alert error" role="alert">
                RCON test failed: {test.data.error}
              </div>
            ))}
          <RestartVia srv={srv} />
        </>
      )}
    </section>
  );
}

/** How a deploy restarts the server: its connection, or RCON's #shutdown (a supervisor starts it again). */
function RestartVia({ srv }: { srv: Server }) {
  const qc = useQueryClient();
  const [via, setVia] = useState<RestartVia>(srv.restart_via);
  const save = useMutation({ mutationFn: () => setRestartVia(srv.id, via), onSuccess: () => invalidateRcon(qc, srv.id) });
  return (
    <form
      className="row"
      aria-label="How a deploy restarts the server"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <SelectField label="A deploy restarts the server" value={via} onChange={(e) => setVia(e.target.value as RestartVia)}>
        <option value="connection">{srv.connection_type === "panel" ? "through the game panel" : "by the SSH restart command"}</option>
        <option value="rcon">over RCON (#shutdown; a supervisor starts it again)</option>
      </SelectField>
      <button type="submit" className="btn secondary" disabled={save.isPending || via === srv.restart_via}>
        Save restart method
      </button>
      <ErrorMessage error={save.error} />
      {save.isSuccess && !save.isPending && via === srv.restart_via && <Notice kind="ok">Restart method stored.</Notice>}
    </form>
  );
}
