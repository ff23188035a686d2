// A server's "Deploy and settings" tab (its owner's): test the connection (and see the mods its
// config names now), deploy a list and watch it go queued → running → success or failed (with a
// restart: writing, waiting for an empty server, restarting, verifying, rolling back; restart.tsx),
// the deployment history with the error an operator can act on and the change each deploy made,
// deploy requests waiting for approval, settings, RCON (rcon.tsx), credentials (write-only) and
// delete.
import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { count, dateTime } from "../../app/format";
import { ConfirmButton, DataTable, ErrorMessage, Field, Notice, SelectField, FormCard } from "../../ui/components";
import { CredentialsForm, LinkedListFields } from "../components/credentials";
import { StatusBadge } from "../components/status-badge";
import { blockingErrors, ServerPreflight, type RenameKey } from "../components/preflight";
import { RESTART_LABELS, RestartFields, RestartProgress, restartResult, type RestartSettings } from "../restart";
import {
  deleteServer,
  deployments,
  deployNow,
  serverRequests,
  setCredentials,
  testServer,
  updateServer,
  type Deployment,
  type PanelCredentials,
  type RestartMode,
  type Server,
  type SftpCredentials,
} from "../my-servers.services";
import { listQueries } from "../../lists/lists.queries";
import { RconSettings } from "./rcon";
import type { ServerTabProps } from "./tab";

const STEPS = ["pending", "running", "done"] as const;
const running = (d: Deployment | undefined) => !!d && (d.status === "pending" || d.status === "running");

/** queued → running → success / failed, as the deployment moves (the page polls while it runs). */
function Progress({ d, serverId }: { d: Deployment; serverId: string }) {
  if (d.kind === "deploy" && d.restart !== "none") return <RestartProgress d={d} serverId={serverId} />;
  const at = d.status === "pending" ? 0 : d.status === "running" ? 1 : 2;
  return (
    <div className="stack">
      <ol className="steps" aria-label={`${d.kind === "test" ? "Connection test" : "Deployment"} progress`}>
        {STEPS.map((s, i) => (
          <li key={s} className={i < at ? "done" : i === at ? "current" : ""} aria-current={i === at ? "step" : undefined}>
            {s === "pending" ? "Queued" : s === "running" ? "Running" : d.status === "failed" ? "Failed" : d.status === "success" ? "Success" : "Finished"}
          </li>
        ))}
      </ol>
      {d.status === "failed" && (
        <div className="alert error" role="alert">
          {d.error_message ?? "failed"}
        </div>
      )}
      {d.status === "success" && d.kind === "test" && (
        <Notice kind="ok">
          Connected. The config names {count(d.item_count ?? 0, "mod")} now
          {d.snapshot_json && d.snapshot_json.length > 0 ? `: ${d.snapshot_json.map((m) => m.name || m.modId).join(", ")}` : "."}
        </Notice>
      )}
      {d.status === "success" && d.kind === "deploy" && <Notice kind="ok">Deployed {count(d.item_count ?? 0, "mod")}. The server takes them at its next restart.</Notice>}
    </div>
  );
}

/** What a deploy changed against the deploy before it (the mods written, by id and version). */
function deployDiff(d: Deployment, before: Deployment | undefined): string {
  const now = new Map((d.snapshot_json ?? []).map((m) => [m.modId, m]));
  const then = new Map((before?.snapshot_json ?? []).map((m) => [m.modId, m]));
  const added = [...now.values()].filter((m) => !then.has(m.modId)).map((m) => m.name || m.modId);
  const removed = [...then.values()].filter((m) => !now.has(m.modId)).map((m) => m.name || m.modId);
  const changed = [...now.values()].filter((m) => then.has(m.modId) && then.get(m.modId)!.version !== m.version).map((m) => `${m.name || m.modId} ${then.get(m.modId)!.version ?? "latest"} → ${m.version ?? "latest"}`);
  const parts = [added.length && `added ${added.join(", ")}`, removed.length && `removed ${removed.join(", ")}`, changed.length && `changed ${changed.join(", ")}`].filter(Boolean);
  return before ? parts.join("; ") || "no change" : `${count(now.size, "mod")} (first deploy)`;
}

