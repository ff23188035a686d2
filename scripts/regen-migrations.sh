#!/usr/bin/env bash
# Regenerates drizzle/ from the current schema. Until the first release there is one
# generated migration (0000_init) plus one custom migration made of src/db/custom/*.sql
# (FTS5 tables, triggers: things drizzle-kit cannot express). After a release, switch to
# plain `drizzle-kit generate --name <what>` so existing databases migrate forward.
set -euo pipefail
cd "$(dirname "$0")/.."
exec 9>.regen-migrations.lock
flock 9
BIN=node_modules/.bin
rm -rf drizzle
"$BIN/drizzle-kit" generate --name init >/dev/null
if ls src/db/custom/*.sql >/dev/null 2>&1; then
  "$BIN/drizzle-kit" generate --custom --name custom_sql >/dev/null
  # Statements inside a custom file are separated by `--> statement-breakpoint` lines (drizzle
  # runs each chunk as one statement); files are joined the same way, with no empty chunk.
  f=$(ls drizzle/0001_*.sql)
  first=1
  for s in src/db/custom/*.sql; do
    if [ $first -eq 0 ]; then printf '\n--> statement-breakpoint\n' >> "$f"; fi
    first=0
    echo "-- from $s" >> "$f"
    sed -e '${/^[[:space:]]*$/d}' "$s" >> "$f"
  done
fi
ls drizzle
