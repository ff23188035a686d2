// What every change of a list's mods obeys, whichever file makes it (mods.ts, import.ts,
// audit.ts): the 1000-mod limit, the age rule, one transaction, and a detail scrape for a mod
// the catalog does not know.
import type { Deps } from "../../deps";
import type { Tx } from "../../db/client";
import { AppError } from "../../shared/errors";
import { queueDetailScrape } from "../scraper";
import type * as repo from "./repository";

export const MAX_MODS = 1000;
export const LIMIT_MESSAGE = `maximum number of mods (${MAX_MODS}) reached`;
export const AGE_MESSAGE = "Mod age exceeds list limits";
const DAY_MS = 86_400_000;

/** 409: the change would take the list over MAX_MODS. */
export const listFull = () => new AppError("list_full", LIMIT_MESSAGE);

/**
 * Runs `fn` in an immediate write transaction, or inside the caller's when one is open on the
 * connection (so other features may call addModsToList / applyImport from their own
 * transaction: everything then commits or rolls back together).
 */
export function inTransaction<T>(deps: Pick<Deps, "db" | "sqlite">, fn: (t: Tx) => T): T {
  if (deps.sqlite.inTransaction) return fn(deps.db);
  return deps.db.transaction((t) => fn(t), { behavior: "immediate" });
}

/** Queues a detail scrape of a mod in the caller's transaction (deduplicated per mod). */
export const queueScrape = (deps: Pick<Deps, "jobs">, t: Tx, workshopId: string, userId: string | null) =>
  queueDetailScrape(deps, workshopId, { db: t, createdBy: userId });

/**
 * The age rule: a mod the catalog knows whose latest version is older than the list's
 * `max_mod_age_days` allows. Mods the catalog lacks, or without a known time, are never too old.
 */
export function isTooOld(maxModAgeDays: number | null, inCatalog: number | boolean, latestAt: number | null, now: number): boolean {
  return maxModAgeDays != null && !!inCatalog && latestAt != null && latestAt < now - maxModAgeDays * DAY_MS;
}

/** 422 when a mod's latest version is older than the list allows. */
export function checkAge(list: { max_mod_age_days: number | null }, rows: readonly repo.CatalogRow[], now: number) {
  if (list.max_mod_age_days == null) return;
  for (const r of rows) if (isTooOld(list.max_mod_age_days, r.in_catalog, r.latest_at, now)) throw new AppError("mod_too_old", AGE_MESSAGE);
}

export function parseJson<T>(s: string | null): T | null {
  return s == null ? null : (JSON.parse(s) as T);
}
