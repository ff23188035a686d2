// The crawl's worker process (src/jobs/worker-process.ts; docs/architecture.md "The crawl's
// process"): which job types it runs, the command that starts it, and the settings it starts with.
import type { Database } from "bun:sqlite";
import { join } from "node:path";
import { isCompiled } from "../../shared/compiled";
import type { WorkerProcessSpec } from "../../jobs/worker-process";
import { JOB_SCRAPE_DETAIL, JOB_SCRAPE_DETAIL_BATCH, JOB_SCRAPE_FULL, JOB_SCRAPE_INCREMENTAL } from "./jobs";
import { checkpointAndClose } from "./repository";

/**
 * The crawl's job types: discovery, the detail batches it queues and single detail scrapes (a
 * list's unknown mod, a dependency), so the workshop's one polite request rate stays in one
 * process. Not the items scan (it reads data.pak files over the servers' SFTP credentials and runs
 * in a server's lane after its deploy, both the service's business, and is rare) nor the growth
 * roll-up (one SQL statement every 3 hours: a process start would cost more than it saves).
 */
export const CRAWL_JOB_TYPES = [JOB_SCRAPE_FULL, JOB_SCRAPE_INCREMENTAL, JOB_SCRAPE_DETAIL_BATCH, JOB_SCRAPE_DETAIL] as const;

/** The hidden sub-command of `loadout` that runs them (src/main.ts). */
export const CRAWL_WORKER_COMMAND = "crawl-worker";

/** The crawl process's WAL checkpoint threshold, pages (CRAWL_PROCESS_ENV). */
export const CRAWL_WAL_AUTOCHECKPOINT_PAGES = 20_000;

/**
 * What the crawl's process starts with: memory traded for CPU, since all of it goes when the
 * process exits (docs/performance.md "The crawl's CPU"). `MIMALLOC_PURGE_HOLES=0`: the allocator
 * keeps the free blocks inside pages in use instead of giving them to the kernel every 100 ms
 * and faulting them in again (~−15–20 % of a crawl's CPU; for the whole service it held 532 MiB
 * after the full benchmark instead of ~280). `MIMALLOC_PURGE_DELAY=-1`: whole free pages
 * are kept too (another ~−10 % of the child's CPU at 16,000 mods, its peak RSS +0–10 MiB; for the
 * whole service it would never give memory back). `LOADOUT_SQLITE_MMAP_MB=1024`: the
 * database file read through a memory map instead of `pread` into the 16 MiB page cache (the
 * crawl's inserts walk B-tree pages the small cache has evicted; full crawls 24.4 / 26.3 / 25.4 /
 * 22.9 / 25.4 s against 30.7 / 33.2 / 25.9 / 24.9 / 23.7 alternated, quiet); its mapped pages are the OS page cache's and go with the process. An I/O error
 * under a map is a SIGBUS, which kills only the child: its jobs are queued again.
 * `LOADOUT_SQLITE_WAL_AUTOCHECKPOINT`: the WAL is checkpointed once it holds that many pages
 * instead of SQLite's 1000. A listing batch's commit writes ~1,700 pages (every mod dirties a
 * leaf of each of ~11 B-trees keyed by workshop id), so at 1000 every commit was followed by a
 * checkpoint copying the same pages into the database file again; with a larger WAL a page that
 * many batches rewrite (an index's hot leaves and inner pages) is copied once per checkpoint
 * (docs/performance.md "The crawl's CPU"). The WAL file grows to that size (4 KiB pages: ~80 MB) while a crawl runs; the
 * child checkpoints what is left when it exits (closeCrawlDatabase).
 */
export const CRAWL_PROCESS_ENV: Record<string, string> = {
  MIMALLOC_PURGE_HOLES: "0",
  MIMALLOC_PURGE_DELAY: "-1",
  LOADOUT_SQLITE_MMAP_MB: "1024",
  LOADOUT_SQLITE_WAL_AUTOCHECKPOINT: String(CRAWL_WAL_AUTOCHECKPOINT_PAGES),
};

/**
 * The crawl process's connection closed: the WAL its larger checkpoint threshold left behind
 * (up to CRAWL_WAL_AUTOCHECKPOINT_PAGES pages) is checkpointed first (PASSIVE: it waits for no
 * reader), so that copy is the child's work and not a stall of the service's next commit.
 */
export function closeCrawlDatabase(sqlite: Database): void {
  checkpointAndClose(sqlite);
}

/** The same executable: the compiled binary itself, or Bun with this checkout's src/main.ts. */
export function crawlWorkerCmd(): string[] {
  return isCompiled() ? [process.execPath, CRAWL_WORKER_COMMAND] : [process.execPath, join(import.meta.dir, "../../main.ts"), CRAWL_WORKER_COMMAND];
}

export const crawlWorkerSpec = (): WorkerProcessSpec => ({ name: "crawl", types: CRAWL_JOB_TYPES, cmd: crawlWorkerCmd(), env: CRAWL_PROCESS_ENV });
