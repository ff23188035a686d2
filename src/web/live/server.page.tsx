// One live server: what it is now, its players over 24 hours, 14 days or a year (uPlot, with a
// table), the mods it runs (paged, with the total download), what changed in its mods and when,
// and "copy these mods to a list" (a new list, or over one of yours); when it is one of the
// caller's registered servers, a link to its own page (My servers).
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { bytes, count as countOf, num } from "../app/format";
import { Time } from "../ui/time";
import { useSession } from "../app/session";
import { ConfirmButton, DataTable, ErrorMessage, Field, Notice, Pager, SelectField, Skeleton } from "../ui/components";
import type { Series } from "../ui/chart";
import { copyFromServer } from "../lists/lists.services";
import { changelog, copyToNewList, liveServer, RANGES, serverMods, serverStats, type ServerStatPoint } from "./live.services";
import { PlayersBar } from "./components/players-bar";
import { ChartCard } from "./components/chart-card";
import { MyServerLink } from "../deploy/components/server-status";
import { invalidateList, listQueries } from "../lists/lists.queries";

const SERIES: Series<ServerStatPoint>[] = [
  { label: "Players", unit: "players", value: (p) => p.player_count, color: "--accent" },
  { label: "In queue", unit: "players", value: (p) => p.queue_players_count, color: "--warn" },
];
const MODS_PAGE = 25;

export function LiveServerPage() {
  const { id } = useParams({ from: "/live/$id" });
  const search = useSearch({ from: "/live/$id" });
  const range = RANGES.find((r) => r.key === (search.range ?? "24h"))!;
  const detail = useQuery({ queryKey: ["live-server", id], queryFn: ({ signal }) => liveServer(id, signal) });
  const stats = useQuery({ queryKey: ["live-server-stats", id, range.days], queryFn: ({ signal }) => serverStats(id, range.days, signal) });
  if (detail.isLoading) return <Skeleton lines={6} label="Loading the server" />;
  if (detail.error) return <ErrorMessage error={detail.error} retry={() => detail.refetch()} />;
  const { server: s } = detail.data!;
  return (
    <article className="stack">
      <div>
        <h1>{s.name}</h1>
        <p className="muted">
          {s.online ? "Online" : "Offline"} · {s.scenario_name || "no scenario reported"} · game {s.game_version || "?"} · {s.host_address}
          {s.country ? ` · ${s.country}` : ""}
          {s.official ? " · official" : ""}
          {s.password_protected ? " · password" : ""}
        </p>
        <div style={{ maxWidth: "20rem" }}>
          <PlayersBar players={s.player_count} limit={s.player_count_limit} />
        </div>
        <p className="muted small">
          Last report <Time iso={s.last_updated} /> · {countOf(s.mods_count, "mod")}, {bytes(s.mods_size_bytes)} to download · {countOf(Math.round(s.avg_players_7d), "player")} on average
          this week
        </p>
      </div>

      <MyServerLink liveId={id} />

      <ChartCard id="players-h" heading="Players" query={stats} series={SERIES} range={range} what={`players on ${s.name}`} empty="No player history in this range yet." />

      <Mods id={id} page={search.mods_page ?? 1} />
      <CopyMods id={id} name={s.name} count={s.mods_count} />
      <Changelog id={id} page={search.changes_page ?? 1} />
    </article>
  );
}

function Mods({ id, page }: { id: string; page: number }) {
  const mods = useQuery({ queryKey: ["live-server-mods", id, page], queryFn: ({ signal }) => serverMods(id, page, MODS_PAGE, signal) });
  return (
    <section className="card stack" aria-labelledby="mods-h">
      <h2 id="mods-h" style={{ margin: 0 }}>
        Mods{mods.data ? ` (${num(mods.data.total)}, ${bytes(mods.data.total_size_bytes)} in all)` : ""}
      </h2>
      {mods.isLoading ? (
        <Skeleton lines={4} />
      ) : mods.error ? (
        <ErrorMessage error={mods.error} retry={() => mods.refetch()} />
      ) : mods.data!.total === 0 ? (
        <p className="muted">This server runs no mods.</p>
      ) : (
        <>
          <DataTable
            compact
            caption="Mods of this server, in load order"
            rows={mods.data!.items}
            rowKey={(m) => m.workshop_id}
            columns={[
              { header: "#", num: true, cell: (m) => m.position + 1 },
              {
                header: "Mod",
                cell: (m) =>
                  m.in_catalog ? (
                    <Link to="/mods/$id" params={{ id: m.workshop_id }} search={{}}>
                      {m.name || m.workshop_id}
                    </Link>
                  ) : (
                    <>
                      {m.name || m.workshop_id} <span className="muted small">(not in the catalog)</span>
                    </>
                  ),
              },
              { header: "Version", cell: (m) => (m.version ? `${m.version}${m.latest_version && m.latest_version !== m.version ? ` (latest ${m.latest_version})` : ""}` : "latest") },
              { header: "Size", num: true, cell: (m) => bytes(m.size_bytes) },
            ]}
          />
          <Pager
            page={mods.data!.page}
            pages={mods.data!.pages}
            to={(p) => (
              <Link from="/live/$id" to="/live/$id" params={{ id }} search={(s) => ({ ...s, mods_page: p === 1 ? undefined : p })}>
                {p < page ? "Previous mods" : "Next mods"}
              </Link>
            )}
          />
        </>
      )}
    </section>
  );
}

