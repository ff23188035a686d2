#!/usr/bin/env bash
# `npm run db:generate [-- <name>]`: the next migration(s), incrementally, so existing databases
# migrate forward (the first release's baseline is drizzle/0000_init + 0001_custom_sql).
#  1. drizzle-kit diffs src/db/schema.ts against drizzle/meta and writes a migration for the
#     difference (or nothing when the schema did not change).
#  2. Each src/db/custom/*.sql (FTS5 tables, triggers, WITHOUT ROWID tables: what drizzle-kit
#     cannot express) not yet in a migration becomes a custom migration of its own. A custom file
#     is applied once: to change what one did, add a new file (test/migrations.test.ts checks that
#     applied files were not edited). Statements inside a file are separated by
#     `--> statement-breakpoint` lines (drizzle runs each chunk as one statement).
set -euo pipefail
cd "$(dirname "$0")/.."
exec 9>.regen-migrations.lock
flock 9
BIN=node_modules/.bin
name="${1:-schema}"
"$BIN/drizzle-kit" generate --name "$name"
for s in src/db/custom/*.sql; do
  [ -e "$s" ] || continue
  if grep -qF -- "-- from $s" drizzle/*.sql; then continue; fi
  "$BIN/drizzle-kit" generate --custom --name "$(basename "$s" .sql)" >/dev/null
  f=$(ls -t drizzle/*.sql | head -1)
  echo "-- from $s" >> "$f"
  sed -e '${/^[[:space:]]*$/d}' "$s" >> "$f"
  echo "custom migration $f from $s"
done
