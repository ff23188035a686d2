// One mod: what it is, its versions and changelogs, dependency tree, scenarios, screenshots,
// items (by version, and the difference between two), and its live usage with the growth
// chart. The section and selected versions are in the URL. Workshop text is rendered as text.
import { lazy, Suspense, useMemo, useState } from "react";
import { Link, useNavigate, useParams, useSearch } from "@tanstack/react-router";
import { useMutation, useQuery } from "@tanstack/react-query";
import { ApiError } from "../app/api";
import { bytes, count, date, dateTime, num, safeHref } from "../app/format";
import type { ModTab } from "./catalog.search";
import { useSession } from "../app/session";
import type { ModDependencies, ModDetail } from "../app/types";
import { DataTable, Empty, ErrorMessage, Notice, RemoteImage, SelectField, Skeleton } from "../ui/components";
import { modDeps, modDetail, modDiff, modGrowth, modItems, modItemVersions, modMissions, modScreenshots, modServers, modStats, modVersions, requestScrape } from "./catalog.services";
import { listQueries } from "../lists/lists.queries";
import { addMod } from "../lists/lists.services";

const GrowthChart = lazy(() => import("../ui/chart").then((m) => ({ default: m.GrowthChart })));

const TAB_LABELS: Record<ModTab, string> = {
  overview: "Overview",
  versions: "Versions",
  dependencies: "Dependencies",
  scenarios: "Scenarios",
  screenshots: "Screenshots",
  items: "Items",
  usage: "Live usage",
};

export function ModPage() {
  const { id } = useParams({ from: "/mods/$id" });
  const search = useSearch({ from: "/mods/$id" });
  const tab = search.tab ?? "overview";
  const mod = useQuery({ queryKey: ["mod", id], queryFn: ({ signal }) => modDetail(id, signal) });
  if (mod.isLoading) return <Skeleton lines={6} label="Loading the mod" />;
  if (mod.error) {
    if (mod.error instanceof ApiError && (mod.error.status === 404 || mod.error.status === 400)) return <UnknownMod id={id} invalid={mod.error.code === "invalid_workshop_id"} />;
    return <ErrorMessage error={mod.error} retry={() => mod.refetch()} />;
  }
  const m = mod.data!;
  return (
    <article className="stack">
      <Hero mod={m} />
      <nav className="tabs" aria-label="Sections of this mod">
        {(Object.keys(TAB_LABELS) as ModTab[]).map((t) => (
          <Link
            key={t}
            to="/mods/$id"
            params={{ id }}
            search={{ tab: t }}
            // every tab names itself in the URL, so the router marks exactly one as current;
            // a URL without ?tab= shows the overview, marked here
            activeOptions={{ exact: true, includeSearch: true }}
            aria-current={t === tab ? "page" : undefined}
          >
            {TAB_LABELS[t]}
          </Link>
        ))}
      </nav>
      {tab === "overview" && <Overview mod={m} />}
      {tab === "versions" && <Versions id={id} />}
      {tab === "dependencies" && <Dependencies id={id} />}
      {tab === "scenarios" && <Scenarios id={id} />}
      {tab === "screenshots" && <Screenshots id={id} />}
      {tab === "items" && <ItemsSection id={id} version={search.version} from={search.from} to={search.to} />}
      {tab === "usage" && <Usage id={id} />}
    </article>
  );
}

