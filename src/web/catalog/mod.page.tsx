// One mod: its hero (mod/hero.tsx) and its tabs: overview, versions and changelogs, dependency
// tree, scenarios, screenshots, items (by version, and the difference between two), and its live
// usage with the growth chart. Each tab is a file in mod/ and its own chunk (its line, in order,
// in mod/tabs.ts; ui/lazy-tabs.tsx fetches it). The tab and selected versions are in the URL. Workshop text is text.
import { useDeferredValue, useEffect } from "react";
import { Link, useParams, useSearch } from "@tanstack/react-router";
import { useMutation, useQuery } from "@tanstack/react-query";
import { ApiError } from "../app/api";
import { ErrorMessage, Notice, Skeleton } from "../ui/components";
import { lazyTabs } from "../ui/lazy-tabs";
import { modDetail, requestScrape } from "./catalog.services";
import { Hero } from "./mod/hero";
import { MOD_PAGE_TABS } from "./mod/tabs";
import type { ModTabProps } from "./mod/tab";
import { TabNav } from "../ui/tab-nav";

const { preload, TabPanel } = lazyTabs<ModTabProps>();

export function ModPage() {
  const { id } = useParams({ from: "/mods/$id" });
  const search = useSearch({ from: "/mods/$id" });
  // A URL without ?tab= shows the overview (the first).
  const current = MOD_PAGE_TABS.find((t) => t.id === search.tab) ?? MOD_PAGE_TABS[0];
  // Fetch the tab's code while the mod loads, not after.
  useEffect(() => void preload(current).catch(() => undefined), [current]);
  const mod = useQuery({ queryKey: ["mod", id], queryFn: ({ signal }) => modDetail(id, signal) });
  // The page renders from a deferred copy: drawn in slices (a transition) when the answer
  // arrives, not in one long task (docs/performance.md "The web app").
  const deferred = useDeferredValue(mod.data);
  if (mod.error) {
    if (mod.error instanceof ApiError && (mod.error.code === "mod_not_found" || mod.error.code === "invalid_workshop_id")) return <UnknownMod id={id} invalid={mod.error.code === "invalid_workshop_id"} />;
    return <ErrorMessage error={mod.error} retry={() => mod.refetch()} />;
  }
  // Another mod's answer still on its way: its skeleton, not the last mod's page.
  const m = deferred?.workshop_id.toUpperCase() === id.toUpperCase() ? deferred : undefined;
  if (!m) return <Skeleton lines={6} label="Loading the mod" />;
  return (
    <article className="stack">
      <Hero mod={m} />
      <TabNav label="Sections of this mod" current={current.id}>
        {MOD_PAGE_TABS.map((t) => (
          <Link
            key={t.id}
            to="/mods/$id"
            params={{ id }}
            search={{ tab: t.id }}
            // every tab names itself in the URL, so the router marks exactly one as current;
            // a URL without ?tab= shows the overview, marked here
            activeOptions={{ exact: true, includeSearch: true }}
            aria-current={t === current ? "page" : undefined}
          >
            {t.label}
          </Link>
        ))}
      </TabNav>
      <TabPanel tab={current} props={{ id, mod: m }} others={MOD_PAGE_TABS} />
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
