#!/bin/sh
# Installs the SARIF validators the tests use into <dir> (default
# build/sarif-tools), once: the reference validator @microsoft/sarif-multitool
# and ajv with ajv-formats for the SARIF 2.1.0 JSON schema it ships. From the
# npm registry; does nothing when they are already there.
set -eu
dir="${1:-build/sarif-tools}"
multitool="$dir/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
if [ -x "$multitool" ] && [ -d "$dir/node_modules/ajv-formats" ]; then
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "install-sarif-validator: npm is missing (sh scripts/install-deps.sh installs it)" >&2
  exit 1
fi
mkdir -p "$dir"
echo "install-sarif-validator: installing @microsoft/sarif-multitool and ajv into $dir"
npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
  @microsoft/sarif-multitool@5.7.0 ajv@8 ajv-formats@3 >/dev/null
# The package's postinstall (which npm may not run) makes the binary executable.
chmod u+x "$multitool"