export default function DeployAndSettings({ serverId, server }: ServerTabProps) {
  // Opened for the owner only, who has the server's view.
  return server ? <TestAndDeploy id={serverId} srv={server} /> : null;
}

function TestAndDeploy({ id, srv }: { id: string; srv: Server }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const history = useQuery({
    queryKey: ["deployments", id],
    queryFn: ({ signal }) => deployments(id, signal),
    // Poll while something is queued or running: the progress moves without a reload.
    refetchInterval: (q) => ((q.state.data ?? []).some(running) ? 1000 : false),
  });
  const [watching, setWatching] = useState<string | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ["deployments", id] });
    void qc.invalidateQueries({ queryKey: ["server", id] });
    void qc.invalidateQueries({ queryKey: ["server-requests", id] });
  };
  const test = useMutation({ mutationFn: () => testServer(id), onSuccess: (r) => (setWatching(r.deployment_id), refresh()) });
  // A test or deploy that finished has read (or written) the config: the pre-flight sees it anew.
  const lastFinished = history.data?.find((d) => d.status === "success" || d.status === "failed")?.finished_at;
  useEffect(() => {
    if (lastFinished) void qc.invalidateQueries({ queryKey: ["list-check"] });
  }, [lastFinished, qc]);
  const remove = useMutation({
    mutationFn: () => deleteServer(id),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ["servers"] });
      await navigate({ to: "/my-servers" });
    },
  });
  // The deployment started here, else one still under way (a restart may take an hour).
  const watched = history.data?.find((d) => d.id === watching) ?? history.data?.find((d) => d.kind === "deploy" && running(d));
  const deploys = (history.data ?? []).filter((d) => d.kind === "deploy");
  return (
    <div className="stack">
      <section className="card stack" aria-labelledby="act-h">
        <h2 id="act-h" style={{ margin: 0 }}>
          Test and deploy
        </h2>
        <div className="row">
          <button type="button" className="btn secondary" onClick={() => test.mutate()} disabled={test.isPending || !srv.has_credentials}>
            Test the connection
          </button>
          {!srv.has_credentials && <span className="muted small">Set the credentials first (below).</span>}
        </div>
        <DeployForm srv={srv} onStarted={(depId) => (setWatching(depId), refresh())} onRequested={refresh} />
        <ErrorMessage error={test.error} />
        {watched && <Progress d={watched} serverId={id} />}
      </section>
      <MyRequests id={id} />
      <section className="card stack" aria-labelledby="hist-h">
        <h2 id="hist-h" style={{ margin: 0 }}>
          History
        </h2>
        {history.error && <ErrorMessage error={history.error} retry={() => history.refetch()} />}
        {history.data && (
          <DataTable
            empty="No test or deploy yet."
            caption="Tests and deployments of this server, newest first"
            rows={history.data}
            rowKey={(d) => d.id}
            columns={[
              { header: "When", cell: (d) => dateTime(d.created_at) },
              { header: "What", cell: (d) => (d.kind === "test" ? "connection test" : `deploy (${d.trigger})`) },
              { header: "Status", cell: (d) => <StatusBadge status={d.status} /> },
              {
                header: "Result",
                cell: (d) =>
                  d.status === "failed" ? (
                    <span className="error-text">
                      {d.rolled_back ? "Rolled back: " : ""}
                      {d.error_message}
                    </span>
                  ) : d.status !== "success" ? (
                    (restartResult(d) ?? "–")
                  ) : d.kind === "test" ? (
                    `read ${count(d.item_count ?? 0, "mod")}`
                  ) : (
                    [deployDiff(d, deploys.slice(deploys.indexOf(d) + 1).find((x) => x.status === "success")), restartResult(d)].filter(Boolean).join("; ")
                  ),
              },
            ]}
          />
        )}
      </section>
      <Settings srv={srv} />
      <RconSettings srv={srv} />
      <Credentials srv={srv} />
      <section className="card stack" aria-labelledby="del-h">
        <h2 id="del-h" style={{ margin: 0 }}>
          Remove this server
        </h2>
        <p className="muted">Forgets the server, its credentials and its history here. Nothing on the server changes.</p>
        <div>
          <ConfirmButton question={`Remove ${srv.name} and its credentials?`} className="btn danger" onConfirm={() => remove.mutate()} disabled={remove.isPending}>
            Remove server
          </ConfirmButton>
        </div>
        <ErrorMessage error={remove.error} />
      </section>
    </div>
  );
}

