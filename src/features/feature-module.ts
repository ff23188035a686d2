// What a feature contributes to the app: routes, job handlers, schedules, sealed columns and its
// own background work (started and stopped with the service). Its own file, so a feature's
// index.ts can describe itself without importing the registry (features/index.ts) that imports it.
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
  /**
   * Starts the feature's background work when `serve` starts (before the server listens and the
   * job worker starts, in registry order: work may be handed off or an account made first) and returns how to stop it; `serve` stops
   * features in the reverse order on shutdown, after the server stopped accepting and before the
   * job worker stops. Tests start what they need themselves.
   */
  start?: (deps: Deps, ctx: StartContext) => Running | void | Promise<Running | void>;
}

export interface StartContext {
  /** LOADOUT_SCHEDULES=on: periodic and first-run work may be queued. */
  schedules: boolean;
}

/** A started feature's work. */
export interface Running {
  stop(): void | Promise<void>;
}
