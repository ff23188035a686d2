// A local fake of the workshop site (docs/catalog.md "The fake workshop"), on 127.0.0.1 and a
// random port. It serves exactly the documented shapes: HTML pages with __NEXT_DATA__ (buildId) and
// the Next.js data routes for listing, detail and scenarios. Tests steer it to misbehave: rotate
// the buildId (also mid-crawl), answer 429/5xx with Retry-After, serve a malformed page.
import type { FakeMod, FakeVersion } from "../fixtures/workshop/dataset";

/**
 * Rows a listing page serves: 16, as two independent clients of the real site report
 * (docs/catalog.md "The real site, and the evidence for each shape"). The client must not depend on it.
 */
export const PAGE_SIZE = 16;
/** Versions the detail page lists, newest first: one saved real output shows exactly 10. */
export const VERSIONS_SHOWN = 10;

export interface FakeFailure {
  status: number;
  retryAfter?: string;
}

export interface FakeWorkshopOptions {
  mods: FakeMod[];
  buildId?: string;
}

export interface FakeRequest {
  path: string;
  query: Record<string, string>;
  status: number;
}

type ListingSort = "newest" | "popularity" | "subscribers" | "version_size";

export class FakeWorkshop {
  server!: ReturnType<typeof Bun.serve>;
  buildId: string;
  readonly mods = new Map<string, FakeMod>();
  /** Every request answered, in order (path, query, status). */
  readonly requests: FakeRequest[] = [];
  /** Failures answered to the next requests (any route), consumed in order. */
  readonly failures: FakeFailure[] = [];
  /** Detail ids whose payload is broken (asset.currentVersionNumber becomes a number). */
  readonly malformedDetails = new Set<string>();
  /** Listing pages (1-based) whose payload is broken (rows is not an array). */
  readonly malformedPages = new Set<number>();
  /** Mods whose listing row is broken (currentVersionNumber a number): the rest of the page is fine. */
  readonly malformedRows = new Set<string>();
  /** Mods whose dependency tree is only on `asset.dependencies` (assetVersionDetail has `[]`). */
  readonly depsOnlyOnAsset = new Set<string>();
  /** Every request answers 403 (a CDN refusing the client) while set. */
  forbidden = false;
  /** When set, the next request answers `302 Location: <redirectNext><its path and query>` (a moved site). */
  redirectNext: string | null = null;
  /** Listing pages held open until their gate is released (a crawl caught in the middle). */
  private readonly heldPages = new Map<number, Promise<void>>();
  /** User-Agent of every request, in order. */
  readonly userAgents: string[] = [];
  /** Data-route request count after which the buildId changes (null: never). */
  private rotateAt: number | null = null;
  private sortedCache = new Map<ListingSort, FakeMod[]>();
  private dataRequests = 0;

