// A server's "Deploy and settings" tab (its owner's): test the connection (and see the mods its
// config names now), deploy a list (not while the last connection test failed: the reason is said
// beside the button) and watch it go queued → running → success or failed, each step's state in
// words (with a restart: writing, waiting for an empty server, restarting, verifying, rolling back;
// restart.tsx); a deploy that changed nothing restarted nothing and says so, with "Restart anyway";
// the deployment history with the error an operator can act on and the change each deploy made,
// deploy requests waiting for approval, settings, RCON (rcon.tsx), credentials (write-only) and
// delete.
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import { Link, useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { count } from "../../app/format";
import { Time } from "../../ui/time";
import { ConfirmButton, DataTable, ErrorMessage, Field, Notice, SelectField, FormCard } from "../../ui/components";
import { CredentialsForm, LinkedListFields } from "../components/credentials";
import { StatusBadge } from "../components/status-badge";
import { blockingErrors, ServerPreflight, type RenameKey } from "../components/preflight";
import { RESTART_SHORT, RestartFields, RestartProgress, restartResult, rolledBackSafely, Steps, unchangedNotRestarted, type RestartSettings, type Step } from "../restart";
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

const running = (d: Deployment | undefined) => !!d && (d.status === "pending" || d.status === "running");

/** A test's or a deploy's (without a restart) steps: queued → running → success or failed. */
function simpleSteps(d: Deployment): Step[] {
  const queued = { key: "pending", label: "Queued" };
  const middle = { key: "running", label: d.kind === "test" ? "Connecting" : "Writing the config" };
  if (d.status === "pending") return [{ ...queued, state: "current" }, { ...middle, state: "todo" }, { key: "done", label: "Success", state: "todo" }];
  if (d.status === "running") return [{ ...queued, state: "done" }, { ...middle, state: "current" }, { key: "done", label: "Success", state: "todo" }];
  if (d.status === "success") return [{ ...queued, state: "done" }, { ...middle, state: "done" }, { key: "done", label: "Success", state: "done" }];
  return [{ ...queued, state: "done" }, { ...middle, state: "failed" }, { key: "done", label: "Failed", state: "failed" }];
}

/** queued → running → success / failed, as the deployment moves (the page polls while it runs). */
function Progress({ d, serverId, restartAnyway }: { d: Deployment; serverId: string; restartAnyway: ReactNode }) {
  if (d.kind === "deploy" && d.restart !== "none") return <RestartProgress d={d} serverId={serverId} restartAnyway={restartAnyway} />;
  return (
    <div className="stack">
      <Steps label={`${d.kind === "test" ? "Connection test" : "Deployment"} progress`} steps={simpleSteps(d)} />
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
      {d.status === "success" && d.kind === "deploy" && (
        <Notice kind="ok">
          {unchangedNotRestarted(d)
            ? `Nothing changed on the server: its config already had these ${count(d.item_count ?? 0, "mod")}, so nothing was written.`
            : `Deployed ${count(d.item_count ?? 0, "mod")}. The server takes them at its next restart.`}
        </Notice>
      )}
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
  // …and the server's last test, its status header and its live entry follow.
  useEffect(() => {
    if (!lastFinished) return;
    void qc.invalidateQueries({ queryKey: ["list-check"] });
    void qc.invalidateQueries({ queryKey: ["server", id] });
    void qc.invalidateQueries({ queryKey: ["server-status", id] });
  }, [lastFinished, qc, id]);
  // "Restart anyway" after a deploy that changed nothing: the same list and restart mode, restart_anyway.
  const again = useMutation({
    mutationFn: (d: Deployment) => deployNow(id, d.list_id ?? undefined, d.restart, false, [], true),
    onSuccess: (r) => {
      if ("deployment_id" in r) setWatching(r.deployment_id);
      refresh();
    },
  });
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
        {watched && (
          <Progress
            d={watched}
            serverId={id}
            restartAnyway={
              <button type="button" className="btn secondary" onClick={() => again.mutate(watched)} disabled={again.isPending}>
                Restart anyway
              </button>
            }
          />
        )}
        <ErrorMessage error={again.error} />
      </section>
      <MyRequests id={id} />
      <section className="card stack" aria-labelledby="hist-h">
        <h2 id="hist-h" style={{ margin: 0 }}>
          History
        </h2>
        {history.error && <ErrorMessage error={history.error} retry={() => history.refetch()} />}
        {history.data && (
          <DataTable
            compact
            empty="No test or deploy yet."
            caption="Tests and deployments of this server, newest first"
            rows={history.data}
            rowKey={(d) => d.id}
            columns={[
              { header: "When", cell: (d) => <Time iso={d.created_at} /> },
              { header: "What", cell: (d) => (d.kind === "test" ? "connection test" : `deploy (${d.trigger})`) },
              { header: "Status", cell: (d) => <StatusBadge status={d.status} rolledBack={rolledBackSafely(d)} /> },
              {
                header: "Result",
                cell: (d) =>
                  rolledBackSafely(d) ? (
                    <span className="error-text">Rolled back: the server runs the previous mods ({d.rollback_reason ?? "it did not come back"})</span>
                  ) : d.status === "failed" ? (
                    <span className="error-text">{d.error_message}</span>
                  ) : d.status !== "success" ? (
                    <span>{restartResult(d) ?? "–"}</span>
                  ) : d.kind === "test" ? (
                    `read ${count(d.item_count ?? 0, "mod")}`
                  ) : unchangedNotRestarted(d) ? (
                    restartResult(d)
                  ) : (
                    // One span: a card's cell (360 px) lays out its children side by side.
                    <span>
                      {deployDiff(d, deploys.slice(deploys.indexOf(d) + 1).find((x) => x.status === "success"))}
                      {restartResult(d) ? <>; {restartResult(d)}</> : null}
                    </span>
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
  // Why Deploy now is off, in words beside it (a failed connection test first: nothing else can be trusted then).
  const testFailed = srv.last_test?.status === "failed";
  const why = !srv.has_credentials ? (
    "Set the credentials first (below)."
  ) : testFailed ? (
    <>
      Deploying is off while the last connection test fails (<Time iso={srv.last_test!.finished_at ?? srv.last_test!.created_at} />: {srv.last_test!.error_message ?? "failed"}). Fix
      that, then test the connection again.
    </>
  ) : !listId ? (
    "Choose a list to deploy."
  ) : errors.length > 0 ? (
    `The pre-flight found ${errors.length === 1 ? "a problem that stops" : `${errors.length} problems that stop`} the deploy (above).`
  ) : null;
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
      {/* Short words: the closed select shows the choice whole at 360 px. */}
      <SelectField label="Then" value={restart} onChange={(e) => setRestart(e.target.value as "" | RestartMode)}>
        <option value="">{`As set: ${RESTART_SHORT[srv.restart].toLowerCase()}`}</option>
        {(Object.keys(RESTART_SHORT) as RestartMode[]).map((m) => (
          <option key={m} value={m}>
            {RESTART_SHORT[m]}
          </option>
        ))}
      </SelectField>
      {listId && srv.has_credentials && (
        <div style={{ flexBasis: "100%", minWidth: 0, overflowWrap: "anywhere" }}>
          <ServerPreflight listId={listId} serverId={srv.id} canFix renames={renames} onRename={(r) => setRenames((rs) => [...rs, r])} />
        </div>
      )}
      <div className="row deploy-actions">
        <button type="submit" className="btn" aria-describedby={why ? "deploy-why" : undefined} disabled={!!why || deploy.isPending || check.isLoading}>
          Deploy now
        </button>
        {errors.length > 0 && !testFailed && (
          <ConfirmButton
            question="The pre-flight found problems that would stop the server from starting. Deploy anyway?"
            onConfirm={() => deploy.mutate(true)}
            disabled={deploy.isPending}
          >
            Deploy anyway
          </ConfirmButton>
        )}
        {why && (
          <span id="deploy-why" className={testFailed ? "error-text small" : "muted small"}>
            {why}
          </span>
        )}
      </div>
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
        compact
        caption="Deploy requests for this server"
        rows={reqs.data}
        rowKey={(r) => r.id}
        columns={[
          { header: "Asked", cell: (r) => <Time iso={r.created_at} /> },
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
      <p className="muted">
        {srv.has_credentials ? (
          <>
            Set <Time iso={srv.credentials_set_at} fallback="" />. They are never shown again; enter new ones to replace them.
          </>
        ) : (
          "Not set yet: deploys and tests need them."
        )}
      </p>
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
