#!/bin/sh
# Installs barrierpair (cmake --install) into a scratch prefix and builds a
# user's project against it: find_package(BarrierPair), the lint target
# (which fails on the broken pair, naming both files) and the plugin in the
# normal build.
# usage: run.sh <barrierpair build dir> <scratch dir> <clang>
set -eu
build="$1"; scratch="$2"; clang="$3"
here="$(cd "$(dirname "$0")" && pwd)"
rm -rf "$scratch"
mkdir -p "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" > "$scratch/install.log"
for file in bin/barrierpair lib/barrierpair/barrierpair.so include/barrierpair/barrierpair.h \
            share/doc/barrierpair/rules.md lib/cmake/BarrierPair/BarrierPairConfig.cmake \
            share/barrierpair/primitives/ck.def share/barrierpair/primitives/dpdk.def \
            share/barrierpair/primitives/qemu.def; do
  test -e "$scratch/prefix/$file" || { echo "cmake-package: $file was not installed" >&2; exit 1; }
done
# The man pages, when pandoc generated them.
if [ -d "$build/man" ]; then
  for file in share/man/man1/barrierpair.1 share/man/man1/barrierpair-litmus.1 \
              share/man/man7/barrierpair-plugin.7; do
    test -e "$scratch/prefix/$file" || { echo "cmake-package: $file was not installed" >&2; exit 1; }
  done
fi

cmake -S "$here/project" -B "$scratch/user" -G Ninja -DCMAKE_C_COMPILER="$clang" \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" -DINPUTS="$here/../cli/Inputs/mp" > "$scratch/configure.log"

# The normal build: the plugin warns (one translation unit at a time, so the
# reader alone has no partner: no warning is expected, but it must load).
cmake --build "$scratch/user" --target pair > "$scratch/build.log" 2>&1 ||
  { cat "$scratch/build.log"; exit 1; }

# The lint target fails, naming the reader and the writer.
if cmake --build "$scratch/user" --target barrierpair > "$scratch/lint.log" 2>&1; then
  cat "$scratch/lint.log"; echo "cmake-package: the lint target passed on a broken pair" >&2; exit 1
fi
grep -q 'reader-broken.c:10:10: warning: .*\[barrierpair-missing-barrier\]' "$scratch/lint.log" ||
  { cat "$scratch/lint.log"; exit 1; }
grep -q 'writer.c:9:3: note:' "$scratch/lint.log" || { cat "$scratch/lint.log"; exit 1; }

cmake --build "$scratch/user" --target barrierpair-sarif > "$scratch/sarif.log" 2>&1 || true
grep -q '"ruleId": "missing-barrier"' "$scratch/user/findings.sarif"
echo "cmake-package: installed, found, linted and built with the plugin"