  constructor(opts: FakeWorkshopOptions) {
    this.buildId = opts.buildId ?? "build-1";
    for (const m of opts.mods) this.mods.set(m.id, m);
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  start(): this {
    this.server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => this.handle(req),
    });
    return this;
  }

  stop(): void {
    this.server?.stop(true);
  }

  /** Call after mutating `mods` so listings are re-sorted. */
  changed(): void {
    this.sortedCache.clear();
  }

  /** Adds or replaces a mod. */
  upsert(mod: FakeMod): void {
    this.mods.set(mod.id, mod);
    this.changed();
  }

  /** Publishes a new version of a mod (now the current one). */
  publishVersion(id: string, v: Partial<FakeVersion> & { version: string; createdAt: string }): void {
    const m = this.mods.get(id);
    if (!m) throw new Error(`fake workshop: no mod ${id}`);
    const prev = m.versions[m.versions.length - 1]!;
    m.versions.push({ ...prev, changelog: `Changes in ${v.version}`, scenarios: prev.scenarios, ...v });
    m.updatedAt = v.createdAt;
    this.changed();
  }

  remove(id: string): void {
    this.mods.delete(id);
    this.changed();
  }

  rotateBuildId(): string {
    const n = Number(this.buildId.split("-")[1] ?? "1");
    this.buildId = `build-${n + 1}`;
    return this.buildId;
  }

  /** The site is "redeployed" after `n` more data-route requests (a buildId change mid-crawl). */
  rotateBuildIdAfter(n: number): void {
    this.rotateAt = this.dataRequests + n;
  }

  /** The next `count` requests answer `status` (with Retry-After when given). */
  failNext(count: number, failure: FakeFailure): void {
    for (let i = 0; i < count; i++) this.failures.push(failure);
  }

  /** Requests for data routes only, for assertions. */
  dataRequestsTo(kind: "listing" | "detail" | "scenarios"): FakeRequest[] {
    return this.requests.filter((r) => {
      if (!r.path.startsWith("/_next/data/")) return false;
      if (kind === "listing") return r.path.endsWith("/workshop.json");
      if (kind === "detail") return r.path.endsWith("-asset.json");
      return r.path.endsWith("/scenarios.json");
    });
  }

  private log(url: URL, status: number): void {
    this.requests.push({ path: url.pathname, query: Object.fromEntries(url.searchParams), status });
  }

  /** Holds the answer to listing page `page` until the returned function is called. */
  holdListingPage(page: number): () => void {
    let release!: () => void;
    this.heldPages.set(page, new Promise<void>((r) => (release = r)));
    return () => {
      this.heldPages.delete(page);
      release();
    };
  }

  private handle(req: Request): Response | Promise<Response> {
    const url = new URL(req.url);
    const held = url.pathname.endsWith("/workshop.json") ? this.heldPages.get(Math.max(1, Number(url.searchParams.get("page") ?? "1") || 1)) : undefined;
    if (held) return held.then(() => this.handle(req));
    this.userAgents.push(req.headers.get("user-agent") ?? "");
    if (this.forbidden) {
      this.log(url, 403);
      return new Response("<html><body>403 Forbidden</body></html>", { status: 403, headers: { "content-type": "text/html" } });
    }
    if (this.redirectNext !== null) {
      const location = `${this.redirectNext}${url.pathname}${url.search}`;
      this.redirectNext = null;
      this.log(url, 302);
      return new Response(null, { status: 302, headers: { location } });
    }
    const failure = this.failures.shift();
    if (failure) {
      this.log(url, failure.status);
      const headers: Record<string, string> = { "content-type": "text/html" };
      if (failure.retryAfter !== undefined) headers["retry-after"] = failure.retryAfter;
      return new Response(failure.status === 429 ? "Too Many Requests" : "Server Error", { status: failure.status, headers });
    }
    const res = this.route(url);
    this.log(url, res.status);
    return res;
  }

  private route(url: URL): Response {
    const p = url.pathname;
    if (p === "/workshop" || p.startsWith("/workshop/")) return this.html(p);
    const m = /^\/_next\/data\/([^/]+)\/(.+)$/.exec(p);
    if (!m) return notFound();
    const [, build, rest] = m;
    this.dataRequests++;
    if (this.rotateAt !== null && this.dataRequests > this.rotateAt) {
      this.rotateAt = null;
      this.rotateBuildId();
    }
    if (decodeURIComponent(build!) !== this.buildId) return notFound();
    if (rest === "workshop.json") return this.listing(url);
    let d = /^workshop\/([0-9A-Fa-f]{16})-asset\.json$/.exec(rest!);
    if (d) return this.detail(d[1]!.toUpperCase());
    d = /^workshop\/([0-9A-Fa-f]{16})\/scenarios\.json$/.exec(rest!);
    if (d) return this.scenarios(d[1]!.toUpperCase());
    return notFound();
  }

  private html(path: string): Response {
    const nextData = { props: { pageProps: {} }, page: path, query: {}, buildId: this.buildId, isFallback: false };
    const body = `<!DOCTYPE html><html><head><title>Workshop</title></head><body><div id="__next"></div>` +
      `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify(nextData)}</script></body></html>`;
    return new Response(body, { headers: { "content-type": "text/html; charset=utf-8" } });
  }

  private sorted(sort: ListingSort): FakeMod[] {
    let list = this.sortedCache.get(sort);
    if (!list) {
      list = [...this.mods.values()].filter((m) => !m.private && !m.blocked && !m.unlisted);
      const byId = (a: FakeMod, b: FakeMod) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
      const cmp: Record<ListingSort, (a: FakeMod, b: FakeMod) => number> = {
        // "newest" orders by creation, not by update (as the real sort may): an old mod
        // with a fresh version stays deep in the listing.
        newest: (a, b) => (b.createdAt < a.createdAt ? -1 : b.createdAt > a.createdAt ? 1 : byId(a, b)),
        popularity: (a, b) => b.downloadTotal - a.downloadTotal || byId(a, b),
        subscribers: (a, b) => b.subscriberCount - a.subscriberCount || byId(a, b),
        version_size: (a, b) => current(b).totalFileSize - current(a).totalFileSize || byId(a, b),
      };
      list.sort(cmp[sort]);
      this.sortedCache.set(sort, list);
    }
    return list;
  }

  private listing(url: URL): Response {
    const page = Math.max(1, Number(url.searchParams.get("page") ?? "1") || 1);
    const sortParam = (url.searchParams.get("sort") ?? "newest") as ListingSort;
    const sort: ListingSort = ["newest", "popularity", "subscribers", "version_size"].includes(sortParam) ? sortParam : "newest";
    let list = this.sorted(sort);
    const search = (url.searchParams.get("search") ?? "").toLowerCase();
    if (search) list = list.filter((m) => m.name.toLowerCase().includes(search));
    const tags = url.searchParams.getAll("tags");
    if (tags.length) list = list.filter((m) => tags.every((t) => m.tags.some((x) => x.name === t)));
    const rows = list.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((m) => {
      const r = row(m);
      return this.malformedRows.has(m.id) ? { ...r, currentVersionNumber: 42 } : r;
    });
    if (this.malformedPages.has(page)) {
      return json({ pageProps: { assets: { count: list.length, rows: { broken: true } } } });
    }
    return json({ pageProps: { assets: { count: list.length, rows } } });
  }

  private detail(id: string): Response {
    const m = this.mods.get(id);
    if (!m) return notFound();
    const cur = current(m);
    const likes = Math.round(m.ratingCount * m.averageRating);
    const asset: Record<string, unknown> = {
      ...row(m),
      description: m.description,
      license: m.license,
      licenseText: null,
      screenshots: m.screenshots.map(image),
      gameVersion: cur.gameVersion,
      obsolete: m.obsolete,
      ratings: { likes, dislikes: m.ratingCount - likes, rating: m.averageRating },
      // The site lists versions newest first, at most VERSIONS_SHOWN of them.
      versions: [...m.versions]
        .reverse()
        .slice(0, VERSIONS_SHOWN)
        .map((v, i) => ({
          version: v.version,
          approved: true,
          published: true,
          milestone: i === 0,
          gameVersion: v.gameVersion,
          totalFileSize: v.totalFileSize,
          createdAt: v.createdAt,
          updatedAt: v.createdAt,
          assetId: m.id,
          scenariosCount: v.scenarios.length,
          dependenciesCount: v.dependencies.length,
        })),
      // Real consumers read the tree here (gruppe-adler/arsa-backend, soda3x/ArmaReforgerServerTool).
      dependencies: this.depTree(cur.dependencies, new Set([m.id])),
    };
    if (this.malformedDetails.has(id)) asset.currentVersionNumber = 42;
    return json({
      pageProps: {
        pathId: m.id,
        asset,
        assetVersionDetail: this.depsOnlyOnAsset.has(id) ? { ...this.versionDetail(m, cur), dependencies: [] } : this.versionDetail(m, cur),
        getAssetDownloadTotal: { total: m.downloadTotal },
      },
    });
  }

  private scenarios(id: string): Response {
    const m = this.mods.get(id);
    if (!m) return notFound();
    return json({ pageProps: { assetVersionDetail: this.versionDetail(m, current(m)) } });
  }

  private versionDetail(m: FakeMod, v: FakeVersion) {
    return {
      changelog: v.changelog,
      scenarios: v.scenarios.map((s) => ({ ...s, image: null })),
      dependencies: this.depTree(v.dependencies, new Set([m.id])),
    };
  }

  /** The recursive dependency tree the site embeds; a cycle is cut at the repeated node. */
  private depTree(deps: { id: string; version: string }[], path: Set<string>): unknown[] {
    return deps.map((d) => {
      const dm = this.mods.get(d.id);
      const dv = dm?.versions.find((v) => v.version === d.version) ?? (dm ? current(dm) : undefined);
      const inner = dm && !path.has(d.id) ? this.depTree(dv!.dependencies, new Set([...path, d.id])) : [];
      return {
        version: d.version,
        totalFileSize: dv?.totalFileSize ?? 0,
        asset: { id: d.id, name: dm?.name ?? "Unknown" },
        dependencies: inner,
      };
    });
  }
}

