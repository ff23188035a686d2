// Browse the catalog: search (suggestions as you type), tag, sort and page, all in the URL.
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { bytes, num } from "../app/format";
import { MOD_SORTS, type ModSort, type ModSummary } from "../app/types";
import { Empty, ErrorMessage, Pager, RemoteImage, SelectField, Skeleton } from "../ui/components";
import { autocomplete, listMods, SORT_LABELS, TAGS } from "./catalog.services";
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
                {t.replace(/_/g, " ").toLowerCase()}
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
      {mods.isLoading ? (
        <Skeleton lines={6} label="Loading mods" />
      ) : mods.data && mods.data.total === 0 ? (
        filtered ? (
          <Empty title="No mods match">
            <p>Try other words, or another tag.</p>
          </Empty>
        ) : (
          <EmptyCatalog />
        )
      ) : mods.data ? (
        <>
          <p className="muted" aria-live="polite">
            {num(mods.data.total)} mods{search.q ? ` for “${search.q}”` : ""}
            {search.tag ? ` tagged ${search.tag.toLowerCase()}` : ""}
          </p>
          <ul className="grid" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label="Mods">
            {mods.data.mods.map((m) => (
              <ModCard key={m.workshop_id} mod={m} />
            ))}
          </ul>
          <Pager
            page={page}
            pages={mods.data.pages}
            to={(p) => (
              <Link from="/mods" to="/mods" search={(s) => ({ ...s, page: p === 1 ? undefined : p })}>
                {p < page ? "Previous page" : "Next page"}
              </Link>
            )}
          />
        </>
      ) : null}
    </div>
  );
}

function ModCard({ mod }: { mod: ModSummary }) {
  return (
    <li className="card mod-card">
      <RemoteImage src={mod.image_url} alt="" width={96} height={54} lazy />
      <div style={{ minWidth: 0 }}>
        <h2 className="card-title">
          <Link to="/mods/$id" params={{ id: mod.workshop_id }} search={{}}>
            {mod.name}
          </Link>
        </h2>
        <div className="muted small">
          {mod.version} · {bytes(mod.size_bytes)}
        </div>
        <div>
          {mod.tags.slice(0, 4).map((t) => (
            <span className="tag" key={t}>
              {t.toLowerCase()}
            </span>
          ))}
        </div>
      </div>
    </li>
  );
}

/** A search field with suggestions from /mods/autocomplete as you type (a combobox). */
function SearchBox({ initial, onSearch }: { initial: string; onSearch: (q: string) => void }) {
  const [q, setQ] = useState(initial);
  const [debounced, setDebounced] = useState(initial);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const navigate = useNavigate();
  const listId = useId();
  const inputId = useId();
  const wrap = useRef<HTMLDivElement>(null);
  useEffect(() => setQ(initial), [initial]);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(q.trim()), 150);
    return () => clearTimeout(t);
  }, [q]);
  const suggestions = useQuery({
    queryKey: ["autocomplete", debounced],
    queryFn: ({ signal }) => autocomplete(debounced, signal),
    enabled: open && debounced.length >= 2,
    staleTime: 60_000,
  });
  const items = open && debounced.length >= 2 ? (suggestions.data ?? []) : [];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setOpen(false);
    onSearch(q.trim());
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" && items.length) {
      e.preventDefault();
      setActive((a) => (a + 1) % items.length);
    } else if (e.key === "ArrowUp" && items.length) {
      e.preventDefault();
      setActive((a) => (a <= 0 ? items.length - 1 : a - 1));
    } else if (e.key === "Enter" && active >= 0 && items[active]) {
      e.preventDefault();
      setOpen(false);
      void navigate({ to: "/mods/$id", params: { id: items[active]!.workshop_id }, search: {} });
    } else if (e.key === "Escape") {
      setOpen(false);
    }
  };
  return (
    <form role="search" onSubmit={submit} className="row" aria-label="Search mods">
      <div
        className="field suggest"
        style={{ flex: "1 1 18rem" }}
        ref={wrap}
        onBlur={(e) => {
          if (!wrap.current?.contains(e.relatedTarget as Node)) setOpen(false);
        }}
      >
        <label htmlFor={inputId}>Search mods</label>
        <input
          id={inputId}
          type="search"
          role="combobox"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={active >= 0 && items[active] ? `${listId}-${active}` : undefined}
          autoComplete="off"
          placeholder="Name, author or tag"
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKey}
        />
        {items.length > 0 && (
          <ul id={listId} role="listbox" aria-label="Suggestions">
            {items.map((s, i) => (
              <li
                key={s.workshop_id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                className={i === active ? "active" : undefined}
                onMouseDown={(e) => {
                  // mousedown, before the input's blur closes the list
                  e.preventDefault();
                  setOpen(false);
                  void navigate({ to: "/mods/$id", params: { id: s.workshop_id }, search: {} });
                }}
              >
                {s.name}
              </li>
            ))}
          </ul>
        )}
      </div>
      <button className="btn" type="submit">
        Search
      </button>
    </form>
  );
}
