// The list queries: every cache key of a list and its parts, and what a change invalidates, in
// one place (TanStack Query's `queryOptions`: the key and its fetch travel together, so two pages
// reading the same endpoint share one cache entry). Pages call `useQuery(listQueries.x(...))`.
import { queryOptions, useQueryClient, type QueryClient } from "@tanstack/react-query";
import {
  audit,
  blocks,
  checkList,
  coOwners,
  collaborators,
  exportText,
  formFields,
  listDetail,
  listGroups,
  liveSnapshot,
  myLists,
  pinnedLists,
  searchPublicLists,
  searchPublicListsOf,
  snapshots,
  suggestionsOf,
  templateLinks,
  templates,
} from "./lists.services";

export const listQueries = {
  // ---- collections: everything under ["lists"] (a created, deleted or pinned list refreshes them all)
  mine: () => queryOptions({ queryKey: ["lists", "mine"], queryFn: ({ signal }) => myLists(signal) }),
  pins: () => queryOptions({ queryKey: ["lists", "pins"], queryFn: ({ signal }) => pinnedLists(signal) }),
  public: (search: string) => queryOptions({ queryKey: ["lists", "public", search], queryFn: ({ signal }) => searchPublicLists(search, signal) }),
  publicOf: (communityId: string) => queryOptions({ queryKey: ["lists", "public", "community", communityId], queryFn: ({ signal }) => searchPublicListsOf(communityId, signal) }),

  // ---- one list
  detail: (id: string, share?: string) => queryOptions({ queryKey: ["list", id, share], queryFn: ({ signal }) => listDetail(id, share, signal) }),
  check: (id: string, share?: string) => queryOptions({ queryKey: ["list-check", id, share], queryFn: ({ signal }) => checkList(id, share, signal) }),
  audit: (id: string) => queryOptions({ queryKey: ["list-audit", id], queryFn: ({ signal }) => audit(id, signal) }),
  /** Keyed by the list's `updated_at`, so a change to the list fetches the text anew. */
  export: (id: string, kind: "fragment" | "game", type: "fixed" | "latest", updatedAt: string, share?: string) =>
    queryOptions({ queryKey: ["list-export", id, kind, type, updatedAt, share], queryFn: () => exportText(id, kind, type, share) }),
  snapshots: (id: string) => queryOptions({ queryKey: ["list-snapshots", id], queryFn: ({ signal }) => snapshots(id, undefined, signal) }),
  /** The list as it is now, in the snapshot shape (to compare with a snapshot). */
  live: (id: string, updatedAt: string) => queryOptions({ queryKey: ["list-live", id, updatedAt], queryFn: ({ signal }) => liveSnapshot(id, undefined, signal) }),
  suggestions: (id: string) => queryOptions({ queryKey: ["list-suggestions", id], queryFn: ({ signal }) => suggestionsOf(id, signal) }),
  /** The suggestion form's questions; `token` is the suggestion link's (players without access). */
  formFields: (id: string, token?: string) => queryOptions({ queryKey: ["form-fields", id, token], queryFn: ({ signal }) => formFields(id, token, signal) }),
  templates: () => queryOptions({ queryKey: ["templates"], queryFn: ({ signal }) => templates(signal) }),
  templateLinks: (id: string) => queryOptions({ queryKey: ["template-links", id], queryFn: ({ signal }) => templateLinks(id, signal) }),
  collaborators: (id: string) => queryOptions({ queryKey: ["list-collaborators", id], queryFn: ({ signal }) => collaborators(id, signal) }),
  owners: (id: string) => queryOptions({ queryKey: ["list-owners", id], queryFn: ({ signal }) => coOwners(id, signal) }),
  blocks: (id: string) => queryOptions({ queryKey: ["list-blocks", id], queryFn: ({ signal }) => blocks(id, signal) }),
  groups: (id: string) => queryOptions({ queryKey: ["list-groups", id], queryFn: ({ signal }) => listGroups(id, signal) }),
};

/** What a change invalidates. */
export const invalidateList = {
  /** The list's mods changed (added, removed, pinned, imported, undone): its detail, check and history. */
  contents: (qc: QueryClient, id: string) => {
    void qc.invalidateQueries({ queryKey: ["list", id] });
    void qc.invalidateQueries({ queryKey: ["list-check", id] });
    void qc.invalidateQueries({ queryKey: ["list-audit", id] });
  },
  /** Every collection of lists (mine, pins, public): a list was created, renamed, deleted or pinned. */
  collections: (qc: QueryClient) => qc.invalidateQueries({ queryKey: ["lists"] }),
  /** One part of a list, by the same key its query uses (e.g. `invalidateList.part(qc, listQueries.blocks(id))`). */
  part: (qc: QueryClient, q: { queryKey: readonly unknown[] }) => qc.invalidateQueries({ queryKey: q.queryKey }),
};

/** `invalidateList.contents` for one list, as a callback for `onSuccess`. */
export function useListRefresh(id: string): () => void {
  const qc = useQueryClient();
  return () => invalidateList.contents(qc, id);
}
