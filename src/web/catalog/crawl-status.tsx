// The empty catalog says what the crawl that fills it is doing: queued, running (pages read of
// about how many), or failed. A failure shows at once, while the crawl waits to try again too
// (GET /health keeps the last attempt's error until a crawl succeeds), with what to do in words;
// admins see when the next attempt comes and can start it now.
import { Link } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { get, qs } from "../app/api";
import { dateTime, num } from "../app/format";
import { useSession } from "../app/session";
import { healthQuery, startFullCrawl } from "../app/platform.services";
import type { CrawlProgress, Job } from "../app/types";
import { Empty, ErrorMessage, Notice } from "../ui/components";

/** Admins only: the queued crawl job, for when its next attempt comes and which one it is. */
const queuedCrawl = (mode: CrawlProgress["mode"], signal?: AbortSignal) =>
  get<{ jobs: Job[] }>(`/jobs${qs({ type: `scrape.${mode}`, status: "queued", limit: 1 })}`, signal).then((r) => r.jobs[0] ?? null);

export function EmptyCatalog() {
  const { me } = useSession();
  const qc = useQueryClient();
  const health = useQuery({
    ...healthQuery(),
    // Follow a crawl while it runs or waits to try again; look again now and then otherwise.
    refetchInterval: (q) => (q.state.data?.sources?.workshop.crawl ? 3000 : 20_000),
  });
  const workshop = health.data?.sources?.workshop;
  const crawl = workshop?.crawl ?? null;
  const error = workshop?.last_error ?? null;
  const admin = me?.role === "admin";
  // A queued crawl that has started before is waiting to try again after a failed attempt.
  const retrying = crawl?.status === "queued" && !!error;
  const next = useQuery({
    queryKey: ["crawl-retry", crawl?.mode, workshop?.last_error_at],
    queryFn: ({ signal }) => queuedCrawl(crawl!.mode, signal),
    enabled: admin && retrying,
  });
  const retry = useMutation({
    mutationFn: startFullCrawl,
    onSuccess: () => qc.invalidateQueries({ queryKey: healthQuery().queryKey }),
  });
  const when = workshop?.last_error_at ? ` (${dateTime(workshop.last_error_at)})` : "";
  return (
    <Empty title="The catalog is empty">
      <p>Loadout fills it from the workshop: first the list of every mod, then each mod's page. Mods appear here as their pages are read.</p>
      <div role="status" aria-live="polite" className="stack crawl-status">
        {error && (
          <div className="alert error">
            <p className="flush">
              <strong>The last crawl failed{when}:</strong> {error}
            </p>
            <p className="flush">
              {crawl?.status === "running"
                ? "Trying again now."
                : retrying
                  ? next.data
                    ? `Loadout tries again by itself at ${dateTime(next.data.run_at)} (attempt ${next.data.attempts + 1} of ${next.data.max_attempts}).`
                    : "Loadout tries again by itself in a few minutes."
                  : "Loadout tries again at its next scheduled crawl (every 6 hours)."}
            </p>
          </div>
        )}
        {crawl?.status === "running" ? (
          <Notice>
            {crawl.pages_done === null
              ? "The workshop crawl has started."
              : `Reading the workshop's list of mods: page ${num(crawl.pages_done)} of about ${num(Math.max(crawl.pages_done, crawl.pages_total ?? 0))}.`}
          </Notice>
        ) : crawl?.status === "queued" && !error ? (
          <Notice>A workshop crawl is queued and starts in a moment.</Notice>
        ) : null}
      </div>
      {error && (
        <div className="crawl-help">
          <h3>What to do</h3>
          <ul>
            <li>
              The crawl needs outbound HTTPS from the machine Loadout runs on to the Arma Reforger workshop (reforger.armaplatform.com, or the address in
              LOADOUT_WORKSHOP_URL): check that this machine resolves that name and reaches it through its firewall or proxy.
            </li>
            <li>If the workshop refused the request, the error names the setting to change; a change takes effect when Loadout is started again.</li>
            <li>{admin ? "Then retry: the crawl starts at once." : "Then an admin of this Loadout can retry it."}</li>
          </ul>
        </div>
      )}
      {admin && crawl?.status !== "running" && (
        <p className="row" style={{ justifyContent: "center", alignItems: "center" }}>
          {(!crawl || retrying) && (
            <button type="button" className="btn" onClick={() => retry.mutate()} disabled={retry.isPending}>
              {retrying ? "Retry now" : error ? "Retry the crawl" : "Start a crawl"}
            </button>
          )}
          <Link to="/admin" search={{ tab: "jobs" }}>
            Jobs on the admin page
          </Link>
        </p>
      )}
      {!admin && !crawl && !error && <p>Come back in a few minutes, or ask an admin to start a crawl.</p>}
      <ErrorMessage error={retry.error} />
    </Empty>
  );
}
