-- The job claim by type (issue 29, the crawl's CPU): the queued jobs of each type in claim order.
-- The worker claims the earliest due job among the types that have a free slot; with the claim
-- index (status, run_at) alone, a claim for scrape.detail while ~2,600 scrape.detail_batch jobs
-- waited ahead of it (their type at its concurrency) read every one of them, ~0.35 ms a claim,
-- ~12 % of a crawl's CPU. With this index a claim is one probe per type (src/features/jobs/queue.ts).
CREATE INDEX IF NOT EXISTS jobs_queued_type_idx ON jobs(type, run_at, id) WHERE status = 'queued';
