// Every page and its URL. Filters, sorts, pages, tabs and selected versions are search params,
// so every view can be linked, reloaded and navigated back to; each page's schema of them (zod)
// lives beside the page (*.search.ts), so pages never import the router. Page code is split per route
// (lazyRouteComponent): the first load carries the shell and the page it shows.
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, redirect } from "@tanstack/react-router";
import { setUnauthorizedHandler } from "./api";
import { Shell, NotFound } from "./shell";
import { tokenSearch } from "./search";
import { signInSearch } from "../accounts/accounts.search";
import { adminSearch } from "../admin/admin.search";
import { catalogSearch, modSearch } from "../catalog/catalog.search";
import { listSearch } from "../lists/list.search";
import { liveSearch, liveServerSearch, rangeSearch } from "../live/live.search";
import { anyName, search } from "./search";
import type { ServerTab } from "../deploy/server/tabs";

/**
 * The server page's tab: any name, mapped by the page to the first tab the caller's role opens
 * (deploy.search.ts says the same with zod/mini; this keeps zod out of the first chunk).
 */
const serverPageSearch = search({ tab: anyName<ServerTab>() });

const rootRoute = createRootRoute({ component: Shell, notFoundComponent: NotFound });

const catalogRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/mods",
  validateSearch: catalogSearch,
  component: lazyRouteComponent(() => import("../catalog/catalog.page"), "CatalogPage"),
});

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/mods" });
  },
});

export const modRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/mods/$id",
  validateSearch: modSearch,
  component: lazyRouteComponent(() => import("../catalog/mod.page"), "ModPage"),
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/sign-in",
  validateSearch: signInSearch,
  component: lazyRouteComponent(() => import("../accounts/sign-in.page"), "SignInPage"),
});
const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/register",
  component: lazyRouteComponent(() => import("../accounts/register.page"), "RegisterPage"),
});
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
const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin",
  validateSearch: adminSearch,
  component: lazyRouteComponent(() => import("../admin/admin.page"), "AdminPage"),
});

const listsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/lists",
  component: lazyRouteComponent(() => import("../lists/my-lists.page"), "ListsPage"),
});
const listRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/lists/$id",
  validateSearch: listSearch,
  component: lazyRouteComponent(() => import("../lists/list.page"), "ListPage"),
});

const groupsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/groups",
  component: lazyRouteComponent(() => import("../lists/groups.page"), "GroupsPage"),
});

// ---- live servers and statistics (part 3) ----
const liveRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/live",
  validateSearch: liveSearch,
  component: lazyRouteComponent(() => import("../live/servers.page"), "LiveServersPage"),
});
const liveServerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/live/$id",
  validateSearch: liveServerSearch,
  component: lazyRouteComponent(() => import("../live/server.page"), "LiveServerPage"),
});
const statsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/stats",
  validateSearch: rangeSearch,
  component: lazyRouteComponent(() => import("../live/stats.page"), "StatsPage"),
});
const communityRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/communities/$id",
  validateSearch: rangeSearch,
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
  validateSearch: serverPageSearch,
  component: lazyRouteComponent(() => import("../deploy/my-server.page"), "MyServerPage"),
});
const playerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/my-servers/$id/players/$uid",
  component: lazyRouteComponent(() => import("../deploy/player.page"), "PlayerPage"),
});

const suggestRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/lists/$id/suggest",
  validateSearch: tokenSearch,
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
  playerRoute,
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
