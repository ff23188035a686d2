import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../../deps";
import { authPlugin } from "../../shared/auth";
import { AppError } from "../../shared/errors";
import type { Job } from "../../jobs/queue";
import { toIsoOrNull, toIso } from "../../shared/time";
import { errorBody, okBody } from "../../shared/schemas";

export const jobView = z.object({
  id: z.string(),
  type: z.string(),
  payload: z.unknown(),
  status: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  run_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  error: z.string().nullable(),
  progress: z.unknown(),
  result: z.unknown(),
  created_by: z.string().nullable(),
  created_at: z.string(),
});

export const toJobView = (j: Job): z.infer<typeof jobView> => ({
  id: j.id,
  type: j.type,
  payload: j.payload,
  status: j.status,
  attempts: j.attempts,
  max_attempts: j.max_attempts,
  run_at: toIso(j.run_at),
  started_at: toIsoOrNull(j.started_at),
  finished_at: toIsoOrNull(j.finished_at),
  error: j.error,
  progress: j.progress,
  result: j.result,
  created_by: j.created_by,
  created_at: toIso(j.created_at),
});

const idParams = z.object({ id: z.string() });

/** Admin job endpoints (docs/architecture.md "Jobs"). Feature-specific triggers live with their features. */
export const jobsRoutes = (deps: Deps) =>
  new Elysia({ prefix: "/api/v1/jobs", tags: ["jobs"] })
    .use(authPlugin(deps))
    .get(
      "/",
      ({ query }) => ({ jobs: deps.jobs.list({ status: query.status, type: query.type, limit: query.limit }).map(toJobView) }),
      {
        admin: true,
        query: z.object({
          status: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]).optional(),
          type: z.string().optional(),
          limit: z.coerce.number().int().min(1, { message: "must be 1 to 500" }).max(500, { message: "must be 1 to 500" }).default(50),
        }),
        response: { 200: z.object({ jobs: z.array(jobView) }) },
        detail: { summary: "List jobs, newest first (Admin)" },
      },
    )
    .get(
      "/:id",
      ({ params }) => {
        const job = deps.jobs.get(params.id);
        if (!job) throw new AppError("job.not_found", "job not found");
        return toJobView(job);
      },
      { admin: true, params: idParams, response: { 200: jobView, 404: errorBody }, detail: { summary: "One job with its progress (Admin)" } },
    )
    .post(
      "/:id/retry",
      ({ params }) => {
        const job = deps.jobs.get(params.id);
        if (!job) throw new AppError("job.not_found", "job not found");
        if (!deps.jobs.retry(params.id)) throw new AppError("job.not_retryable", `job is ${job.status}; only failed or cancelled jobs can be retried`);
        return { ok: true };
      },
      { admin: true, params: idParams, response: { 200: okBody, 404: errorBody, 409: errorBody }, detail: { summary: "Retry a failed or cancelled job (Admin)" } },
    )
    .delete(
      "/:id",
      ({ params, set }) => {
        const job = deps.jobs.get(params.id);
        if (!job) throw new AppError("job.not_found", "job not found");
        if (!deps.jobs.cancel(params.id)) throw new AppError("job.not_cancellable", `job is ${job.status}; only queued jobs can be cancelled`);
        set.status = 204;
      },
      { admin: true, params: idParams, detail: { summary: "Cancel a queued job (Admin)" } },
    );