function DeployForm({ srv, onStarted, onRequested }: { srv: Server; onStarted: (deploymentId: string) => void; onRequested: () => void }) {
  const lists = useQuery({ ...listQueries.mine() });
  const [listId, setListId] = useState(srv.linked_list_id ?? "");
  const [restart, setRestart] = useState<"" | RestartMode>("");
  const [queued, setQueued] = useState(false);
  // Keys of the server's config this deploy renames (the pre-flight's rename fixes).
  const [renames, setRenames] = useState<RenameKey[]>([]);
  // The pre-flight for the chosen list against this server (the same query the box shows).
  const check = useQuery({ ...listQueries.check(listId, undefined, srv.id), enabled: !!listId && srv.has_credentials });
  const errors = blockingErrors(check.data, renames);
  const deploy = useMutation({
    mutationFn: (force: boolean) => deployNow(srv.id, listId && listId !== srv.linked_list_id ? listId : undefined, restart || undefined, force, renames),
    onSuccess: (r) => {
      if ("deployment_id" in r) onStarted(r.deployment_id);
      else {
        setQueued(true);
        onRequested();
      }
    },
  });
  return (
    <form
      className="row"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        setQueued(false);
        deploy.mutate(false);
      }}
    >
      <SelectField label="List to deploy" value={listId} onChange={(e) => setListId(e.target.value)} required>
        <option value="">Choose a list…</option>
        {/* The linked list is chosen before the lists arrive (and stays chosen if it is not among
            them): without an option of its own the select would show "Choose a list…", and
            Deploy now, enabled by the pre-flight alone, would fail the form's required check
            without a word. */}
        {listId && !(lists.data ?? []).some((l) => l.id === listId) && <option value={listId}>{lists.data ? "The linked list" : "The linked list (loading…)"}</option>}
        {(lists.data ?? []).map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
            {l.id === srv.linked_list_id ? " (linked)" : ""}
          </option>
        ))}
      </SelectField>
      <SelectField label="Then" value={restart} onChange={(e) => setRestart(e.target.value as "" | RestartMode)}>
        <option value="">{`As set for this server: ${RESTART_LABELS[srv.restart].toLowerCase()}`}</option>
        {(Object.keys(RESTART_LABELS) as RestartMode[]).map((m) => (
          <option key={m} value={m}>
            {RESTART_LABELS[m]}
          </option>
        ))}
      </SelectField>
      {listId && srv.has_credentials && (
        <div style={{ flexBasis: "100%", minWidth: 0, overflowWrap: "anywhere" }}>
          <ServerPreflight listId={listId} serverId={srv.id} canFix renames={renames} onRename={(r) => setRenames((rs) => [...rs, r])} />
        </div>
      )}
      <button type="submit" className="btn" disabled={!listId || deploy.isPending || !srv.has_credentials || check.isLoading || errors.length > 0}>
        Deploy now
      </button>
      {errors.length > 0 && (
        <ConfirmButton
          question="The pre-flight found problems that would stop the server from starting. Deploy anyway?"
          onConfirm={() => deploy.mutate(true)}
          disabled={deploy.isPending}
        >
          Deploy anyway
        </ConfirmButton>
      )}
      <ErrorMessage error={deploy.error} />
      {queued && <Notice>This list needs its owner's approval to deploy: your request is waiting (below).</Notice>}
    </form>
  );
}

