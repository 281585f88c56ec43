#!/bin/sh
# Regenerates the tables in docs/ from the tables the analyzer reads.
set -eu
build="${1:-build}"
for table in scenarios primitives; do
  doc="docs/$table.md"
  tmp="$doc.tmp"
  awk -v table="$table" -v generator="$build/bin/barrierpair-tables $table" '
    $0 == "<!-- begin " table " -->" { print; while ((generator | getline line) > 0) print line; skip = 1; next }
    $0 == "<!-- end " table " -->" { skip = 0 }
    !skip { print }
  ' "$doc" > "$tmp"
  mv "$tmp" "$doc"
done
