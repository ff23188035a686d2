// What the workshop's detail answer becomes before the repository writes it: the mod's row, its
// state, its links, dependencies, tags, screenshots, scenarios and versions (no SQL here).
import type { DependencyNode, WorkshopDetail } from "./workshop-schemas";

export type ModState = "active" | "unlisted" | "private" | "blocked" | "removed" | "unknown";

export interface NormalisedMod {
  workshop_id: string;
  name: string;
  summary: string;
  description: string;
  author_id: string | null;
  author_name: string;
  type: string;
  license: string | null;
  version: string;
  size_bytes: number;
  image_url: string | null;
  game_version: string | null;
  rating: number | null;
  rating_count: number;
  subscriber_count: number;
  downloads_total: number;
  state: ModState;
  obsolete: boolean;
  tags: string[];
  external_links: { label: string; url: string }[];
  created_at: number;
  updated_at: number;
  versions: {
    version: string;
    game_version: string | null;
    size_bytes: number;
    changelog: string | null;
    approved: boolean;
    published: boolean;
    scenarios_count: number;
    dependencies_count: number;
    created_at: number;
  }[];
  dependencies: { workshop_id: string; name: string; version: string; size_bytes: number }[];
  /** Every mod id of the recursive dependency tree (for queueing unknown ones). */
  dependency_tree_ids: string[];
  screenshots: { url: string; width: number | null; height: number | null }[];
  scenarios: {
    game_id: string;
    name: string;
    game_mode: string | null;
    player_count: number | null;
    description: string | null;
    image_url: string | null;
  }[];
}

export function stateOf(a: { private?: boolean | null; blocked?: boolean | null; unlisted?: boolean | null }): ModState {
  if (a.blocked) return "blocked";
  if (a.private) return "private";
  if (a.unlisted) return "unlisted";
  return "active";
}

const LINK_LABELS: [RegExp, string][] = [
  [/(^|\.)discord(app)?\.(gg|com)$/, "Discord"],
  [/(^|\.)github\.com$/, "GitHub"],
  [/(^|\.)gitlab\.com$/, "GitLab"],
  [/(^|\.)(youtube\.com|youtu\.be)$/, "YouTube"],
  [/(^|\.)patreon\.com$/, "Patreon"],
  [/(^|\.)ko-fi\.com$/, "Ko-fi"],
  [/(^|\.)paypal\.(com|me)$/, "PayPal"],
  [/(^|\.)reddit\.com$/, "Reddit"],
  [/(^|\.)(twitter\.com|x\.com)$/, "X"],
  [/(^|\.)twitch\.tv$/, "Twitch"],
  [/(^|\.)buymeacoffee\.com$/, "Buy Me a Coffee"],
];

/** Links found in a mod's description, labelled by site. */
export function extractExternalLinks(text: string | null | undefined): { label: string; url: string }[] {
  if (!text) return [];
  const out: { label: string; url: string }[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(/https?:\/\/[^\s<>"'`)\]}]+/g)) {
    const url = m[0].replace(/[.,;:!?]+$/, "");
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      continue;
    }
    if (seen.has(url)) continue;
    seen.add(url);
    const label = LINK_LABELS.find(([re]) => re.test(host))?.[1] ?? host.replace(/^www\./, "");
    out.push({ label, url });
    if (out.length >= 20) break;
  }
  return out;
}

function collectTreeIds(nodes: DependencyNode[] | null | undefined, into: Set<string>, depth = 0): void {
  if (!nodes || depth > 64) return;
  for (const n of nodes) {
    const id = n.asset.id.toUpperCase();
    if (into.has(id)) continue;
    into.add(id);
    collectTreeIds(n.dependencies, into, depth + 1);
  }
}

/** The workshop's detail page, flattened into what we store. */
export function normaliseDetail(d: WorkshopDetail): NormalisedMod {
  const a = d.asset;
  const id = a.id.toUpperCase();
  const current = a.versions.find((v) => v.version === a.currentVersionNumber);
  // The tree may be on the asset (what real consumers read) or on assetVersionDetail: read
  // both, as a union by id.
  const roots = [...(a.dependencies ?? []), ...(d.versionDetail.dependencies ?? [])];
  const deps = roots.map((n) => ({
    workshop_id: n.asset.id.toUpperCase(),
    name: n.asset.name,
    version: n.version,
    size_bytes: Math.max(0, Math.round(n.totalFileSize ?? 0)),
  }));
  const treeIds = new Set<string>();
  collectTreeIds(roots, treeIds);
  treeIds.delete(id);
  const tags = [...new Set((a.tags ?? []).map((t) => t.name.toUpperCase()))];
  return {
    workshop_id: id,
    name: a.name,
    summary: a.summary ?? "",
    description: a.description ?? "",
    author_id: a.author?.id ?? null,
    author_name: a.author?.username ?? "",
    type: a.type ?? "addon",
    license: a.license ?? null,
    version: a.currentVersionNumber,
    size_bytes: Math.max(0, Math.round(a.currentVersionSize ?? current?.totalFileSize ?? 0)),
    image_url: a.previews?.[0]?.url ?? null,
    game_version: a.gameVersion ?? current?.gameVersion ?? null,
    rating: a.averageRating ?? null,
    rating_count: a.ratingCount ?? 0,
    subscriber_count: a.subscriberCount ?? 0,
    downloads_total: d.downloadTotal,
    state: stateOf(a),
    obsolete: !!a.obsolete,
    tags,
    external_links: extractExternalLinks(a.description),
    created_at: Date.parse(a.createdAt),
    updated_at: Date.parse(a.updatedAt),
    versions: a.versions.map((v) => ({
      version: v.version,
      game_version: v.gameVersion ?? null,
      size_bytes: Math.max(0, Math.round(v.totalFileSize ?? 0)),
      changelog: v.version === a.currentVersionNumber ? (d.versionDetail.changelog ?? null) : null,
      approved: v.approved ?? true,
      published: v.published ?? true,
      scenarios_count: v.scenariosCount ?? 0,
      dependencies_count: v.dependenciesCount ?? 0,
      created_at: Date.parse(v.createdAt),
    })),
    dependencies: dedupeBy(deps, (x) => x.workshop_id).filter((x) => x.workshop_id !== id),
    dependency_tree_ids: [...treeIds],
    screenshots: (a.screenshots ?? []).map((s) => ({ url: s.url, width: s.width ?? null, height: s.height ?? null })),
    scenarios: dedupeBy(d.versionDetail.scenarios ?? [], (s) => s.gameId).map((s) => ({
      game_id: s.gameId,
      name: s.name,
      game_mode: s.gameMode ?? null,
      player_count: s.playerCount ?? null,
      description: s.description ?? null,
      image_url: imageUrl(s.image),
    })),
  };
}

function imageUrl(image: unknown): string | null {
  if (typeof image === "string") return image;
  if (image && typeof image === "object" && typeof (image as { url?: unknown }).url === "string") return (image as { url: string }).url;
  return null;
}

function dedupeBy<T>(xs: T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
