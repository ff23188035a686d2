// One list: its name and figures, the pin button, and the tabs the caller's rights open. Each tab
// is a file in list/ and its own chunk (its line, in order, in list/tabs.ts; ui/lazy-tabs.tsx
// fetches it); their queries and what a change invalidates are in lists.queries.ts.
import { useEffect } from "react";
import { Link, useParams, useSearch } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { bytes, count } from "../app/format";
import { useSession } from "../app/session";
import { ErrorMessage, Notice, Skeleton } from "../ui/components";
import { togglePin } from "./lists.services";
import { invalidateList, listQueries } from "./lists.queries";
import { LIST_TABS } from "./list/tabs";
import type { ListTabProps } from "./list/tab";
import { lazyTabs } from "../ui/lazy-tabs";
import { TabNav } from "../ui/tab-nav";

const { preload, TabPanel } = lazyTabs<ListTabProps>();

export function ListPage() {
  const { id } = useParams({ from: "/lists/$id" });
  const { tab, share } = useSearch({ from: "/lists/$id" });
  const list = useQuery(listQueries.detail(id, share));
  // An unknown tab in the URL shows the mods (the first), as no tab does.
  const current = LIST_TABS.find((t) => t.id === tab) ?? LIST_TABS[0];
  // Fetch the tab's code while the list loads, not after.
  useEffect(() => void preload(current).catch(() => undefined), [current]);
  if (list.isLoading) return <Skeleton lines={6} label="Loading the list" />;
  if (list.error) return <ErrorMessage error={list.error} retry={() => list.refetch()} />;
  const l = list.data!;
  const open = LIST_TABS.filter((t) => t.open(l.my_access));
  return (
    <article className="stack">
      <div>
        <h1>{l.name}</h1>
        {l.description && <p className="prose">{l.description}</p>}
        <p className="muted">
          {count(l.items.length, "mod")} · {bytes(l.total_size_bytes)} to download · {l.is_public ? "public" : "private"}
        </p>
        {/* Pinning needs to read the list without its link (POST /pin answers 404 to a share-link reader). */}
        {!l.my_access.via_share && <PinButton id={l.id} />}
      </div>
      {l.my_access.via_share && <Notice>You are viewing this list through its share link: you can read and export it.</Notice>}
      <TabNav label="Sections of this list" current={current.id}>
        {open.map((t) => (
          <Link
            key={t.id}
            to="/lists/$id"
            params={{ id }}
            search={{ tab: t.id, share }}
            activeOptions={{ exact: true, includeSearch: true }}
            aria-current={t === current ? "page" : undefined}
          >
            {t.label}
          </Link>
        ))}
      </TabNav>
      {open.includes(current) ? (
        <TabPanel tab={current} props={{ list: l, share }} others={open} />
      ) : (
        <Notice kind="warn">This section is for people who may change the list.</Notice>
      )}
    </article>
  );
}

/** Pin the list to the top of your lists page (signed-in readers). */
function PinButton({ id }: { id: string }) {
  const { me } = useSession();
  const qc = useQueryClient();
  const pins = useQuery({ ...listQueries.pins(), enabled: !!me });
  const pinned = !!pins.data?.some((p) => p.id === id);
  const toggle = useMutation({ mutationFn: () => togglePin(id), onSuccess: () => invalidateList.collections(qc) });
  if (!me || !pins.data) return null;
  return (
    <>
      <button type="button" className="btn secondary" aria-pressed={pinned} onClick={() => toggle.mutate()} disabled={toggle.isPending}>
        {pinned ? "Pinned" : "Pin to my lists"}
      </button>
      <ErrorMessage error={toggle.error} />
    </>
  );
}
