// Browse the catalog: search (suggestions as you type), tag, sort and page, all in the URL.
import { useDeferredValue, useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { bytes, count, date, short, tagLabel } from "../app/format";
import { MOD_SORTS, type ModSort, type ModSummary } from "../app/types";
import { Empty, ErrorMessage, Pager, RemoteImage, SelectField, Skeleton } from "../ui/components";
import { listMods, SORT_LABELS, TAGS } from "./catalog.services";
import { ModCombobox } from "./components/mod-combobox";
import { EmptyCatalog } from "./crawl-status";

export function CatalogPage() {
  const search = useSearch({ from: "/mods" });
  const navigate = useNavigate({ from: "/mods" });
  const page = search.page ?? 1;
  const mods = useQuery({
    queryKey: ["mods", search.q ?? "", search.tag ?? "", search.sort ?? "", page],
    queryFn: ({ signal }) => listMods({ ...search, page }, signal),
    placeholderData: keepPreviousData,
    // An empty catalog is being filled by a crawl: show its first mods without a reload.
    refetchInterval: (q) => (q.state.data?.total === 0 && !search.q && !search.tag ? 5000 : false),
  });
  const filtered = !!(search.q || search.tag);
  // The cards render from a deferred copy: React draws them in slices (a transition) when the
  // answer arrives, instead of one long task (docs/performance.md "The web app").
  const data = useDeferredValue(mods.data);
  return (
    <div className="stack">
      <h1>Mod catalog</h1>
      <div className="card stack">
        <SearchBox initial={search.q ?? ""} onSearch={(q) => navigate({ search: (s) => ({ ...s, q: q || undefined, page: undefined }) })} />
        <div className="row">
          <SelectField label="Tag" value={search.tag ?? ""} onChange={(e) => navigate({ search: (s) => ({ ...s, tag: e.target.value || undefined, page: undefined }) })}>
            <option value="">All tags</option>
            {TAGS.map((t) => (
              <option key={t} value={t}>
                {tagLabel(t)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Sort"
            value={search.sort ?? "updated_desc"}
            onChange={(e) => navigate({ search: (s) => ({ ...s, sort: e.target.value === "updated_desc" ? undefined : (e.target.value as ModSort), page: undefined }) })}
          >
            {MOD_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </SelectField>
          {filtered && (
            <button type="button" className="btn secondary" onClick={() => navigate({ search: {} })}>
              Clear filters
            </button>
          )}
        </div>
      </div>
      <ErrorMessage error={mods.error} retry={() => mods.refetch()} />
      {data === undefined ? (
        mods.isLoading || mods.data ? <Skeleton lines={6} label="Loading mods" /> : null
      ) : data.total === 0 ? (
        filtered ? (
          <Empty title="No mods match">
            <p>Try other words, or another tag.</p>
          </Empty>
        ) : (
          <EmptyCatalog />
        )
      ) : (
        <>
          <p className="muted" aria-live="polite">
            {count(data.total, "mod")}{search.q ? ` for “${search.q}”` : ""}
            {search.tag ? ` tagged ${tagLabel(search.tag)}` : ""}
          </p>
          <ul className="grid mods-grid" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label="Mods">
            {data.mods.map((m) => (
              <ModCard key={m.workshop_id} mod={m} />
            ))}
          </ul>
          <Pager
            page={page}
            pages={data.pages}
            to={(p) => (
              <Link from="/mods" to="/mods" search={(s) => ({ ...s, page: p === 1 ? undefined : p })}>
                {p < page ? "Previous page" : "Next page"}
              </Link>
            )}
          />
        </>
      )}
    </div>
  );
}

/** Facts on one line, " · " between them; a line never starts with the dot (it keeps to the fact before it), nor with a size's unit. */
const facts = (...parts: string[]) => parts.map((p) => p.replace(/ (?=[KMGT]?B$)/, "\u00a0")).join("\u00a0· ");

/** A mod in the grid: who made it, how it is rated and followed, when it last changed, its size and tags. */
function ModCard({ mod }: { mod: ModSummary }) {
  return (
    <li className="card mod-card">
      <RemoteImage src={mod.image_url} alt="" width={96} height={54} lazy />
      <div className="mod-card-body">
        <h2 className="card-title" title={mod.name}>
          <Link to="/mods/$id" params={{ id: mod.workshop_id }} search={{}}>
            {mod.name}
          </Link>
        </h2>
        <div className="muted small one-line">by {mod.author || "unknown author"}</div>
        <div className="small">{facts(mod.rating === null ? "not rated" : `${Math.round(mod.rating * 100)} % positive`, `${short(mod.subscriber_count)} ${mod.subscriber_count === 1 ? "subscriber" : "subscribers"}`)}</div>
        <div className="muted small">{facts(mod.version, `updated ${date(mod.updated_at)}`, bytes(mod.size_bytes))}</div>
        {mod.tags.length > 0 && (
          <div>
            {mod.tags.slice(0, 4).map((t) => (
              <span className="tag" key={t}>
                {tagLabel(t)}
              </span>
            ))}
          </div>
        )}
      </div>
    </li>
  );
}

/** A search field with suggestions from /mods/autocomplete as you type (a combobox). */
function SearchBox({ initial, onSearch }: { initial: string; onSearch: (q: string) => void }) {
  const [q, setQ] = useState(initial);
  const navigate = useNavigate();
  useEffect(() => setQ(initial), [initial]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(q.trim());
  };
  return (
    <form role="search" onSubmit={submit} className="row" aria-label="Search mods">
      <ModCombobox
        label="Search mods"
        text={q}
        onText={setQ}
        style={{ flex: "1 1 12rem" }}
        onChoose={(m) => void navigate({ to: "/mods/$id", params: { id: m.workshop_id }, search: {} })}
      />
      <button className="btn" type="submit">
        Search
      </button>
    </form>
  );
}