function current(m: FakeMod): FakeVersion {
  return m.versions[m.versions.length - 1]!;
}

function row(m: FakeMod) {
  const cur = current(m);
  return {
    id: m.id,
    name: m.name,
    type: "addon",
    summary: m.summary,
    author: { ...m.author, roles: null, personalBlocked: false },
    unlisted: m.unlisted,
    private: m.private,
    blocked: m.blocked,
    averageRating: m.averageRating,
    ratingCount: m.ratingCount,
    subscriberCount: m.subscriberCount,
    currentVersionNumber: cur.version,
    currentVersionSize: cur.totalFileSize,
    previews: m.previews.map(image),
    tags: m.tags,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}

/** An image as the site sends it: thumbnails keyed by MIME type, each with its contentType. */
function image(p: { url: string; width: number; height: number }) {
  const thumb = (w: number) => ({ url: p.url.replace(/(\.\w+)?$/, `-${w}$1`), width: w, height: Math.round((p.height * w) / p.width), contentType: "image/jpeg" });
  return { ...p, contentType: "image/jpeg", thumbnails: { "image/jpeg": [thumb(576), thumb(288)] } };
}

function json(body: unknown): Response {
  return new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
}

function notFound(): Response {
  return new Response(JSON.stringify({ notFound: true }), { status: 404, headers: { "content-type": "application/json" } });
}

export function startFakeWorkshop(opts: FakeWorkshopOptions): FakeWorkshop {
  return new FakeWorkshop(opts).start();
}
