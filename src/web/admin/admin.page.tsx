// Admin: every account with its role, state and last sign-in (approve, disable, re-enable,
// delete, make or unmake admin; the API refuses yourself and the last admin and the page shows
// its words), what admins did lately; background jobs by readable name, with their progress in
// words, how long they took, errors, retry and cancel, and the buttons that start a crawl, a live
// scan and the roll-ups.
import { useDeferredValue, useState } from "react";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { count, date, dateTime, duration } from "../app/format";
import type { AdminSearch } from "./admin.search";
import { JOB_STATUSES } from "./admin.search";
import { useSession } from "../app/session";
import type { Job } from "../app/types";
import { ConfirmButton, DataTable, Empty, ErrorMessage, Field, Link, Notice, SelectField, SignInFirst, Skeleton } from "../ui/components";
import { TabNav } from "../ui/tab-nav";
import { actOn, adminAudit, cancelJob, listAccounts, listJobs, retryJob, startJob, type Account, type AccountAction, type AuditEntry } from "./admin.services";
import { JOB_NAMES, jobName, progressWords } from "./job-names";

export function AdminPage() {
  const { me, loading, token } = useSession();
  const search = useSearch({ from: "/admin" });
  const tab = search.tab ?? "users";
  if (!token) return <SignInFirst next="/admin" what="this page (admins only)" />;
  if (loading) return <Skeleton />;
  if (me?.role !== "admin") return <Notice kind="warn">This page is for admins.</Notice>;
  return (
    <div className="stack">
      <h1>Admin</h1>
      <TabNav label="Admin sections" current={tab}>
        <Link to="/admin" search={{ tab: "users" }} aria-current={tab === "users" ? "page" : undefined}>
          Accounts
        </Link>
        <Link to="/admin" search={{ tab: "jobs" }} aria-current={tab === "jobs" ? "page" : undefined}>
          Jobs
        </Link>
      </TabNav>
      {tab === "users" ? <Accounts myId={me.id} /> : <Jobs status={search.status} type={search.type} />}
    </div>
  );
}

const STATE_WORDS: Record<Account["state"], string> = { pending: "pending", active: "active", disabled: "disabled" };

/** What an admin did to an account, as a sentence's verb and object ("made Olga an admin"). */
const DID: Record<AuditEntry["action"], (who: string) => string> = {
  approve: (w) => `approved ${w}`,
  disable: (w) => `disabled ${w}`,
  enable: (w) => `re-enabled ${w}`,
  delete: (w) => `deleted ${w}`,
  make_admin: (w) => `made ${w} an admin`,
  unmake_admin: (w) => `took admin away from ${w}`,
};
/** The same, asked for: "Could not take admin away from Olga: …". */
const DO: Record<AccountAction, (who: string) => string> = {
  approve: (w) => `approve ${w}`,
  disable: (w) => `disable ${w}`,
  enable: (w) => `re-enable ${w}`,
  delete: (w) => `delete ${w}`,
  make_admin: (w) => `make ${w} an admin`,
  unmake_admin: (w) => `take admin away from ${w}`,
};

