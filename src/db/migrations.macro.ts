// Bun macro: runs at build time (`bun build --compile`) and inlines every migration of
// drizzle/ into the binary, in the same shape and with the same hashes as drizzle's own
// readMigrationFiles, so the compiled binary needs no migrations folder next to it.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface EmbeddedMigration {
  sql: string[];
  bps: boolean;
  folderMillis: number;
  hash: string;
}

export function readMigrations(folder: string): EmbeddedMigration[] {
  const journal = JSON.parse(readFileSync(join(folder, "meta/_journal.json"), "utf8")) as {
    entries: { tag: string; when: number; breakpoints: boolean }[];
  };
  return journal.entries.map((entry) => {
    const query = readFileSync(join(folder, `${entry.tag}.sql`), "utf8");
    return {
      sql: query.split("--> statement-breakpoint"),
      bps: entry.breakpoints,
      folderMillis: entry.when,
      hash: createHash("sha256").update(query).digest("hex"),
    };
  });
}

export function embeddedMigrations(): EmbeddedMigration[] {
  return readMigrations(join(import.meta.dir, "../../drizzle"));
}