/** A mod the catalog lacks (404), or an id that is no workshop ID (400, code invalid_workshop_id). */
function UnknownMod({ id, invalid }: { id: string; invalid: boolean }) {
  const scrape = useMutation({ mutationFn: () => requestScrape(id) });
  return (
    <div className="stack">
      <h1>Mod not in the catalog</h1>
      <Notice kind="warn">{invalid ? `“${id}” is not a workshop ID (16 hexadecimal characters).` : `The catalog has no mod ${id} yet.`}</Notice>
      {!invalid && (
        <div className="card stack">
          <p>If it exists on the workshop, Loadout can fetch it now.</p>
          <ErrorMessage error={scrape.error} />
          {scrape.isSuccess && <Notice kind="ok">Fetching it. Reload this page in a minute.</Notice>}
          <div>
            <button type="button" className="btn" onClick={() => scrape.mutate()} disabled={scrape.isPending || scrape.isSuccess}>
              Fetch it from the workshop
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

function Hero({ mod }: { mod: ModDetail }) {
  return (
    <div className="mod-hero">
      <RemoteImage src={mod.image_url} alt={`Preview of ${mod.name}`} width={320} height={180} className="hero-image" />
      <div>
        <h1>{mod.name}</h1>
        <p className="muted">by {mod.author || "unknown author"}</p>
        {mod.state !== "active" && <Notice kind="warn">This mod is {mod.state} on the workshop.</Notice>}
        <dl className="facts">
          <dt>Version</dt>
          <dd>{mod.version}</dd>
          <dt>Size</dt>
          <dd>{bytes(mod.size_bytes)}</dd>
          <dt>Rating</dt>
          <dd>{mod.rating === null ? "–" : `${Math.round(mod.rating * 100)} % of ${num(mod.rating_count)} ratings`}</dd>
          <dt>Subscribers</dt>
          <dd>{num(mod.subscriber_count)}</dd>
          <dt>Updated</dt>
          <dd>{date(mod.updated_at)}</dd>
          <dt>Game version</dt>
          <dd>{mod.game_version ?? "–"}</dd>
        </dl>
        <p>
          {mod.tags.map((t) => (
            <Link key={t} className="tag" to="/mods" search={{ tag: t }}>
              {t.toLowerCase()}
            </Link>
          ))}
        </p>
        <div className="row">
          {safeHref(mod.workshop_url) && (
            <a className="btn secondary" href={safeHref(mod.workshop_url)} rel="noopener noreferrer" target="_blank">
              Workshop page<span className="sr-only"> (opens in a new tab)</span>
            </a>
          )}
          <AddToList id={mod.workshop_id} />
        </div>
      </div>
    </div>
  );
}

function AddToList({ id }: { id: string }) {
  const { me } = useSession();
  const [open, setOpen] = useState(false);
  const [listId, setListId] = useState("");
  const lists = useQuery({ ...listQueries.mine(), enabled: open && !!me });
  const add = useMutation({ mutationFn: () => addMod(listId, id, false) });
  if (!me)
    return (
      <Link className="btn" to="/sign-in" search={{ next: `/mods/${id}` }}>
        Sign in to add to a list
      </Link>
    );
  if (!open)
    return (
      <button type="button" className="btn" onClick={() => setOpen(true)}>
        Add to list
      </button>
    );
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      {lists.isLoading ? (
        <Skeleton lines={1} />
      ) : (lists.data ?? []).length === 0 ? (
        <span className="muted">You have no lists yet.</span>
      ) : (
        <SelectField label="List" value={listId} required onChange={(e) => setListId(e.target.value)}>
          <option value="">Choose a list</option>
          {lists.data!.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </SelectField>
      )}
      <button className="btn" type="submit" disabled={!listId || add.isPending}>
        Add
      </button>
      {add.isSuccess && <Notice kind="ok">Added (with the dependencies it needs).</Notice>}
      <ErrorMessage error={add.error} />
    </form>
  );
}

function Overview({ mod }: { mod: ModDetail }) {
  const stats = useQuery({ queryKey: ["mod-stats", mod.workshop_id], queryFn: ({ signal }) => modStats(mod.workshop_id, signal) });
  return (
    <div className="stack">
      {mod.summary && <p>{mod.summary}</p>}
      <section className="card" aria-labelledby="now-h">
        <h2 id="now-h" style={{ marginTop: 0 }}>
          Live now
        </h2>
        {stats.data ? (
          <p>
            On <strong>{num(stats.data.used_by_servers_count)}</strong> {stats.data.used_by_servers_count === 1 ? "server" : "servers"} with{" "}
            <strong>{num(stats.data.players_using_count)}</strong> {stats.data.players_using_count === 1 ? "player" : "players"} (seen in the last hour) ·{" "}
            {count(stats.data.dependencies_count, "dependency", "dependencies")} · needed by {count(stats.data.dependents_count, "mod")}.{" "}
            <Link to="/mods/$id" params={{ id: mod.workshop_id }} search={{ tab: "usage" }}>
              Usage over time
            </Link>
          </p>
        ) : (
          <ErrorMessage error={stats.error} />
        )}
      </section>
      <section aria-labelledby="desc-h">
        <h2 id="desc-h">Description</h2>
        {mod.description ? <div className="prose card">{mod.description}</div> : <p className="muted">No description.</p>}
      </section>
      {mod.external_links.length > 0 && (
        <section aria-labelledby="links-h">
          <h2 id="links-h">Links</h2>
          <ul>
            {mod.external_links.map((l) =>
              safeHref(l.url) ? (
                <li key={l.url}>
                  <a href={safeHref(l.url)} rel="noopener noreferrer nofollow">
                    {l.label}
                  </a>
                </li>
              ) : null,
            )}
          </ul>
        </section>
      )}
      <p className="muted small">
        {mod.license ? `License: ${mod.license}. ` : ""}Workshop ID <code>{mod.workshop_id}</code>. Last read from the workshop {dateTime(mod.scraped_at)}.
      </p>
    </div>
  );
}

function Versions({ id }: { id: string }) {
  const v = useQuery({ queryKey: ["mod-versions", id], queryFn: ({ signal }) => modVersions(id, signal) });
  if (v.isLoading) return <Skeleton />;
  if (v.error) return <ErrorMessage error={v.error} retry={() => v.refetch()} />;
  return (
    <section aria-label="Versions" className="stack">
      {v.data!.map((x) => (
        <div className="card" key={x.version}>
          <h2 className="h3" style={{ marginTop: 0 }}>
            {x.version} <span className="muted small">{date(x.created_at)} · {bytes(x.size_bytes)}{x.game_version ? ` · game ${x.game_version}` : ""}</span>
          </h2>
          {x.changelog ? <div className="prose">{x.changelog}</div> : <p className="muted small">No changelog kept for this version.</p>}
        </div>
      ))}
    </section>
  );
}

/** The dependency tree from the flat graph: children by dependency_ids, a cycle marked and cut. */
function DepTree({ deps }: { deps: ModDependencies }) {
  const byId = useMemo(() => new Map(deps.dependencies.map((d) => [d.workshop_id, d])), [deps]);
  const cycle = useMemo(() => new Set(deps.cycle_edges.map(([a, b]) => `${a}>${b}`)), [deps]);
  const rootChildren = deps.dependencies.filter((d) => d.depth === 1).map((d) => d.workshop_id);
  const render = (ids: string[], parent: string, path: Set<string>) => (
    <ul>
      {ids.map((cid) => {
        const d = byId.get(cid);
        const isCycle = cycle.has(`${parent}>${cid}`) || path.has(cid);
        return (
          <li key={`${parent}>${cid}`}>
            {d?.in_catalog ? (
              <Link to="/mods/$id" params={{ id: cid }} search={{ tab: "dependencies" }}>
                {d.name || cid}
              </Link>
            ) : (
              <span>{d?.name || cid}</span>
            )}{" "}
            <span className="muted small">
              {d?.version ? `requires ${d.version} · ` : ""}
              {bytes(d?.size_bytes)}
              {d && !d.in_catalog ? " · not in the catalog yet" : ""}
            </span>
            {isCycle ? (
              <strong className="removed small"> ↻ cycle: depends back on an earlier mod</strong>
            ) : (
              d && d.dependency_ids.length > 0 && render(d.dependency_ids, cid, new Set([...path, cid]))
            )}
          </li>
        );
      })}
    </ul>
  );
  return <div className="tree card">{render(rootChildren, deps.workshop_id, new Set([deps.workshop_id]))}</div>;
}

function Dependencies({ id }: { id: string }) {
  const d = useQuery({ queryKey: ["mod-deps", id], queryFn: ({ signal }) => modDeps(id, signal) });
  if (d.isLoading) return <Skeleton />;
  if (d.error) return <ErrorMessage error={d.error} retry={() => d.refetch()} />;
  const deps = d.data!;
  if (deps.dependencies.length === 0) return <Empty title="No dependencies">This mod needs nothing else.</Empty>;
  return (
    <section className="stack" aria-label="Dependencies">
      <p>
        {count(deps.dependencies.length, "mod")} needed, {bytes(deps.dependencies_size_bytes)}; with this mod <strong>{bytes(deps.total_size_bytes)}</strong> to download in
        all.
      </p>
      {deps.has_cycle && <Notice kind="warn">The dependencies form a cycle; it is marked below and cut where it closes.</Notice>}
      <DepTree deps={deps} />
    </section>
  );
}

function Scenarios({ id }: { id: string }) {
  const s = useQuery({ queryKey: ["mod-missions", id], queryFn: ({ signal }) => modMissions(id, signal) });
  if (s.isLoading) return <Skeleton />;
  if (s.error) return <ErrorMessage error={s.error} retry={() => s.refetch()} />;
  if (s.data!.missions.length === 0) return <Empty title="No scenarios">This mod brings no scenarios.</Empty>;
  return (
    <section className="grid" aria-label="Scenarios">
      {s.data!.missions.map((x) => (
        <div className="card" key={x.game_id}>
          <h2 className="h3" style={{ marginTop: 0 }}>
            {x.name}
          </h2>
          <p className="muted small">
            {x.game_mode ?? "Scenario"}
            {x.player_count ? ` · up to ${count(x.player_count, "player")}` : ""}
          </p>
          {x.description && <p className="prose">{x.description}</p>}
          <code className="small" style={{ overflowWrap: "anywhere" }}>
            {x.game_id}
          </code>
        </div>
      ))}
    </section>
  );
}

function Screenshots({ id }: { id: string }) {
  const s = useQuery({ queryKey: ["mod-shots", id], queryFn: ({ signal }) => modScreenshots(id, signal) });
  if (s.isLoading) return <Skeleton />;
  if (s.error) return <ErrorMessage error={s.error} retry={() => s.refetch()} />;
  if (s.data!.length === 0) return <Empty title="No screenshots" />;
  return (
    <section className="gallery" aria-label="Screenshots">
      {s.data!.map((x, i) =>
        safeHref(x.url) ? (
          <a key={x.url} href={safeHref(x.url)} rel="noopener noreferrer" target="_blank">
            <RemoteImage src={x.url} alt={`Screenshot ${i + 1} (opens full size)`} width={x.width ?? 320} height={x.height ?? 180} lazy />
          </a>
        ) : null,
      )}
    </section>
  );
}

function ItemsSection({ id, version, from, to }: { id: string; version?: string; from?: string; to?: string }) {
  const navigate = useNavigate({ from: "/mods/$id" });
  const versions = useQuery({ queryKey: ["mod-item-versions", id], queryFn: ({ signal }) => modItemVersions(id, signal) });
  const items = useQuery({ queryKey: ["mod-items", id, version ?? ""], queryFn: ({ signal }) => modItems(id, version, signal) });
  const diff = useQuery({ queryKey: ["mod-diff", id, from, to], queryFn: ({ signal }) => modDiff(id, from!, to!, signal), enabled: !!from && !!to && from !== to });
  if (versions.isLoading || items.isLoading) return <Skeleton />;
  const err = versions.error ?? items.error;
  if (err) return <ErrorMessage error={err} retry={() => void items.refetch()} />;
  const vs = versions.data!;
  if (vs.length === 0)
    return (
      <Empty title="No item data yet">
        <p>Items are read from the mod's packed files when a server that runs it is scanned. None has been yet for this mod.</p>
      </Empty>
    );
  const shown = items.data!;
  const byType = (t: string) => shown.items.filter((x) => x.type === t);
  return (
    <section className="stack" aria-label="Items">
      <div className="row">
        <SelectField label="Version" value={shown.version ?? ""} onChange={(e) => navigate({ search: (s) => ({ ...s, version: e.target.value }) })}>
          {vs.map((v) => (
            <option key={v.version} value={v.version}>
              {v.version} ({count(v.item_count, "item")})
            </option>
          ))}
        </SelectField>
      </div>
      {(["vehicle", "weapon", "gear"] as const).map((t) => (
        <div key={t}>
          <h2 className="h3">
            {t === "vehicle" ? "Vehicles" : t === "weapon" ? "Weapons" : "Gear"} ({byType(t).length})
          </h2>
          {byType(t).length === 0 ? (
            <p className="muted small">None.</p>
          ) : (
            <ul className="small">
              {byType(t).map((x) => (
                <li key={x.path}>
                  {x.name} <code className="muted">{x.path}</code>
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
      <div className="card stack">
        <h2 className="h3" style={{ marginTop: 0 }}>
          Compare two versions
        </h2>
        <div className="row">
          <VersionSelect label="From" versions={vs} value={from} onChange={(v) => navigate({ search: (s) => ({ ...s, from: v }) })} />
          <VersionSelect label="To" versions={vs} value={to} onChange={(v) => navigate({ search: (s) => ({ ...s, to: v }) })} />
        </div>
        <ErrorMessage error={diff.error} />
        {diff.data && (!diff.data.items_known.from || !diff.data.items_known.to) && (
          <Notice>No item data yet for version {!diff.data.items_known.from ? diff.data.from : diff.data.to}: nothing to compare.</Notice>
        )}
        {diff.data && diff.data.items_known.from && diff.data.items_known.to && (
          <div aria-live="polite">
            <p>
              <span className="added">{diff.data.added.length} added</span>, <span className="removed">{diff.data.removed.length} removed</span>,{" "}
              {diff.data.changed.length} changed.
            </p>
            <ul className="small">
              {diff.data.added.map((x) => (
                <li key={`a${x.path}`} className="added">
                  + {x.name} <code>{x.path}</code>
                </li>
              ))}
              {diff.data.removed.map((x) => (
                <li key={`r${x.path}`} className="removed">
                  − {x.name} <code>{x.path}</code>
                </li>
              ))}
              {diff.data.changed.map((x) => (
                <li key={`c${x.to.path}`}>
                  ~ {x.from.name} → {x.to.name}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </section>
  );
}

function VersionSelect({ label, versions, value, onChange }: { label: string; versions: { version: string }[]; value?: string; onChange: (v: string | undefined) => void }) {
  return (
    <SelectField label={label} value={value ?? ""} onChange={(e) => onChange(e.target.value || undefined)}>
      <option value="">Choose</option>
      {versions.map((v) => (
        <option key={v.version} value={v.version}>
          {v.version}
        </option>
      ))}
    </SelectField>
  );
}

function Usage({ id }: { id: string }) {
  const [days, setDays] = useState(180);
  const growth = useQuery({ queryKey: ["mod-growth", id, days], queryFn: ({ signal }) => modGrowth(id, days, signal) });
  const servers = useQuery({ queryKey: ["mod-servers", id], queryFn: ({ signal }) => modServers(id, signal) });
  return (
    <section className="stack" aria-label="Live usage">
      <div className="card stack">
        <div className="row" style={{ justifyContent: "space-between" }}>
          <h2 style={{ margin: 0 }}>Servers using it over time</h2>
          <SelectField label="Range" value={String(days)} onChange={(e) => setDays(Number(e.target.value))}>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
            <option value="180">180 days</option>
          </SelectField>
        </div>
        <ErrorMessage error={growth.error} />
        {growth.isLoading ? (
          <Skeleton lines={4} />
        ) : growth.data && growth.data.length > 0 ? (
          <Suspense fallback={<Skeleton lines={4} />}>
            <GrowthChart points={growth.data} />
          </Suspense>
        ) : (
          <p className="muted">No usage recorded in this range yet: the growth series starts when live scans see servers.</p>
        )}
      </div>
      <div className="card">
        <h2 style={{ marginTop: 0 }}>Servers using it now</h2>
        <ErrorMessage error={servers.error} />
        {servers.data && (
          <DataTable
            empty="No live server seen in the last hour uses this mod."
            caption="Live servers using this mod"
            rows={servers.data}
            rowKey={(x) => x.id}
            columns={[
              { header: "Server", cell: (x) => x.name },
              { header: "Players", num: true, cell: (x) => `${x.player_count}/${x.player_count_limit}` },
              { header: "Scenario", cell: (x) => x.scenario_name },
            ]}
          />
        )}
      </div>
    </section>
  );
}
