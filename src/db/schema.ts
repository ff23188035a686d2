// Every feature's tables, in one schema object for drizzle and drizzle-kit.
// Add one export line per tables file (features, and the platform's job queue and outbox).
export * from "../features/users/tables";
export * from "../jobs/tables";
export * from "../outbox/tables";
export * from "../features/catalog/tables";
export * from "../features/scraper/tables";
export * from "../features/communities/tables";
export * from "../features/folders/tables";
export * from "../features/lists/tables";
export * from "../features/tags/tables";
export * from "../features/templates/tables";
export * from "../features/collaboration/tables";
export * from "../features/events/tables";
export * from "../features/live/tables";
export * from "../features/servers/tables";
export * from "../status/tables";
