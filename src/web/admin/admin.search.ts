// The admin page's search params: which tab, and the jobs' status and kind filters.
import * as z from "zod/mini";
import { oneOf, text } from "../app/search";

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
/** `type`: a job type ("scrape.full"), the jobs' kind filter. */
export const adminSearch = z.object({ tab: oneOf(["users", "jobs"]), status: oneOf(JOB_STATUSES), type: text() });
export type AdminSearch = z.infer<typeof adminSearch>;
