#!/bin/sh
# Fetches Debian's liburcu source (`apt-get source liburcu`), configures it
# with clang and builds its libraries under bear, so <dir> holds a
# compile_commands.json for `barrierpair check`. Cached: does nothing when
# <dir>/compile_commands.json exists. Adds a deb-src entry for Debian's
# archive when apt has none (idempotent).
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

if [ "$(id -u)" -eq 0 ]; then as_root=""; else as_root="sudo"; fi

# deb-src: the same archive and suites as the deb entries.
if ! apt-get source --print-uris liburcu >/dev/null 2>&1; then
  list=/etc/apt/sources.list.d/barrierpair-deb-src.sources
  if [ ! -f "$list" ]; then
    echo "fetch-liburcu: adding $list" >&2
    $as_root sh -c "cat > $list" <<'SOURCES'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  fi
  $as_root apt-get update -qq >&2
fi

cd "$cache"
if [ -z "$existing" ]; then
  echo "fetch-liburcu: apt-get source liburcu" >&2
  apt-get source -qq liburcu >&2
  existing="$(ls -d "$cache"/liburcu-*/ | head -1)"
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
