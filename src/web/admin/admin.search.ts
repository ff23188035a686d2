// The admin page's search params: which tab, and the jobs' status filter.
import * as z from "zod/mini";
import { oneOf } from "../app/search";

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export const adminSearch = z.object({ tab: oneOf(["users", "jobs"]), status: oneOf(JOB_STATUSES) });
export type AdminSearch = z.infer<typeof adminSearch>;
