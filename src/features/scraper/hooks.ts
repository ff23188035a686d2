// Hook points of the scraper for features above it. Called synchronously inside the detail job's
// write transaction, so anything recorded here (e.g. an outbox event) commits with the mod.
// The registry (src/features/index.ts) hands them in: the scraper sits below lists and events
// (lists queue detail scrapes), so it may not import what listens.
import type { Tx } from "../../db/client";
import type { Deps } from "../../deps";

export interface ScraperHooks {
  /**
   * A scraped mod's latest version changed from `oldVersion` to `newVersion`.
   * Called only for a mod that was already in the catalog with a version (not for a first
   * scrape), inside the transaction that stores the new version. Must not do network I/O or await.
   * The events feature records `mod_updated` for every list that contains the mod.
   */
  onModVersionChanged: (tx: Tx, workshopId: string, oldVersion: string, newVersion: string) => void;
  /** What a new install queues beside its first crawl (the live feature's first scan); returns the job id. */
  onFirstRun?: (deps: Deps) => string;
}
