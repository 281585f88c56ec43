#!/bin/sh
# Regenerates the pictures in docs/pictures/ and the generated parts of
# docs/scenarios.md, from the tables the analyzer reads:
#
#   - scenario-NN.dot/.svg: one picture per row of the scenario table, drawn
#     by scripts/scenario-dot.c (linked against the engine, so it reads the
#     table through bp_scenario_get(), never a copy) and rendered by Graphviz;
#   - architecture.svg: docs/pictures/architecture.dot, rendered;
#   - docs/scenarios.md between <!-- begin pictures --> and <!-- end pictures -->:
#     one section per row, with this CPU's litmus results from
#     docs/data/litmus-<arch>.json, and the summary table between
#     <!-- begin litmus --> and <!-- end litmus -->.
#
# usage: scripts/render-docs.sh [--measure] [BUILD]
#   --measure  run build/bin/barrierpair-litmus first (10^7 runs per test, a few
#              minutes) and keep its JSON in docs/data/ for this architecture
# Needs: a configured and built BUILD (the engine library and the litmus
# runner), cc, dot (Debian: graphviz), python3.
set -eu

measure=""
build="build"
for argument in "$@"; do
  case "$argument" in
  --measure) measure=1 ;;
  -*)
    echo "usage: $0 [--measure] [BUILD]" >&2
    exit 2
    ;;
  *) build="$argument" ;;
  esac
done

cd "$(dirname "$0")/.."
engine="$build/lib/libbpengine.a"
if [ ! -f "$engine" ]; then
  echo "render-docs: no $engine: build first (make build)" >&2
  exit 1
fi
if ! command -v dot >/dev/null 2>&1; then
  echo "render-docs: no 'dot': install Graphviz (apt-get install graphviz, or make deps)" >&2
  exit 1
fi

tools="$(mktemp -d)"
trap 'rm -rf "$tools"' EXIT
mkdir -p docs/pictures docs/data
"${CC:-cc}" -std=c11 -Wall -Wextra -Wpedantic -O2 -Iinclude \
  -o "$tools/scenario-dot" scripts/scenario-dot.c "$engine"

# The pictures.
number=0
while [ "$number" -lt 16 ]; do
  name="docs/pictures/scenario-$(printf %02d "$number")"
  "$tools/scenario-dot" dot "$number" > "$name.dot"
  dot -Tsvg "$name.dot" -o "$name.svg"
  number=$((number + 1))
done
dot -Tsvg docs/pictures/architecture.dot -o docs/pictures/architecture.svg

# The litmus results of this architecture.
results="docs/data/litmus-$(uname -m).json"
if [ -n "$measure" ]; then
  "$build/bin/barrierpair-litmus" --iterations 1e7 --json "$results.tmp" > /dev/null
  mv "$results.tmp" "$results"
fi
if [ ! -f "$results" ]; then
  echo "render-docs: no $results: run with --measure once on this machine" >&2
  exit 1
fi

# docs/scenarios.md: replace what lies between the markers.
"$tools/scenario-dot" markdown | python3 scripts/litmus-summary.py sections "$results" \
  > "$tools/pictures.md"
python3 scripts/litmus-summary.py table "$results" > "$tools/litmus.md"
doc=docs/scenarios.md
for part in pictures litmus; do
  awk -v part="$part" -v file="$tools/$part.md" '
    $0 == "<!-- begin " part " -->" { print; while ((getline line < file) > 0) print line; skip = 1; next }
    $0 == "<!-- end " part " -->" { skip = 0 }
    !skip { print }
  ' "$doc" > "$doc.tmp"
  mv "$doc.tmp" "$doc"
done
echo "render-docs: docs/pictures/ and $doc regenerated (litmus: $results)"
