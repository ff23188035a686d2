// The admin page's search params: which tab, and the jobs' status and kind filters.
import { oneOf, search, text, type SearchType } from "../app/search";

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
/** `type`: a job type ("scrape.full"), the jobs' kind filter. */
export const adminSearch = search({ tab: oneOf(["users", "jobs"]), status: oneOf(JOB_STATUSES), type: text() });
export type AdminSearch = SearchType<typeof adminSearch>;
