#!/bin/sh
# What `make bench` needs beyond scripts/install-deps.sh: gnuplot for the
# plots (Debian's gnuplot-nox: PNG through cairo, no X). Idempotent.
set -eu
sh "$(dirname "$0")/install-deps.sh"
PACKAGES="gnuplot-nox"
missing=""
for package in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $package"
  fi
done
[ -z "$missing" ] && exit 0
echo "install-bench-deps: installing:$missing"
if [ "$(id -u)" -eq 0 ]; then as_root=""; else as_root="sudo"; fi
$as_root apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends $missing
