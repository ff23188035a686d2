// The live feature's queries: every SQL statement of the feature is in this folder. Everything on
// the scan path and the read endpoints is a prepared bun:sqlite statement (cached per connection)
// and set-based: batches go in as JSON arrays through json_each, never one query per server or per
// mod. By concern:
// - state.ts: live_state (counters, watermarks) and the scan's writes without per-row triggers;
// - servers.ts: game_servers and the points a scan records; one server's reads;
// - mod-lists.ts: the servers' mod lists and the changelog;
// - usage.ts: live_mod_usage and live_mod_names;
// - catalog-lookup.ts: the catalog's rows a scan meets (a read model);
// - snapshot.ts, detail.ts, series.ts, rollup.ts, metrics.ts: what those read and write.
import { modListsRepo } from "./mod-lists";
import { serversRepo } from "./servers";
import { getState, setState } from "./state";
import { usageRepo } from "./usage";

export { stmt } from "../../../db/statements";
export { DAY, HOUR, RAW_WINDOW, THREE_HOURS } from "../windows";
export * from "./state";
export * from "./servers";
export * from "./mod-lists";
export * from "./usage";
export * from "./catalog-lookup";

/** The scan's and the roll-up's writes and reads, in one object (the scan, the tests and the bench use it). */
export const liveRepo = { ...serversRepo, ...modListsRepo, ...usageRepo, getState, setState };
