#!/bin/sh
# Builds nine core directories of Debian's linux-source-6.1 with clang
# (x86_64 defconfig) and writes the kernel's own compile database.
# Usage: build.sh CACHE [JOBS]. Idempotent: an existing database is kept.
set -eu

cache="$1"
jobs="${2:-$(nproc)}"
llvm="${BARRIERPAIR_LLVM_VERSION:-19}"
tarball=/usr/src/linux-source-6.1.tar.xz
directories="kernel mm block io_uring net fs lib ipc security"

if [ ! -f "$tarball" ]; then
  echo "build.sh: $tarball missing (scripts/install-deps.sh --kernel)" >&2
  exit 2
fi
mkdir -p "$cache"
tree="$cache/linux-source-6.1"
if [ -f "$tree/compile_commands.json" ]; then
  echo "$tree/compile_commands.json"
  exit 0
fi
if [ ! -f "$tree/Makefile" ]; then
  tar -C "$cache" -xf "$tarball"
fi
cd "$tree"
make -s LLVM="-$llvm" defconfig >&2
# The directories' objects only: their .cmd files are what the database
# generator reads. A few objects may fail to build; the rest still count.
for directory in $directories; do
  make -s -k -j"$jobs" LLVM="-$llvm" "$directory/" >&2 || true
done
python3 scripts/clang-tools/gen_compile_commands.py -d . -o compile_commands.json >&2
echo "$tree/compile_commands.json"
