// What a page needs besides index.html, said in the page's own response (`Link` headers), so the
// browser fetches it while it still reads the first chunk instead of one round trip after the
// other (HTML → first chunk → page chunk → its shared chunks → tab chunk → API): the page's and
// its tab's chunks (`modulepreload`, from the build's chunk manifest) and, for the public pages
// people open first, the API answers they read (`preload` as fetch, used by the page's own
// fetch: same URL, same mode and credentials). Pages are named by their module under src/web, as
// router.tsx and the tabs.ts files load them; a module the manifest lacks (an unknown tab in the
// URL) adds nothing. docs/performance.md "The web app" has the figures.
import { INDEX_KEY, type ChunkManifest } from "./bundle";

/** A mod's workshop id as the mod page has it in its URL. */
const WORKSHOP_ID = /^[0-9A-Fa-f]{16}$/;
/** A tab's name in `?tab=` (one of the page's files, which the manifest then names). */
const TAB = /^[a-z][a-z-]{0,30}$/;

/** GET /mods's page size on the catalog page (src/web/catalog/catalog.services.ts PAGE_SIZE). */
export const CATALOG_PAGE_SIZE = 24;

interface PageNeeds {
  modules: string[];
  /** API paths (under /api/v1) the page fetches first, exactly as it asks for them. */
  data: string[];
}

/** The modules and first API answers of the page at `path` (`search`: its query string). */
export function pageNeeds(path: string, search: URLSearchParams): PageNeeds {
  const parts = path.split("/").filter(Boolean);
  const tab = (dflt: string) => {
    const t = search.get("tab");
    return t !== null && TAB.test(t) ? t : dflt;
  };
  const [first, second, third] = parts;
  if (parts.length === 0 || (first === "mods" && parts.length === 1)) {
    // The catalog's first page: its answer is the same for every visitor (no filters, no sort).
    return { modules: ["catalog/catalog.page.tsx"], data: search.size === 0 ? [`/mods?page=1&limit=${CATALOG_PAGE_SIZE}`] : [] };
  }
  if (first === "mods" && parts.length === 2 && WORKSHOP_ID.test(second!)) {
    const t = tab("overview");
    const data = [`/mods/${second}`];
    if (t === "overview") data.push(`/mods/${second}/stats`);
    if (t === "dependencies") data.push(`/mods/${second}/deps`);
    return { modules: ["catalog/mod.page.tsx", `catalog/mod/${t}.tsx`], data };
  }
  if (first === "lists" && parts.length === 1) return { modules: ["lists/my-lists.page.tsx"], data: [] };
  if (first === "lists" && parts.length === 2) return { modules: ["lists/list.page.tsx", `lists/list/${tab("mods")}.tsx`], data: [] };
  if (first === "lists" && third === "suggest") return { modules: ["lists/suggest.page.tsx"], data: [] };
  if (first === "live") return { modules: [parts.length === 1 ? "live/servers.page.tsx" : "live/server.page.tsx"], data: [] };
  const single: Record<string, string> = {
    stats: "live/stats.page.tsx",
    communities: "live/community.page.tsx",
    "sign-in": "accounts/sign-in.page.tsx",
    register: "accounts/register.page.tsx",
    settings: "accounts/settings.page.tsx",
    notifications: "accounts/notifications.page.tsx",
    admin: "admin/admin.page.tsx",
    groups: "lists/groups.page.tsx",
    "my-servers": parts.length === 1 ? "deploy/my-servers.page.tsx" : "deploy/my-server.page.tsx",
  };
  return { modules: single[first!] ? [single[first!]!] : [], data: [] };
}

/** The `Link` header of the page at `path`, or null when it needs nothing more. */
export function preloadLinks(manifest: ChunkManifest, path: string, search: URLSearchParams): string | null {
  const { modules, data } = pageNeeds(path, search);
  const files: string[] = [];
  for (const m of modules) for (const f of manifest[m] ?? []) if (!files.includes(f)) files.push(f);
  if (files.length === 0 && data.length === 0) return null;
  const links = [
    // What the HTML names, first: a browser with a few connections to the server fetches them
    // before the page's chunks (as the HTML's own tags are `crossorigin`, so are these).
    ...(manifest[INDEX_KEY] ?? []).map((f) => (f.endsWith(".css") ? `<${f}>; rel=preload; as=style; crossorigin=anonymous` : `<${f}>; rel=modulepreload`)),
    ...files.map((f) => `<${f}>; rel=modulepreload`),
    // The page's fetch() is a CORS-mode request with same-origin credentials: a preload with
    // `crossorigin` is the same request, so the browser hands its answer to the page.
    ...data.map((d) => `</api/v1${d}>; rel=preload; as=fetch; crossorigin=anonymous`),
  ];
  return links.join(", ");
}