/** Every account: those waiting for approval first, then the rest with their actions. */
function Accounts({ myId }: { myId: string }) {
  const qc = useQueryClient();
  const users = useQuery({ queryKey: ["admin-users"], queryFn: ({ signal }) => listAccounts(signal) });
  const audit = useQuery({ queryKey: ["admin-audit"], queryFn: ({ signal }) => adminAudit(signal) });
  const [failed, setFailed] = useState<{ what: string; error: unknown } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [q, setQ] = useState("");
  const query = useDeferredValue(q.trim().toLowerCase());
  const act = useMutation({
    mutationFn: ({ user, action }: { user: Account; action: AccountAction }) => actOn(user.id, action),
    onMutate: () => (setFailed(null), setDone(null)),
    onSuccess: (_r, { user, action }) => {
      const s = DID[action](user.display_name);
      setDone(s[0]!.toUpperCase() + s.slice(1) + ".");
    },
    onError: (error, { user, action }) => setFailed({ what: DO[action](user.display_name), error }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: ["admin-users"] });
      void qc.invalidateQueries({ queryKey: ["admin-audit"] });
    },
  });
  if (users.isLoading) return <Skeleton label="Loading the accounts" />;
  if (users.error) return <ErrorMessage error={users.error} retry={() => users.refetch()} />;
  const all = users.data!;
  const pending = all.filter((u) => u.state === "pending");
  const shown = all.filter((u) => !query || u.display_name.toLowerCase().includes(query) || (u.email ?? "").toLowerCase().includes(query));
  const admins = all.filter((u) => u.role === "admin" && u.state === "active").length;
  const button = (user: Account, action: AccountAction, label: string, kind = "btn secondary") => (
    <button type="button" className={kind} disabled={act.isPending} aria-label={`${label} ${user.display_name}`} onClick={() => act.mutate({ user, action })}>
      {label}
    </button>
  );
  const result = (
    <div aria-live="polite">
      {failed && (
        <div className="alert error" role="alert">
          Could not {failed.what}: {failed.error instanceof Error ? failed.error.message : String(failed.error)}
        </div>
      )}
      {done && <Notice kind="ok">{done}</Notice>}
    </div>
  );
  return (
    <div className="stack">
      <section aria-labelledby="pending-h" className="stack">
        <h2 id="pending-h">Waiting for approval</h2>
        {pending.length === 0 ? (
          <Empty title="Nobody is waiting">New accounts that need your approval show up here.</Empty>
        ) : (
          <DataTable
            caption="Accounts waiting for approval"
            rows={pending}
            rowKey={(u) => u.id}
            compact
            columns={[
              { header: "Name", cell: (u) => u.display_name },
              {
                header: "E-mail",
                cell: (u) => (
                  <>
                    {u.email ?? "–"} {u.email && <span className="tag">{u.email_verified ? "verified" : "not verified"}</span>}
                  </>
                ),
              },
              { header: "Registered", cell: (u) => dateTime(u.created_at) },
              {
                header: "Actions",
                hiddenHeader: true,
                cell: (u) => (
                  <div className="row-actions">
                    {button(u, "approve", "Approve", "btn")}
                    <ConfirmButton question={`Delete the account of ${u.display_name}? They can register again.`} label={`Delete ${u.display_name}`} disabled={act.isPending} onConfirm={() => act.mutate({ user: u, action: "delete" })}>
                      Delete
                    </ConfirmButton>
                  </div>
                ),
              },
            ]}
          />
        )}
      </section>
      <section aria-labelledby="accounts-h" className="stack">
        <h2 id="accounts-h">Accounts</h2>
        <p className="muted">
          {count(all.length, "account")}, {count(admins, "active admin")}. A disabled account cannot sign in and its keys stop working; re-enabling gives it back as it was.
          There is always one admin at least: make another account admin before you step down.
        </p>
        <Field label="Find an account" type="search" value={q} onChange={(e) => setQ(e.target.value)} hint="Name or e-mail" style={{ maxWidth: "24rem" }} />
        {result}
        <DataTable
          caption="Every account, newest first"
          rows={shown}
          rowKey={(u) => u.id}
          compact
          empty="No account matches."
          columns={[
            {
              header: "Name",
              cell: (u) => (
                <>
                  {u.display_name}
                  {u.id === myId && <span className="muted small"> (you)</span>}
                  <div className="muted small break-anywhere">{u.email ?? "signs in without a password"}</div>
                </>
              ),
            },
            { header: "Role", cell: (u) => (u.role === "admin" ? <strong>admin</strong> : "user") },
            { header: "State", cell: (u) => <span className={`state ${u.state}`}>{STATE_WORDS[u.state]}</span> },
            { header: "Last sign-in", cell: (u) => (u.last_login_at ? dateTime(u.last_login_at) : "never") },
            { header: "Registered", cell: (u) => date(u.created_at) },
            {
              header: "Actions",
              hiddenHeader: true,
              cell: (u) =>
                u.state === "pending" ? (
                  <span className="muted small">Approve or delete it above.</span>
                ) : (
                  <div className="row-actions">
                    {u.state === "disabled" && button(u, "enable", "Re-enable")}
                    {u.state !== "disabled" && u.role === "user" && button(u, "make_admin", "Make admin")}
                    {u.role === "admin" && button(u, "unmake_admin", "Take admin away")}
                    {u.state !== "disabled" && u.id !== myId && (
                      <ConfirmButton
                        question={`Disable the account of ${u.display_name}? They cannot sign in and their keys stop working until an admin enables it again.`}
                        label={`Disable ${u.display_name}`}
                        disabled={act.isPending}
                        onConfirm={() => act.mutate({ user: u, action: "disable" })}
                      >
                        Disable
                      </ConfirmButton>
                    )}
                    {u.id !== myId && (
                      <ConfirmButton
                        className="btn danger"
                        question={`Delete the account of ${u.display_name} with everything it owns (lists, servers, keys)? This cannot be undone.`}
                        label={`Delete ${u.display_name}`}
                        disabled={act.isPending}
                        onConfirm={() => act.mutate({ user: u, action: "delete" })}
                      >
                        Delete
                      </ConfirmButton>
                    )}
                  </div>
                ),
            },
          ]}
        />
      </section>
      <section aria-labelledby="audit-h" className="stack">
        <h2 id="audit-h">What admins did lately</h2>
        {audit.error ? (
          <ErrorMessage error={audit.error} retry={() => audit.refetch()} />
        ) : !audit.data ? (
          <Skeleton lines={2} />
        ) : audit.data.length === 0 ? (
          <p className="muted">Nothing yet: approvals, role changes, disabled and deleted accounts show here.</p>
        ) : (
          <ul className="plain" aria-label="Recent admin actions">
            {audit.data.map((a) => (
              <li key={a.id}>
                <span className="muted small">{dateTime(a.created_at)}</span> {a.actor_name ?? "A deleted admin"} {DID[a.action](a.target)}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** How long a job ran (or has run, or waits). */
function timing(j: Job): string {
  const now = Date.now();
  if (j.status === "running" && j.started_at) return `running for ${duration(now - Date.parse(j.started_at))}`;
  if (j.status === "queued") {
    const at = Date.parse(j.run_at);
    return at > now + 1000 ? `waits until ${dateTime(j.run_at)}` : "waiting for its turn";
  }
  if (j.started_at && j.finished_at) return `took ${duration(Date.parse(j.finished_at) - Date.parse(j.started_at))}`;
  return "–";
}

const STATUS_WORDS: Record<Job["status"], string> = { queued: "queued", running: "running", succeeded: "done", failed: "failed", cancelled: "cancelled" };

function Jobs({ status, type }: { status?: AdminSearch["status"]; type?: string }) {
  const qc = useQueryClient();
  const navigate = useNavigate({ from: "/admin" });
  const jobs = useQuery({
    queryKey: ["jobs", status ?? "", type ?? ""],
    queryFn: ({ signal }) => listJobs(status, type, signal),
    // Running jobs move: follow them while the page is open.
    refetchInterval: 3000,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ["jobs"] });
  const trigger = useMutation({ mutationFn: startJob, onSuccess: refresh });
  const retry = useMutation({ mutationFn: retryJob, onSuccess: refresh });
  const cancel = useMutation({ mutationFn: cancelJob, onSuccess: refresh });
  return (
    <section className="stack" aria-labelledby="jobs-h">
      <h2 id="jobs-h">Jobs</h2>
      <div className="card row" style={{ alignItems: "center" }}>
        <button type="button" className="btn" onClick={() => trigger.mutate("/jobs/scraper")} disabled={trigger.isPending}>
          Crawl the workshop
        </button>
        <button type="button" className="btn secondary" onClick={() => trigger.mutate("/jobs/game-servers")} disabled={trigger.isPending}>
          Scan live servers
        </button>
        <button type="button" className="btn secondary" onClick={() => trigger.mutate("/jobs/rollups")} disabled={trigger.isPending}>
          Run the roll-ups
        </button>
        {trigger.isSuccess && <span role="status">Queued.</span>}
      </div>
      <ErrorMessage error={trigger.error ?? retry.error ?? cancel.error} />
      <div className="row">
        <SelectField label="Status" value={status ?? ""} onChange={(e) => navigate({ search: (s) => ({ ...s, status: (e.target.value || undefined) as AdminSearch["status"] }) })}>
          <option value="">All</option>
          {JOB_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_WORDS[s]}
            </option>
          ))}
        </SelectField>
        <SelectField label="Kind" value={type ?? ""} onChange={(e) => navigate({ search: (s) => ({ ...s, type: e.target.value || undefined }) })}>
          <option value="">All kinds</option>
          {Object.entries(JOB_NAMES).map(([t, name]) => (
            <option key={t} value={t}>
              {name}
            </option>
          ))}
        </SelectField>
      </div>
      {jobs.isLoading ? (
        <Skeleton />
      ) : jobs.error ? (
        <ErrorMessage error={jobs.error} retry={() => jobs.refetch()} />
      ) : jobs.data!.length === 0 ? (
        <Empty title="No jobs">{status || type ? "No job matches these filters." : "Nothing has run yet."}</Empty>
      ) : (
        <DataTable
          caption="Background jobs, newest first"
          rows={jobs.data!}
          rowKey={(j) => j.id}
          compact
          columns={[
            {
              header: "Job",
              cell: (j) => (
                <>
                  {jobName(j.type)}
                  <div className="muted small mono">{j.type}</div>
                </>
              ),
            },
            { header: "Status", cell: (j) => <span className={j.status === "failed" ? "removed" : undefined}>{STATUS_WORDS[j.status]}</span> },
            { header: "Time", cell: (j) => timing(j) },
            { header: "Attempts", cell: (j) => `${j.attempts} of ${j.max_attempts}` },
            {
              header: "Progress and errors",
              cell: (j) => (
                <>
                  {j.error && <div className="removed prose small">{j.error}</div>}
                  {progressWords(j.type, j.progress) && <div className="small">{progressWords(j.type, j.progress)}</div>}
                </>
              ),
            },
            { header: "Created", cell: (j) => dateTime(j.created_at) },
            {
              header: "Actions",
              hiddenHeader: true,
              cell: (j) =>
                j.status === "failed" ? (
                  <button type="button" className="btn secondary" onClick={() => retry.mutate(j.id)} aria-label={`Retry job ${j.type}: ${jobName(j.type)}`}>
                    Retry
                  </button>
                ) : j.status === "queued" ? (
                  <button type="button" className="btn secondary" onClick={() => cancel.mutate(j.id)} aria-label={`Cancel job ${j.type}: ${jobName(j.type)}`}>
                    Cancel
                  </button>
                ) : null,
            },
          ]}
        />
      )}
    </section>
  );
}