function Changelog({ id, page }: { id: string; page: number }) {
  const log = useQuery({ queryKey: ["live-server-changelog", id, page], queryFn: ({ signal }) => changelog(id, page, signal) });
  return (
    <section className="card stack" aria-labelledby="changes-h">
      <h2 id="changes-h" style={{ margin: 0 }}>
        Mod changes
      </h2>
      {log.isLoading ? (
        <Skeleton lines={3} />
      ) : log.error ? (
        <ErrorMessage error={log.error} retry={() => log.refetch()} />
      ) : log.data!.total === 0 ? (
        <p className="muted">No change to its mods since it was first seen.</p>
      ) : (
        <>
          <DataTable
            compact
            caption="Changes to this server's mods, newest first"
            rows={log.data!.items}
            rowKey={(c) => `${c.timestamp}-${c.workshop_id}-${c.action}`}
            columns={[
              { header: "When", cell: (c) => <Time iso={c.timestamp} /> },
              { header: "What", cell: (c) => c.action },
              {
                header: "Mod",
                cell: (c) => (
                  <Link to="/mods/$id" params={{ id: c.workshop_id }} search={{}}>
                    {c.mod_name || c.workshop_id}
                  </Link>
                ),
              },
              { header: "Version", cell: (c) => (c.action === "updated" ? `${c.old_version ?? "?"} → ${c.new_version ?? "?"}` : (c.new_version ?? c.old_version ?? "–")) },
            ]}
          />
          <Pager
            page={log.data!.page}
            pages={log.data!.pages}
            to={(p) => (
              <Link from="/live/$id" to="/live/$id" params={{ id }} search={(s) => ({ ...s, changes_page: p === 1 ? undefined : p })}>
                {p < page ? "Newer changes" : "Older changes"}
              </Link>
            )}
          />
        </>
      )}
    </section>
  );
}

/** Copy the server's mods into a new private list, or over one of the caller's lists. */
function CopyMods({ id, name, count }: { id: string; name: string; count: number }) {
  const { me } = useSession();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [listName, setListName] = useState(`${name}`.slice(0, 100));
  const [target, setTarget] = useState("");
  const lists = useQuery({ ...listQueries.mine(), enabled: !!me });
  const owned = (lists.data ?? []).filter((l) => (l.role ?? "owner") === "owner" || l.role === "co-owner");
  const done = async (listId: string) => {
    await invalidateList.collections(qc);
    await navigate({ to: "/lists/$id", params: { id: listId }, search: {} });
  };
  const toNew = useMutation({ mutationFn: () => copyToNewList(id, listName), onSuccess: (r) => done(r.list_id) });
  const over = useMutation({ mutationFn: () => copyFromServer(id, { list_id: target }), onSuccess: (r) => done(r.list_id) });
  if (count === 0) return null;
  if (!me)
    return (
      <Notice>
        <Link to="/sign-in" search={{ next: location.pathname }}>
          Sign in
        </Link>{" "}
        to copy {count === 1 ? "this mod" : `these ${num(count)} mods`} into a list of your own.
      </Notice>
    );
  return (
    <section className="card stack" aria-labelledby="copy-h">
      <h2 id="copy-h" style={{ margin: 0 }}>
        Copy these mods to a list
      </h2>
      <form
        className="row"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          toNew.mutate();
        }}
      >
        <Field label="New list's name" required maxLength={100} value={listName} onChange={(e) => setListName(e.target.value)} />
        <button type="submit" className="btn" disabled={toNew.isPending}>
          Copy to a new list
        </button>
      </form>
      {owned.length > 0 && (
        <div className="row">
          <SelectField label="Or replace the mods of" value={target} onChange={(e) => setTarget(e.target.value)}>
            <option value="">Choose one of your lists…</option>
            {owned.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </SelectField>
          <ConfirmButton question={`Replace the mods of that list with these ${count}? (You can undo it in the list's history.)`} onConfirm={() => over.mutate()} disabled={!target || over.isPending}>
            Replace its mods
          </ConfirmButton>
        </div>
      )}
      <ErrorMessage error={toNew.error ?? over.error} />
    </section>
  );
}
