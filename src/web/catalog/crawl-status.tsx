// The empty catalog says what the crawl that fills it is doing: queued, running (pages read of
// about how many), or failed with its error in words and, for admins, a retry.
import { Link } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dateTime, num } from "../app/format";
import { useSession } from "../app/session";
import { healthQuery, startFullCrawl } from "../app/platform.services";
import { Empty, ErrorMessage, Notice } from "../ui/components";

export function EmptyCatalog() {
  const { me } = useSession();
  const qc = useQueryClient();
  const health = useQuery({
    ...healthQuery(),
    // Follow a crawl while it runs; look again now and then otherwise.
    refetchInterval: (q) => (q.state.data?.sources?.workshop.crawl ? 3000 : 20_000),
  });
  const retry = useMutation({
    mutationFn: startFullCrawl,
    onSuccess: () => qc.invalidateQueries({ queryKey: healthQuery().queryKey }),
  });
  const workshop = health.data?.sources?.workshop;
  const crawl = workshop?.crawl ?? null;
  const admin = me?.role === "admin";
  return (
    <Empty title="The catalog is empty">
      <p>Loadout fills it from the workshop: first the list of every mod, then each mod's page. Mods appear here as their pages are read.</p>
      <div role="status" aria-live="polite">
        {crawl?.status === "running" ? (
          <Notice>
            {crawl.pages_done === null
              ? "The workshop crawl has started."
              : `Reading the workshop's list of mods: page ${num(crawl.pages_done)} of about ${num(Math.max(crawl.pages_done, crawl.pages_total ?? 0))}.`}
          </Notice>
        ) : crawl?.status === "queued" ? (
          <Notice>A workshop crawl is queued and starts in a moment.</Notice>
        ) : workshop?.last_error ? (
          <Notice kind="error">
            The last crawl failed{workshop.last_error_at ? ` (${dateTime(workshop.last_error_at)})` : ""}: {workshop.last_error}
          </Notice>
        ) : null}
      </div>
      {admin && !crawl && (
        <p className="row">
          <button type="button" className="btn" onClick={() => retry.mutate()} disabled={retry.isPending}>
            {workshop?.last_error ? "Retry the crawl" : "Start a crawl"}
          </button>
          <Link to="/admin" search={{ tab: "jobs" }}>
            Jobs on the admin page
          </Link>
        </p>
      )}
      {!admin && !crawl && <p>{workshop?.last_error ? "An admin of this Loadout can retry it." : "Come back in a few minutes, or ask an admin to start a crawl."}</p>}
      <ErrorMessage error={retry.error} />
    </Empty>
  );
}
