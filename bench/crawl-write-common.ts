// What the crawl's write-side benches share (bench/crawl-write.ts, bench/crawl-write-trials.ts):
// the benchmark catalog's mods fetched from the fake workshop and normalised as a detail scrape
// does, the bytes this process has written, and extra SQL run on a fresh database.
import type { Database } from "bun:sqlite";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { WorkshopClient } from "../src/features/scraper/workshop-client";
import { normaliseDetail, type NormalisedMod } from "../src/features/scraper/repository";
import { generateCatalog } from "../test/fixtures/workshop/dataset";
import { startFakeWorkshop } from "../test/fakes/workshop";

/**
 * `count` mods of the benchmark catalog (generateCatalog, as bench/crawl.ts serves them), each
 * fetched from the fake workshop in this process and normalised. With `cacheFile`: read from it
 * when it exists, else written there.
 */
export async function normalisedCatalog(count: number, cacheFile = ""): Promise<NormalisedMod[]> {
  if (cacheFile && existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, "utf8"));
  const mods = generateCatalog({ count });
  const fake = startFakeWorkshop({ mods });
  const client = new WorkshopClient({ baseUrl: fake.url, rps: 100_000, userAgent: "bench" });
  const normalised: NormalisedMod[] = [];
  for (const m of mods) normalised.push(normaliseDetail(await client.detail(m.id)));
  fake.stop();
  if (cacheFile) writeFileSync(cacheFile, JSON.stringify(normalised));
  return normalised;
}

/** Bytes this process handed to write()/pwrite() so far (/proc/self/io wchar): the pages SQLite wrote, load-independent. */
export const writtenBytes = () => Number(/wchar: (\d+)/.exec(readFileSync("/proc/self/io", "utf8"))![1]);

/** Runs a file's statements (split on drizzle's `--> statement-breakpoint`; a part of comments only is skipped). */
export function runSqlText(sqlite: Database, text: string): void {
  for (const s of text.split("--> statement-breakpoint")) if (s.replace(/^--.*$/gm, "").trim()) sqlite.run(s);
}
