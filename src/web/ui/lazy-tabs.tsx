// Tabs whose code loads apart from the page: a page lists its tabs as lines `{ id, label, load: () =>
// import("./<id>") }` (each tab file's default export is its component, so each is its own chunk)
// and shows the current one with the panel made here. The page keeps its own tab links (they are
// typed to its route). The page fetches the current tab's code while its data loads (`preload`);
// once a tab is on screen and the page is idle, the panel fetches the other tabs' code, so
// switching shows the new tab at once, as when every tab was in the page's chunk.
import { createElement, Suspense, use, useEffect, type ComponentType } from "react";
import { Skeleton } from "./components";

export interface LazyTab<P> {
  /** Its name in the URL (`?tab=…`); the tab's file is `./<id>.tsx`. */
  id: string;
  label: string;
  /** Its file: its default export is the tab's component. */
  load: () => Promise<{ default: ComponentType<P> }>;
}

export function lazyTabs<P extends object>() {
  const started = new Map<string, Promise<{ default: ComponentType<P> }>>();
  /** Components whose code is here: rendered at once, without a skeleton in between. */
  const loaded = new Map<string, ComponentType<P>>();

  /** Fetches a tab's code (once; again after a failure). */
  function preload(tab: LazyTab<P>) {
    let p = started.get(tab.id);
    if (!p) {
      p = tab.load().then(
        (m) => (loaded.set(tab.id, m.default), m),
        (e: unknown) => (started.delete(tab.id), Promise.reject(e)),
      );
      started.set(tab.id, p);
    }
    return p;
  }

  /** The tab's own component (the same element type whether its code was here or not, so nothing remounts once it is). */
  function TabBody({ tab, props }: { tab: LazyTab<P>; props: P }) {
    return createElement(loaded.get(tab.id) ?? use(preload(tab)).default, props);
  }

  /** Shows `tab` (a labelled skeleton while its code loads) and then fetches the code of `others`. */
  function TabPanel({ tab, props, others }: { tab: LazyTab<P>; props: P; others: readonly LazyTab<P>[] }) {
    useEffect(() => {
      // Once the page is idle: the first screen's own work (its render, its data) goes first.
      const fetchOthers = () => {
        for (const t of others) preload(t).catch(() => undefined); // a tab that failed loads again when shown
      };
      if (typeof requestIdleCallback === "function") {
        const id = requestIdleCallback(fetchOthers, { timeout: 2000 });
        return () => cancelIdleCallback(id);
      }
      const id = setTimeout(fetchOthers, 200);
      return () => clearTimeout(id);
    }, [others]);
    return (
      <Suspense fallback={<Skeleton lines={6} label={`Loading ${tab.label}`} />}>
        <TabBody tab={tab} props={props} />
      </Suspense>
    );
  }

  return { preload, TabPanel };
}
