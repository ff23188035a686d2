// What a feature contributes to the app: routes, job handlers and schedules. Its own file, so a
// feature's index.ts can describe itself without importing the registry (features/index.ts)
// that imports it.
import type { AnyElysia } from "elysia";
import type { Deps } from "../deps";
import type { JobHandler } from "../jobs/queue";
import type { SealedColumn } from "../db/sealed";

export interface ScheduleSpec {
  name: string;
  cron: string;
  /** Only enqueues (croner never runs work itself). */
  enqueue: () => void;
}

export interface FeatureModule {
  name: string;
  routes?: (deps: Deps) => AnyElysia;
  jobs?: (deps: Deps) => Record<string, JobHandler>;
  schedules?: (deps: Deps) => ScheduleSpec[];
  /** Its columns sealed with the credential key (src/db/sealed.ts): rotated, checked by restore. */
  sealed?: SealedColumn[];
}
