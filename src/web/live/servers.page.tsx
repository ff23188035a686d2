// The live server browser: every filter and sort of GET /game-servers as a control, all of
// them in the URL (a filtered view can be linked and reloaded), paged 50 at a time.
import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { bytes, num } from "../app/format";
import type { LiveSearch } from "./live.search";
import { ErrorMessage, Field, SelectField, Skeleton } from "../ui/components";
import { ModPicker } from "../catalog/components/mod-picker";
import { modDetail } from "../catalog/catalog.services";
import { liveServers, PAGE, SORTS, type BrowseQuery, type LiveServer } from "./live.services";
import { NoLiveServers } from "./live-sources";
import { PlayersBar } from "./components/players-bar";
import { ServerLink } from "./components/server-link";

const MB = 1024 * 1024;

function toQuery(s: LiveSearch): BrowseQuery {
  return {
    search: s.q,
    sort_by: s.sort,
    mod_ids: s.mods,
    min_players: s.min_players,
    max_mod_size: s.max_mod_size_mb === undefined ? undefined : s.max_mod_size_mb * MB,
    official: s.official === undefined ? undefined : s.official === "yes",
    password_protected: s.password === undefined ? undefined : s.password === "yes",
    tags: s.tags,
    offset: s.page && s.page > 1 ? (s.page - 1) * PAGE : undefined,
  };
}



/** A chosen mod filter: its name (looked up once), and a button that drops it. */
function ModChip({ id, onRemove }: { id: string; onRemove: () => void }) {
  const mod = useQuery({ queryKey: ["mod", id], queryFn: ({ signal }) => modDetail(id, signal), staleTime: 300_000, retry: false });
  const name = mod.data?.name ?? id;
  return (
    <span className="tag">
      {name}{" "}
      <button type="button" className="btn link" onClick={onRemove} aria-label={`Stop filtering by ${name}`}>
        ×
      </button>
    </span>
  );
}

/** Number fields apply when the person leaves them or presses Enter, not at every keystroke. */
function NumberFilter({ label, value, onApply, hint }: { label: string; value: number | undefined; onApply: (v: number | undefined) => void; hint?: string }) {
  const [text, setText] = useState(value === undefined ? "" : String(value));
  useEffect(() => setText(value === undefined ? "" : String(value)), [value]);
  const apply = () => {
    const n = Number(text);
    onApply(text.trim() === "" || !Number.isFinite(n) || n <= 0 ? undefined : Math.floor(n));
  };
  return (
    <form
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        apply();
      }}
    >
      <Field label={label} hint={hint} type="number" min={1} inputMode="numeric" value={text} onChange={(e) => setText(e.target.value)} onBlur={apply} style={{ maxWidth: "9rem" }} />
    </form>
  );
}

/** The servers' own tags (battleye, crossplay, modded…), comma-separated; all must match. */
function TagsFilter({ value, onApply }: { value: string | undefined; onApply: (v: string | undefined) => void }) {
  const [text, setText] = useState(value ?? "");
  useEffect(() => setText(value ?? ""), [value]);
  const apply = () => {
    const tags = text
      .split(",")
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean);
    onApply(tags.length ? tags.join(",") : undefined);
  };
  return (
    <form
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        apply();
      }}
    >
      <Field label="Server tags" hint="e.g. crossplay, battleye" value={text} onChange={(e) => setText(e.target.value)} onBlur={apply} style={{ maxWidth: "12rem" }} />
    </form>
  );
}

