// An online server's detail from memory (docs/live.md "The live list from memory", *Server detail*), by concern:
// answer.ts copies an answer together; parts.ts makes and keeps the catalog's side of it;
// store.ts is the read model; warm.ts prepares it ahead while the process is idle.
export { DETAIL_CACHE_BYTES, KEEP_FROM_BYTES, onlineDetailBytes } from "./answer";
export { CATALOG_BYTES, setCatalogPartsCap } from "./parts";
export { detailCacheStats } from "./store";
export { startDetailWarmer, warmDetails } from "./warm";
