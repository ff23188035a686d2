import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";

/** The one durable job table (docs/architecture.md "Jobs"). */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    payload: text("payload").notNull().default("{}"),
    status: text("status", { enum: ["queued", "running", "succeeded", "failed", "cancelled"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    max_attempts: integer("max_attempts").notNull().default(3),
    run_at: integer("run_at").notNull(),
    started_at: integer("started_at"),
    finished_at: integer("finished_at"),
    lease_until: integer("lease_until"),
    error: text("error"),
    progress: text("progress"),
    result: text("result"),
    created_by: text("created_by"),
    created_at: integer("created_at").notNull(),
    /** While queued or running, a second enqueue with the same key returns this job. */
    dedupe_key: text("dedupe_key"),
    /** At most one running job per lane (e.g. one deployment per server). */
    lane: text("lane"),
  },
  (t) => [
    index("jobs_claim_idx").on(t.status, t.run_at),
    index("jobs_type_idx").on(t.type, t.created_at),
    index("jobs_created_idx").on(t.created_at),
    uniqueIndex("jobs_dedupe_idx")
      .on(t.dedupe_key)
      .where(sql`dedupe_key IS NOT NULL AND status IN ('queued', 'running')`),
    index("jobs_lane_idx").on(t.lane, t.status),
  ],
);
