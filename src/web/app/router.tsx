// Every page and its URL. Filters, sorts, pages, tabs and selected versions are search params,
// so every view can be linked, reloaded and navigated back to. Page code is split per route
// (lazyRouteComponent): the first load carries the shell and the page it shows.
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, redirect } from "@tanstack/react-router";
import { setUnauthorizedHandler } from "./api";
import { Shell, NotFound } from "./shell";
import { MOD_SORTS, type ModSort } from "./types";
import type { ListTab } from "../lists/list/tabs";

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined);
const int = (v: unknown, def: number): number => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : def;
};

const rootRoute = createRootRoute({ component: Shell, notFoundComponent: NotFound });

export interface CatalogSearch {
  q?: string;
  tag?: string;
  sort?: ModSort;
  page?: number;
}
const catalogRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/mods",
  validateSearch: (s: Record<string, unknown>): CatalogSearch => ({
    q: str(s.q),
    tag: str(s.tag),
    sort: MOD_SORTS.includes(s.sort as ModSort) ? (s.sort as ModSort) : undefined,
    page: s.page === undefined ? undefined : int(s.page, 1),
  }),
  component: lazyRouteComponent(() => import("../catalog/catalog.page"), "CatalogPage"),
});

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/mods" });
  },
});

export const MOD_TABS = ["overview", "versions", "dependencies", "scenarios", "screenshots", "items", "usage"] as const;
export type ModTab = (typeof MOD_TABS)[number];
export interface ModSearch {
  tab?: ModTab;
  version?: string;
  from?: string;
  to?: string;
}
export const modRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/mods/$id",
  validateSearch: (s: Record<string, unknown>): ModSearch => ({
    tab: MOD_TABS.includes(s.tab as ModTab) ? (s.tab as ModTab) : undefined,
    version: str(s.version),
    from: str(s.from),
    to: str(s.to),
  }),
  component: lazyRouteComponent(() => import("../catalog/mod.page"), "ModPage"),
});

const nextSearch = (s: Record<string, unknown>) => ({ next: str(s.next)?.startsWith("/") ? str(s.next) : undefined });
const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/sign-in",
  validateSearch: nextSearch,
  component: lazyRouteComponent(() => import("../accounts/sign-in.page"), "SignInPage"),
});
const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/register",
  component: lazyRouteComponent(() => import("../accounts/register.page"), "RegisterPage"),
});
const tokenSearch = (s: Record<string, unknown>) => ({ token: str(s.token) });
const magicRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/magic",
  validateSearch: tokenSearch,
  component: lazyRouteComponent(() => import("../accounts/landing.page"), "MagicLandingPage"),
});
const verifyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/verify-email",
  validateSearch: tokenSearch,
  component: lazyRouteComponent(() => import("../accounts/landing.page"), "VerifyEmailPage"),
});
const settingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/settings",
  component: lazyRouteComponent(() => import("../accounts/settings.page"), "SettingsPage"),
});
const notificationsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/notifications",
  component: lazyRouteComponent(() => import("../accounts/notifications.page"), "NotificationsPage"),
});
export interface AdminSearch {
  tab?: "users" | "jobs";
  status?: "queued" | "running" | "succeeded" | "failed" | "cancelled";
}
const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin",
  validateSearch: (s: Record<string, unknown>): AdminSearch => ({
    tab: s.tab === "jobs" || s.tab === "users" ? s.tab : undefined,
    status: ["queued", "running", "succeeded", "failed", "cancelled"].includes(s.status as string) ? (s.status as AdminSearch["status"]) : undefined,
  }),
  component: lazyRouteComponent(() => import("../admin/admin.page"), "AdminPage"),
});

const listsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/lists",
  component: lazyRouteComponent(() => import("../lists/my-lists.page"), "ListsPage"),
});
export interface ListSearch {
  /** Checked against the tabs by the list page (an unknown one shows the mods), so the router does not load every tab's code. */
  tab?: ListTab;
  /** A share link's token: read-only access without an account. */
  share?: string;
}
const listRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/lists/$id",
  validateSearch: (s: Record<string, unknown>): ListSearch => ({
    tab: str(s.tab) as ListTab | undefined,
    share: str(s.share),
  }),
  component: lazyRouteComponent(() => import("../lists/list.page"), "ListPage"),
});

const groupsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/groups",
  component: lazyRouteComponent(() => import("../lists/groups.page"), "GroupsPage"),
});

// ---- live servers and statistics (part 3) ----
export const LIVE_SORTS = ["players_desc", "players_asc", "popularity", "recent", "mod_size_desc", "mod_size_asc", "name_asc", "name_desc"] as const;
export interface LiveSearch {
  q?: string;
  sort?: (typeof LIVE_SORTS)[number];
  /** Comma-separated workshop ids. */
  mods?: string;
  min_players?: number;
  max_mod_size_mb?: number;
  official?: "yes" | "no";
  password?: "yes" | "no";
  tags?: string;
  page?: number;
}
const yesNo = (v: unknown) => (v === "yes" || v === "no" ? v : undefined);
const liveRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/live",
  validateSearch: (s: Record<string, unknown>): LiveSearch => ({
    q: str(s.q),
    sort: LIVE_SORTS.includes(s.sort as LiveSearch["sort"] & string) ? (s.sort as LiveSearch["sort"]) : undefined,
    mods: str(s.mods),
    min_players: s.min_players === undefined ? undefined : int(s.min_players, 1),
    max_mod_size_mb: s.max_mod_size_mb === undefined ? undefined : int(s.max_mod_size_mb, 1),
    official: yesNo(s.official),
    password: yesNo(s.password),
    tags: str(s.tags),
    page: s.page === undefined ? undefined : int(s.page, 1),
  }),
  component: lazyRouteComponent(() => import("../live/servers.page"), "LiveServersPage"),
});
export const CHART_RANGES = ["24h", "14d", "365d"] as const;
export type ChartRange = (typeof CHART_RANGES)[number];
const range = (v: unknown): ChartRange | undefined => (CHART_RANGES.includes(v as ChartRange) ? (v as ChartRange) : undefined);
const liveServerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/live/$id",
  validateSearch: (s: Record<string, unknown>): { range?: ChartRange; mods_page?: number; changes_page?: number } => ({
    range: range(s.range),
    mods_page: s.mods_page === undefined ? undefined : int(s.mods_page, 1),
    changes_page: s.changes_page === undefined ? undefined : int(s.changes_page, 1),
  }),
  component: lazyRouteComponent(() => import("../live/server.page"), "LiveServerPage"),
});
const statsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/stats",
  validateSearch: (s: Record<string, unknown>): { range?: ChartRange } => ({ range: range(s.range) }),
  component: lazyRouteComponent(() => import("../live/stats.page"), "StatsPage"),
});
const communityRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/communities/$id",
  validateSearch: (s: Record<string, unknown>): { range?: ChartRange } => ({ range: range(s.range) }),
  component: lazyRouteComponent(() => import("../live/community.page"), "CommunityPage"),
});

const myServersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/my-servers",
  component: lazyRouteComponent(() => import("../deploy/my-servers.page"), "MyServersPage"),
});
const myServerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/my-servers/$id",
  component: lazyRouteComponent(() => import("../deploy/my-server.page"), "MyServerPage"),
});

const suggestRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/lists/$id/suggest",
  validateSearch: (s: Record<string, unknown>) => ({ token: str(s.token) }),
  component: lazyRouteComponent(() => import("../lists/suggest.page"), "SuggestPage"),
});

const routeTree = rootRoute.addChildren([
  listsRoute,
  listRoute,
  suggestRoute,
  groupsRoute,
  liveRoute,
  liveServerRoute,
  statsRoute,
  communityRoute,
  myServersRoute,
  myServerRoute,
  indexRoute,
  catalogRoute,
  modRoute,
  signInRoute,
  registerRoute,
  magicRoute,
  verifyRoute,
  settingsRoute,
  notificationsRoute,
  adminRoute,
]);

export const router = createRouter({ routeTree, defaultPreload: "intent", scrollRestoration: true });

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}

// A session that expired mid-use: to sign-in, and back to where the person was afterwards.
setUnauthorizedHandler(() => {
  const here = router.state.location.href;
  if (!here.startsWith("/sign-in")) void router.navigate({ to: "/sign-in", search: { next: here } });
});
