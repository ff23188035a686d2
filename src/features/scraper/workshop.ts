// The workshop as the scraper's jobs reach it: one client per process (so every job shares the one
// polite request rate), the errors retrying will not mend, and the resource path lists.
import { join } from "node:path";
import type { Deps } from "../../deps";
import { PermanentJobError } from "../../jobs/queue";
import { VERSION } from "../../version";
import { WorkshopClient, WorkshopHttpError, WorkshopRedirectError, WorkshopShapeError } from "./workshop-client";
import { DirectoryPathSource, type ResourcePathSource } from "./items";

const clients = new WeakMap<Deps, WorkshopClient>();
/** One client per process (per Deps), so every job shares the one polite request rate. */
export function workshopClient(deps: Deps): WorkshopClient {
  let c = clients.get(deps);
  if (!c) {
    c = new WorkshopClient({
      baseUrl: deps.config.LOADOUT_WORKSHOP_URL,
      rps: deps.config.LOADOUT_WORKSHOP_RPS,
      userAgent: workshopUserAgent(deps),
      fetch: deps.fetch,
    });
    clients.set(deps, c);
  }
  return c;
}

/** `LOADOUT_WORKSHOP_USER_AGENT`, else `Loadout/<version> (+<LOADOUT_BASE_URL>)`. */
export const workshopUserAgent = (deps: Deps) => deps.config.LOADOUT_WORKSHOP_USER_AGENT ?? `Loadout/${VERSION} (+${deps.config.LOADOUT_BASE_URL})`;

/**
 * Errors that retrying will not mend fail the job at once with one clear line: a payload the
 * site changed, a redirect off the configured origin, or a 403 (the site or its CDN refuses
 * this client).
 */
export function permanentIfHopeless(deps: Deps, err: unknown): unknown {
  if (err instanceof WorkshopShapeError || err instanceof WorkshopRedirectError) return new PermanentJobError(err.message);
  if (err instanceof WorkshopHttpError && (err.status === 403 || err.status === 401)) {
    return new PermanentJobError(
      `the workshop refused the request with HTTP ${err.status} (User-Agent "${workshopUserAgent(deps)}"); its CDN may refuse this client: set LOADOUT_WORKSHOP_USER_AGENT, or check LOADOUT_WORKSHOP_URL`,
    );
  }
  return err;
}

/** Resource path lists of mod versions: `<data dir>/resource-paths/<ID>/<version>.txt` (docs/catalog.md). */
export function resourcePathSource(deps: Deps): ResourcePathSource {
  return new DirectoryPathSource(join(deps.config.LOADOUT_DATA_DIR, "resource-paths"));
}

