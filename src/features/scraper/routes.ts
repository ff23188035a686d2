// Scraper triggers: POST /api/v1/jobs/scraper (Admin) and POST /api/v1/jobs/scraper/detail
// (public, 10 an hour per IP). Both answer 202 {job_id}.
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../deps";
import { authPlugin } from "../../shared/auth";
import { clientIp } from "../../shared/http";
import { RateLimiter } from "../../shared/rate-limit";
import { errorBody, workshopId } from "../../shared/schemas";
import { queueDetailScrape } from "./queue";
import { queueDiscovery } from "./jobs";
import { queueItemsScan } from "./queue";

export const DETAIL_LIMIT_PER_HOUR = 10;

const jobAccepted = z.object({ job_id: z.string() });

/** POST /api/v1/jobs/items (Admin): read the items of the mods on the game servers now. */
export const itemsTriggerRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1/jobs/items", tags: ["jobs"] }).use(authPlugin(deps)).post(
    "/",
    ({ user, set }) => {
      const job_id = queueItemsScan(deps, { createdBy: user.id });
      set.status = 202;
      return { job_id };
    },
    {
      admin: true,
      response: { 202: jobAccepted, 401: errorBody, 403: errorBody },
      detail: {
        summary:
          "Read items from the mods' data.pak now (Admin): LOADOUT_ADDONS_DIR and every SFTP server with credentials; each (mod, version) once",
      },
    },
  );

export const scraperRoutes = (deps: Deps) => {
  const detailLimiter = new RateLimiter(DETAIL_LIMIT_PER_HOUR, 3_600_000, () => deps.clock.now());
  return new Elysia({ prefix: "/api/v1/jobs/scraper", tags: ["jobs"] })
    .use(authPlugin(deps))
    .post(
      "/",
      ({ body, user, set }) => {
        const job_id = queueDiscovery(deps, body?.mode ?? "incremental", user.id);
        // The same discovery waiting to be tried again after a failure runs now: an admin who
        // asks for a crawl (the empty catalog's "Retry now") does not wait out the back-off.
        deps.jobs.wakeUp(job_id);
        set.status = 202;
        return { job_id };
      },
      {
        admin: true,
        body: z
          .object({ mode: z.enum(["full", "incremental"], { message: "must be full or incremental" }).optional() })
          .optional(),
        response: { 202: jobAccepted, 400: errorBody, 401: errorBody, 403: errorBody },
        detail: { summary: "Run a workshop discovery now (Admin): full or incremental (default); one already queued (waiting to be tried again after a failure, too) runs now" },
      },
    )
    .post(
      "/detail",
      ({ body, request, server, set }) => {
        detailLimiter.consume(`ip:${clientIp(deps, request, server)}`, "rate limit exceeded");
        const job_id = queueDetailScrape(deps, body.workshop_id);
        set.status = 202;
        return { job_id };
      },
      {
        body: z.object({ workshop_id: workshopId }),
        response: { 202: jobAccepted, 400: errorBody, 429: errorBody },
        detail: { summary: "Scrape one mod now (public; 10 requests an hour per IP)" },
      },
    );
};
