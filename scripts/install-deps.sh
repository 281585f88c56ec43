#!/bin/sh
# Installs what barrierpair needs to build and test, from Debian's packages.
# Idempotent: does nothing when everything is already there.
# neovim: the test of docs/editor.md's Neovim setup (skipped without it).
# --bench: also what `make bench` needs (gnuplot for its plots; Debian's
# gnuplot-nox draws PNG through cairo without X; valgrind counts the
# instructions a compile executes).
# --realcode: also what `make realcode` needs (tcl: tclsh generates sqlite3's
# amalgamation).
# --kernel: also what `bench/kernel/run.py` needs (the kernel's source and
# what its clang build uses).
set -eu

LLVM_VERSION="${BARRIERPAIR_LLVM_VERSION:-19}"
PACKAGES="clang-${LLVM_VERSION} libclang-${LLVM_VERSION}-dev llvm-${LLVM_VERSION}-dev
llvm-${LLVM_VERSION}-tools clangd-${LLVM_VERSION} liburcu-dev libcmocka-dev
cmake ninja-build python3 make graphviz
libjansson-dev bear dpkg-dev pandoc neovim"
if [ "${1:-}" = "--bench" ]; then
  PACKAGES="$PACKAGES gnuplot-nox valgrind"
fi
if [ "${1:-}" = "--realcode" ]; then
  PACKAGES="$PACKAGES tcl"
fi
if [ "${1:-}" = "--kernel" ]; then
  PACKAGES="$PACKAGES linux-source-6.1 lld-${LLVM_VERSION} flex bison bc
libelf-dev libssl-dev xz-utils"
fi
# npm (SARIF validation in the tests): Debian's, unless node and npm are
# already installed some other way.
if ! command -v npm >/dev/null 2>&1; then
  PACKAGES="$PACKAGES nodejs npm"
fi

missing=""
for package in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $package"
  fi
done

if [ -z "$missing" ]; then
  exit 0
fi

echo "install-deps: installing:$missing"
if [ "$(id -u)" -eq 0 ]; then
  as_root=""
elif command -v sudo >/dev/null 2>&1; then
  as_root="sudo"
else
  echo "install-deps: need root (or sudo) to install:$missing" >&2
  exit 1
fi
$as_root apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends $missing