/** The requester's view: deploy requests for this server, with the owner's decision and note. */
function MyRequests({ id }: { id: string }) {
  const reqs = useQuery({ queryKey: ["server-requests", id], queryFn: ({ signal }) => serverRequests(id, signal) });
  if (!reqs.data || reqs.data.length === 0) return null;
  return (
    <section className="card stack" aria-labelledby="req-h">
      <h2 id="req-h" style={{ margin: 0 }}>
        Deploy requests
      </h2>
      <DataTable
        caption="Deploy requests for this server"
        rows={reqs.data}
        rowKey={(r) => r.id}
        columns={[
          { header: "Asked", cell: (r) => dateTime(r.created_at) },
          {
            header: "List",
            cell: (r) => (
              <Link to="/lists/$id" params={{ id: r.list_id }} search={{}}>
                the list
              </Link>
            ),
          },
          { header: "Status", cell: (r) => (r.status === "pending" ? "waiting for the list's owner" : r.status) },
          { header: "Note", cell: (r) => r.note ?? "–" },
        ]}
      />
    </section>
  );
}

function Settings({ srv }: { srv: Server }) {
  const qc = useQueryClient();
  const lists = useQuery({ ...listQueries.mine() });
  const [form, setForm] = useState({ name: srv.name, file_path: srv.file_path, linked_list_id: srv.linked_list_id, auto_deploy: srv.auto_deploy });
  const [restart, setRestart] = useState<RestartSettings>({
    restart: srv.restart,
    empty_wait_s: srv.empty_wait_s,
    verify_timeout_s: srv.verify_timeout_s,
    restart_command: srv.restart_command,
    query_address: srv.query_address,
  });
  const save = useMutation({
    mutationFn: () => updateServer(srv.id, { ...form, ...restart, ...(srv.connection_type === "panel" ? { restart_command: undefined } : {}) }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ["server", srv.id] });
      void qc.invalidateQueries({ queryKey: ["servers"] });
    },
  });
  return (
    <FormCard id="set-h" title="Settings" onSubmit={() => save.mutate()}>
      <div className="row">
        <Field label="Server name" required maxLength={100} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        <Field label="Config file" required value={form.file_path} onChange={(e) => setForm({ ...form, file_path: e.target.value })} />
        <LinkedListFields lists={lists.data ?? []} value={form} onChange={(v) => setForm({ ...form, ...v })} />
      </div>
      <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <legend style={{ fontWeight: 600, padding: 0, marginBottom: "0.5rem" }}>Restart after a deploy</legend>
        <div className="row">
          <RestartFields type={srv.connection_type} value={restart} onChange={setRestart} />
        </div>
      </fieldset>
      <ErrorMessage error={save.error} />
      {save.isSuccess && !save.isPending && <Notice kind="ok">Saved.</Notice>}
      <div>
        <button type="submit" className="btn secondary" disabled={save.isPending}>
          Save settings
        </button>
      </div>
    </FormCard>
  );
}

function Credentials({ srv }: { srv: Server }) {
  const qc = useQueryClient();
  const [creds, setCreds] = useState<PanelCredentials | SftpCredentials | null>(null);
  const [formKey, setFormKey] = useState(0);
  const save = useMutation({
    mutationFn: () => setCredentials(srv.id, creds!),
    onSuccess: () => {
      setFormKey((k) => k + 1); // the fields empty again: secrets are not kept on the page
      void qc.invalidateQueries({ queryKey: ["server", srv.id] });
    },
  });
  return (
    <FormCard id="cred-h" title="Credentials" onSubmit={() => save.mutate()}>
      <p className="muted">{srv.has_credentials
          ? `Set ${srv.credentials_set_at ? dateTime(srv.credentials_set_at) : ""}. They are never shown again; enter new ones to replace them.`
          : "Not set yet: deploys and tests need them."}</p>
      <CredentialsForm key={formKey} type={srv.connection_type} onChange={setCreds} idPrefix="replace" />
      <ErrorMessage error={save.error} />
      {save.isSuccess && !save.isPending && <Notice kind="ok">Credentials saved.</Notice>}
      <div>
        <button type="submit" className="btn secondary" disabled={!creds || save.isPending}>
          {srv.has_credentials ? "Replace credentials" : "Save credentials"}
        </button>
      </div>
    </FormCard>
  );
}
