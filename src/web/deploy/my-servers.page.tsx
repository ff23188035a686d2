// My servers: the game servers the caller deploys to (through a Pterodactyl-style panel or
// SFTP), each with its linked list and last test; the servers the caller moderates (their players
// and bans); and the form to register one.
import { useState } from "react";
import { Link, useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Time } from "../ui/time";
import { useSession } from "../app/session";
import { DataTable, Empty, ErrorMessage, Field, SelectField, SignInFirst, Skeleton, FormCard } from "../ui/components";
import { CredentialsForm, LinkedListFields } from "./components/credentials";
import { createServer, servers, setCredentials, type NewServer, type PanelCredentials, type SftpCredentials } from "./my-servers.services";
import { listQueries } from "../lists/lists.queries";
import { StatusBadge } from "./components/status-badge";
import { serverQueries } from "./server.queries";


export function MyServersPage() {
  const { token } = useSession();
  const all = useQuery({ queryKey: ["servers"], queryFn: ({ signal }) => servers(signal), enabled: !!token });
  const lists = useQuery({ ...listQueries.mine(), enabled: !!token });
  const moderated = useQuery({ ...serverQueries.moderated(), enabled: !!token });
  if (!token) return <SignInFirst next="/my-servers" what="register your game servers and deploy lists to them" />;
  const listName = (id: string | null) => (id ? (lists.data?.find((l) => l.id === id)?.name ?? "a list") : "–");
  return (
    <div className="stack">
      <h1>My servers</h1>
      <p className="prose muted">
        Loadout writes a list's mods into your server's config file: through your game panel's API, or over SFTP. Register a server, test the connection, link a
        list, and deploy.
      </p>
      {all.isLoading ? (
        <Skeleton />
      ) : all.error ? (
        <ErrorMessage error={all.error} retry={() => all.refetch()} />
      ) : all.data!.length === 0 ? (
        <Empty title={moderated.data?.length ? "No servers of your own yet" : "No servers yet"}>Register your first one below.</Empty>
      ) : (
        <DataTable
          compact
          caption="Your game servers"
          rows={all.data!}
          rowKey={(s) => s.id}
          columns={[
            {
              header: "Server",
              cell: (s) => (
                <Link to="/my-servers/$id" params={{ id: s.id }}>
                  {s.name}
                </Link>
              ),
            },
            { header: "Connection", cell: (s) => (s.connection_type === "panel" ? "game panel" : "SFTP") },
            { header: "Linked list", cell: (s) => listName(s.linked_list_id) },
            { header: "Auto-deploy", cell: (s) => (s.auto_deploy ? "on" : "off") },
            {
              header: "Credentials",
              cell: (s) =>
                // One span: a card's cell (360 px) lays out its children side by side.
                s.has_credentials ? (
                  <span>
                    set <Time iso={s.credentials_set_at} fallback="" />
                  </span>
                ) : (
                  <span className="badge warn">missing</span>
                ),
            },
            {
              header: "Last test",
              cell: (s) => (
                <span>
                  <StatusBadge status={s.last_test_status} /> {s.last_test && <span className="muted small"><Time iso={s.last_test.created_at} /></span>}
                </span>
              ),
            },
            {
              header: "Live",
              cell: (s) =>
                s.live_server_id ? (
                  <Link to="/live/$id" params={{ id: s.live_server_id }} search={{}} aria-label={`Live page of ${s.name}`}>
                    live page
                  </Link>
                ) : (
                  <span className="muted">not seen yet</span>
                ),
            },
          ]}
        />
      )}
      <Moderated />
      <Register lists={(lists.data ?? []).map((l) => ({ id: l.id, name: l.name }))} />
    </div>
  );
}

/** Servers of others that the caller moderates: their players and bans (shown only when there are some). */
function Moderated() {
  const { token } = useSession();
  const mine = useQuery({ ...serverQueries.moderated(), enabled: !!token });
  if (mine.error) return <ErrorMessage error={mine.error} retry={() => mine.refetch()} />;
  if (!mine.data || mine.data.length === 0) return null;
  return (
    <section className="card stack" aria-labelledby="moderated-h">
      <h2 id="moderated-h" style={{ margin: 0 }}>
        Servers you moderate
      </h2>
      <p className="muted" style={{ margin: 0 }}>
        Their owners made you a moderator: you see who is on and who was, kick and ban, and lift your own bans.
      </p>
      <DataTable
        caption="Servers you moderate"
        compact
        rows={mine.data}
        rowKey={(s) => s.id}
        columns={[
          {
            header: "Server",
            cell: (s) => (
              <Link to="/my-servers/$id" params={{ id: s.id }} search={{ tab: "players" }}>
                {s.name}
              </Link>
            ),
          },
          {
            header: "Open",
            cell: (s) => (
              <span className="row links">
                <Link to="/my-servers/$id" params={{ id: s.id }} search={{ tab: "players" }} aria-label={`Players of ${s.name}`}>
                  Players
                </Link>
                <Link to="/my-servers/$id" params={{ id: s.id }} search={{ tab: "bans" }} aria-label={`Bans of ${s.name}`}>
                  Bans
                </Link>
                <Link to="/my-servers/$id" params={{ id: s.id }} search={{ tab: "log" }} aria-label={`Moderation log of ${s.name}`}>
                  Log
                </Link>
              </span>
            ),
          },
        ]}
      />
    </section>
  );
}

function Register({ lists }: { lists: { id: string; name: string }[] }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [form, setForm] = useState<NewServer>({ name: "", connection_type: "sftp", file_path: "config.json", linked_list_id: null, auto_deploy: false });
  const [creds, setCreds] = useState<PanelCredentials | SftpCredentials | null>(null);
  const create = useMutation({
    mutationFn: async () => {
      const s = await createServer(form);
      // Credentials are stored right after; they are never shown again (only "set").
      if (creds) await setCredentials(s.id, creds);
      return s;
    },
    onSuccess: async (s) => {
      await qc.invalidateQueries({ queryKey: ["servers"] });
      await navigate({ to: "/my-servers/$id", params: { id: s.id } });
    },
  });
  return (
    <FormCard id="reg-h" title="Register a server" onSubmit={() => create.mutate()}>
      <div className="row">
        <Field label="Server name" required maxLength={100} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        <SelectField
          label="Connection"
          value={form.connection_type}
          onChange={(e) => {
            setForm({ ...form, connection_type: e.target.value as NewServer["connection_type"] });
            setCreds(null);
          }}
        >
          <option value="sftp">SFTP</option>
          <option value="panel">Game panel (Pterodactyl API)</option>
        </SelectField>
      </div>
      <div className="row">
        <Field
          label="Config file"
          hint={form.connection_type === "sftp" ? "Path on the server, e.g. /home/arma/config.json" : "Path in the panel's file manager, e.g. /config.json"}
          required
          value={form.file_path}
          onChange={(e) => setForm({ ...form, file_path: e.target.value })}
        />
        <LinkedListFields lists={lists} value={form} onChange={(v) => setForm({ ...form, ...v })} />
      </div>
      <CredentialsForm key={form.connection_type} type={form.connection_type} onChange={setCreds} />
      <ErrorMessage error={create.error} />
      <div>
        <button type="submit" className="btn" disabled={create.isPending}>
          Register server
        </button>
      </div>
    </FormCard>
  );
}
