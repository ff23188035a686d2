import type { Database } from "bun:sqlite";
import type { Config } from "./config";
import type { DB } from "./db/client";
import type { JobQueue } from "./jobs/queue";
import type { Mailer } from "./shared/mailer";
import type { Logger } from "./shared/log";
import type { Clock } from "./shared/time";
import type { Secrets } from "./shared/secrets";
import type { SealedColumn } from "./db/sealed";
import type { CallerSource } from "./shared/auth";

/** What every feature is handed. Built once in server.ts (or test/helpers.ts). */
export interface Deps {
  config: Config;
  db: DB;
  sqlite: Database;
  jobs: JobQueue;
  mailer: Mailer;
  log: Logger;
  clock: Clock;
  secrets: Secrets;
  /** Every feature's columns sealed with `secrets.credentialKey` (the registry's `sealedColumns`). */
  sealed: readonly SealedColumn[];
  /** Outgoing HTTP (workshop, BattleMetrics, panel, Discord, webhooks). Tests may wrap it. */
  fetch: typeof fetch;
  /** Who a credential is (the users feature's tables, kept in memory): what the auth plugin asks. */
  callers: CallerSource;
}
