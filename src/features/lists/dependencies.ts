// The dependency report of a list: each item's dependency tree and the dependencies the list
// lacks. Pure: the caller loads the items and the edges (repository.dependencyEdges).
import type { DepEdge } from "./repository";

export interface DepNode {
  workshop_id: string;
  name: string;
  dependencies: DepNode[];
}

/**
 * Builds the dependency tree of every item (cycles cut at the first repeat on a path) and the
 * transitive dependencies that are not in the list. Subtrees without a cut are shared, so a
 * dependency used by many mods is built once.
 */
export function dependencyReport(items: readonly { workshop_id: string; name: string }[], edges: readonly DepEdge[]) {
  const children = new Map<string, string[]>();
  const names = new Map<string, string>();
  for (const e of edges) {
    let c = children.get(e.workshop_id);
    if (!c) children.set(e.workshop_id, (c = []));
    c.push(e.depends_on_id);
    names.set(e.depends_on_id, e.name);
  }
  for (const it of items) names.set(it.workshop_id, it.name);

  const memo = new Map<string, DepNode>();
  const onPath = new Set<string>();
  let cut = false;
  const build = (id: string): DepNode => {
    const m = memo.get(id);
    if (m) return m;
    const node: DepNode = { workshop_id: id, name: names.get(id) ?? id, dependencies: [] };
    const kids = children.get(id);
    if (!kids) {
      memo.set(id, node);
      return node;
    }
    onPath.add(id);
    const cutBefore = cut;
    cut = false;
    for (const k of kids) {
      if (onPath.has(k)) {
        cut = true;
        node.dependencies.push({ workshop_id: k, name: names.get(k) ?? k, dependencies: [] });
      } else node.dependencies.push(build(k));
    }
    onPath.delete(id);
    if (!cut) memo.set(id, node);
    cut = cut || cutBefore;
    return node;
  };
  const tree = items.map((it) => {
    cut = false;
    return build(it.workshop_id);
  });

  const inList = new Set(items.map((i) => i.workshop_id));
  const missing = new Map<string, { workshop_id: string; name: string; required_by: string[] }>();
  for (const e of edges) {
    if (inList.has(e.depends_on_id)) continue;
    let m = missing.get(e.depends_on_id);
    if (!m) missing.set(e.depends_on_id, (m = { workshop_id: e.depends_on_id, name: e.name, required_by: [] }));
    if (!m.required_by.includes(e.workshop_id)) m.required_by.push(e.workshop_id);
  }
  return { tree, missing: [...missing.values()] };
}
