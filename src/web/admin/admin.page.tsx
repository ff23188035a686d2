// Admin: accounts waiting for approval; background jobs (status filter, progress, error text,
// retry, cancel) and the buttons that start a crawl, a live scan and the roll-ups.
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, get, qs } from "../app/api";
import { dateTime } from "../app/format";
import type { AdminSearch } from "./admin.search";
import { useSession } from "../app/session";
import type { AdminUser, Job } from "../app/types";
import { DataTable, Empty, ErrorMessage, Notice, SelectField, SignInFirst, Skeleton } from "../ui/components";

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
      <nav className="tabs" aria-label="Admin sections">
        <Link to="/admin" search={{ tab: "users" }} aria-current={tab === "users" ? "page" : undefined}>
          Accounts
        </Link>
        <Link to="/admin" search={{ tab: "jobs" }} aria-current={tab === "jobs" ? "page" : undefined}>
          Jobs
        </Link>
      </nav>
      {tab === "users" ? <PendingUsers /> : <Jobs status={search.status} />}
    </div>
  );
}

function PendingUsers() {
  const qc = useQueryClient();
  const users = useQuery({ queryKey: ["admin-users", "pending"], queryFn: ({ signal }) => get<{ users: AdminUser[] }>("/admin/users?pending=1", signal) });
  const approve = useMutation({
    mutationFn: (id: string) => api<{ ok: boolean }>("POST", `/admin/users/${id}/approve`),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["admin-users"] }),
  });
  if (users.isLoading) return <Skeleton />;
  if (users.error) return <ErrorMessage error={users.error} retry={() => users.refetch()} />;
  const list = users.data!.users;
  return (
    <section aria-labelledby="pending-h" className="stack">
      <h2 id="pending-h">Waiting for approval</h2>
      <ErrorMessage error={approve.error} />
      {list.length === 0 ? (
        <Empty title="Nobody is waiting">New accounts that need your approval show up here.</Empty>
      ) : (
        <DataTable
          caption="Accounts waiting for approval"
          rows={list}
          rowKey={(u) => u.id}
          columns={[
            { header: "Name", cell: (u) => u.display_name },
            {
              header: "E-mail",
              cell: (u) => (
                <>
                  {u.email} <span className="tag">{u.email_verified ? "verified" : "not verified"}</span>
                </>
              ),
            },
            { header: "Registered", cell: (u) => dateTime(u.created_at) },
            {
              header: "Actions",
              hiddenHeader: true,
              cell: (u) => (
                <button type="button" className="btn" onClick={() => approve.mutate(u.id)} disabled={approve.isPending} aria-label={`Approve ${u.display_name}`}>
                  Approve
                </button>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}

const STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;

function Jobs({ status }: { status?: AdminSearch["status"] }) {
  const qc = useQueryClient();
  const navigate = useNavigate({ from: "/admin" });
  const jobs = useQuery({
    queryKey: ["jobs", status ?? ""],
    queryFn: ({ signal }) => get<{ jobs: Job[] }>(`/jobs${qs({ status, limit: 100 })}`, signal),
    // Running jobs move: follow them while the page is open.
    refetchInterval: 3000,
  });
  const refresh = () => qc.invalidateQueries({ queryKey: ["jobs"] });
  const trigger = useMutation({ mutationFn: (path: string) => api<{ job_id: string }>("POST", path, { body: path.endsWith("/scraper") ? { mode: "full" } : undefined }), onSuccess: refresh });
  const retry = useMutation({ mutationFn: (id: string) => api<unknown>("POST", `/jobs/${id}/retry`), onSuccess: refresh });
  const cancel = useMutation({ mutationFn: (id: string) => api<unknown>("DELETE", `/jobs/${id}`), onSuccess: refresh });
  return (
    <section className="stack" aria-labelledby="jobs-h">
      <h2 id="jobs-h">Jobs</h2>
      <div className="card row">
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
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
      </div>
      {jobs.isLoading ? (
        <Skeleton />
      ) : jobs.error ? (
        <ErrorMessage error={jobs.error} retry={() => jobs.refetch()} />
      ) : jobs.data!.jobs.length === 0 ? (
        <Empty title="No jobs">{status ? `No ${status} jobs.` : "Nothing has run yet."}</Empty>
      ) : (
        <DataTable
          caption="Background jobs, newest first"
          rows={jobs.data!.jobs}
          rowKey={(j) => j.id}
          columns={[
            { header: "Job", cell: (j) => <code>{j.type}</code> },
            { header: "Status", cell: (j) => j.status },
            { header: "Attempts", cell: (j) => `${j.attempts} of ${j.max_attempts}` },
            {
              header: "Progress and errors",
              cell: (j) => (
                <>
                  {j.error && <div className="removed prose small">{j.error}</div>}
                  {j.progress != null && <code className="small muted">{JSON.stringify(j.progress)}</code>}
                </>
              ),
            },
            { header: "Created", cell: (j) => dateTime(j.created_at) },
            {
              header: "Actions",
              hiddenHeader: true,
              cell: (j) =>
                j.status === "failed" ? (
                  <button type="button" className="btn secondary" onClick={() => retry.mutate(j.id)} aria-label={`Retry job ${j.type}`}>
                    Retry
                  </button>
                ) : j.status === "queued" ? (
                  <button type="button" className="btn secondary" onClick={() => cancel.mutate(j.id)} aria-label={`Cancel job ${j.type}`}>
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
