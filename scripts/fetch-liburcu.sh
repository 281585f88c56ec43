#!/bin/sh
# Fetches Debian's liburcu source (`apt-get source liburcu`), configures it
# with clang and builds its libraries under bear, so <dir> holds a
# compile_commands.json for `barrierpair check`. Cached: does nothing when
# <dir>/compile_commands.json exists. The source comes through
# scripts/get-source.py, from the archive the machine's own apt entries name.
#
# usage: scripts/fetch-liburcu.sh [<cache-dir>]   (default: build/liburcu)
# Prints the source directory on standard output.
set -eu

cache="${1:-build/liburcu}"
mkdir -p "$cache"
cache="$(cd "$cache" && pwd)"

existing="$(ls -d "$cache"/liburcu-*/ 2>/dev/null | head -1 || true)"
if [ -n "$existing" ] && [ -f "$existing/compile_commands.json" ]; then
  echo "${existing%/}"
  exit 0
fi

if [ -z "$existing" ]; then
  existing="$(python3 "$(dirname "$0")/get-source.py" liburcu "$cache")"
fi
source_dir="${existing%/}"
cd "$source_dir"

echo "fetch-liburcu: configuring and building $source_dir with clang under bear" >&2
clang="${BARRIERPAIR_CLANG:-clang-19}"
[ -f config.status ] || ./configure -q CC="$clang" --disable-static >&2
rm -f compile_commands.json
bear --output compile_commands.json -- make -s -j"$(nproc)" -C src >&2
test -s compile_commands.json
echo "$source_dir"
