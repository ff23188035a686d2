// The live snapshot (docs/live.md "The live list from memory"), by concern:
// - lifecycle.ts: the read model (build on a moved generation, publish, invalidate) and the scan's
//   snapshot with its mod usage;
// - build.ts: one read of the servers in the online window into an immutable snapshot;
// - mod-index.ts: every workshop id's servers, from the mod-list cache read per version;
// - orders.ts: the sort orders, sorted from the rows as SQLite orders them;
// - pages.ts: a GET /game-servers page from row bitsets, and the page bytes kept per snapshot;
// - word-search.ts: the search's word index;
// - usage.ts: mod usage and GET /mods/:id/servers;
// - types.ts: the snapshot's shape and its per-snapshot slots.
export * from "./lifecycle";
export { snapshotBuilds } from "./build";
export type { KnownLists } from "./mod-index";
export { sortOrders } from "./orders";
export { entriesOf, entryJson, listBitsBytes, LIST_BITS_CACHE_BYTES, onlineRow, onlineRowIndex, PAGE_CACHE_BYTES, querySnapshot, querySnapshotBytes, searchIndexBytes } from "./pages";
export { SEARCH_WORD_CACHE_BYTES } from "./word-search";
export { modServersJson, modUsageOf } from "./usage";
export type { LiveSnapshot, ServerModList, TopMod } from "./types";
