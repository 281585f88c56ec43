#!/bin/sh
# The demo: the plugin over every example, correct and broken, as a user's
# build would run it.
set -eu
build="${1:-build}"
clang="/usr/lib/llvm-${BARRIERPAIR_LLVM_VERSION:-19}/bin/clang"
plugin="$build/lib/barrierpair.so"
color=""
[ -t 1 ] && color="-fcolor-diagnostics"

for example in examples/*/; do
  for version in correct broken; do
    source="$example$version.c"
    [ -f "$source" ] || continue
    printf '\n=== %s\n' "$source"
    # shellcheck disable=SC2086
    output="$("$clang" -fsyntax-only -fplugin="$plugin" $color "$source" 2>&1)" || true
    if [ -n "$output" ]; then
      printf '%s\n' "$output"
    else
      echo "no findings"
    fi
  done
done