export function LiveServersPage() {
  const search = useSearch({ from: "/live" });
  const navigate = useNavigate({ from: "/live" });
  const page = search.page ?? 1;
  const set = (patch: Partial<LiveSearch>) => navigate({ search: (s) => ({ ...s, ...patch, page: undefined }) });
  const servers = useQuery({ queryKey: ["live", search], queryFn: ({ signal }) => liveServers(toQuery(search), signal), placeholderData: keepPreviousData });
  const [q, setQ] = useState(search.q ?? "");
  useEffect(() => setQ(search.q ?? ""), [search.q]);
  const mods = (search.mods ?? "").split(",").filter(Boolean);
  const filtered = Object.entries(search).some(([k, v]) => k !== "page" && k !== "sort" && v !== undefined);
  // The filters in the folded panel that are set (the search field stays outside it).
  const active = Object.entries(search).filter(([k, v]) => k !== "page" && k !== "q" && v !== undefined).length;
  const [filtersOpen, setFiltersOpen] = useState(false);
  return (
    <div className="stack">
      <h1>Live servers</h1>
      <form
        role="search"
        className="row"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          set({ q: q.trim() || undefined });
        }}
      >
        <Field label="Search servers" type="search" value={q} onChange={(e) => setQ(e.target.value)} hint="Name or scenario words; an address like 203.0.113.5:2001" style={{ minWidth: "16rem" }} />
        <button type="submit" className="btn">
          Search
        </button>
      </form>
      {/* Under 600 px the filters fold behind this button, so the first screen shows servers. */}
      <button type="button" className="btn secondary filters-toggle panel-toggle" aria-expanded={filtersOpen} onClick={() => setFiltersOpen((o) => !o)}>
        Filters{active > 0 ? ` (${active} on)` : ""}
      </button>
      <div className={filtersOpen ? "filters open stack" : "filters stack"}>
        <div className="row">
          <SelectField label="Order" value={search.sort ?? "players_desc"} onChange={(e) => set({ sort: e.target.value === "players_desc" ? undefined : (e.target.value as LiveSearch["sort"]) })}>
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </SelectField>
          <NumberFilter label="At least players" value={search.min_players} onApply={(v) => set({ min_players: v })} />
          <NumberFilter label="Download at most (MB)" value={search.max_mod_size_mb} onApply={(v) => set({ max_mod_size_mb: v })} />
          <SelectField label="Official" value={search.official ?? ""} onChange={(e) => set({ official: (e.target.value || undefined) as LiveSearch["official"] })}>
            <option value="">Any</option>
            <option value="yes">Official only</option>
            <option value="no">Community only</option>
          </SelectField>
          <TagsFilter value={search.tags} onApply={(v) => set({ tags: v })} />
          <SelectField label="Password" value={search.password ?? ""} onChange={(e) => set({ password: (e.target.value || undefined) as LiveSearch["password"] })}>
            <option value="">Any</option>
            <option value="no">Open</option>
            <option value="yes">Password protected</option>
          </SelectField>
        </div>
        <div className="row" style={{ alignItems: "center" }}>
          <div style={{ flex: "1 1 18rem" }}>
            <ModPicker label="Running this mod" onPick={(m) => !mods.includes(m.workshop_id) && set({ mods: [...mods, m.workshop_id].join(",") })} />
          </div>
          {mods.length > 0 && (
            <div aria-label="Mods the servers must run">
              {mods.map((id) => (
                <ModChip key={id} id={id} onRemove={() => set({ mods: mods.filter((m) => m !== id).join(",") || undefined })} />
              ))}
            </div>
          )}
          {filtered && (
            <Link to="/live" search={{}} className="btn link">
              Clear filters
            </Link>
          )}
        </div>
      </div>
      {servers.isLoading ? (
        <Skeleton lines={8} label="Loading servers" />
      ) : servers.error ? (
        <ErrorMessage error={servers.error} retry={() => servers.refetch()} />
      ) : servers.data!.length === 0 ? (
        <NoLiveServers filtered={filtered} />
      ) : (
        <>
          <ServersTable servers={servers.data!} />
          <nav className="pager" aria-label="Pages">
            {page > 1 ? (
              <Link from="/live" to="/live" search={(s) => ({ ...s, page: page - 1 === 1 ? undefined : page - 1 })}>
                Previous page
              </Link>
            ) : (
              <span className="muted">Previous page</span>
            )}
            <span>
              Servers {num((page - 1) * PAGE + 1)}–{num((page - 1) * PAGE + servers.data!.length)}
            </span>
            {servers.data!.length === PAGE ? (
              <Link from="/live" to="/live" search={(s) => ({ ...s, page: page + 1 })}>
                Next page
              </Link>
            ) : (
              <span className="muted">Next page</span>
            )}
          </nav>
        </>
      )}
    </div>
  );
}

function ServersTable({ servers }: { servers: LiveServer[] }) {
  return (
    <div className="table-wrap">
      <table className="cards-sm">
        <caption className="sr-only">Live servers</caption>
        <thead>
          <tr>
            <th scope="col">Server</th>
            <th scope="col">Players</th>
            <th scope="col">Scenario</th>
            <th scope="col" className="num">
              Mods
            </th>
            <th scope="col" className="num">
              Download
            </th>
            <th scope="col">Access</th>
            <th scope="col">Country</th>
          </tr>
        </thead>
        <tbody>
          {servers.map((s) => (
            <tr key={s.id}>
              <td>
                <ServerLink server={s} />
                {s.official && <span className="tag">official</span>}
              </td>
              <td style={{ minWidth: "8rem" }} data-label="Players">
                <PlayersBar players={s.player_count} limit={s.player_count_limit} />
                {s.queue_players_count > 0 && <span className="muted small">{s.queue_players_count} queued</span>}
              </td>
              <td data-label="Scenario">{s.scenario_name || "–"}</td>
              <td className="num" data-label="Mods">
                {num(s.mods_count)}
              </td>
              <td className="num" data-label="Download">
                {bytes(s.mods_size_bytes)}
              </td>
              <td data-label="Access">{s.password_protected ? "password" : "open"}</td>
              <td data-label="Country">{s.country ?? "–"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
