#!/bin/sh
# usage: validate-sarif.sh <tools-dir> <file.sarif>
# Validates with the reference validator (@microsoft/sarif-multitool validate:
# fails on any error it reports) and against the SARIF 2.1.0 JSON schema with
# ajv (the multitool leaves some schema errors unreported). <tools-dir> is
# where scripts/install-sarif-validator.sh installed them.
set -eu
tools="$1"
file="$2"
multitool="$tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
schema="$tools/node_modules/@microsoft/sarif-multitool-linux/sarif-2.1.0.json"
here="$(dirname "$0")"
log="$file.validation"
DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 "$multitool" validate "$file" > "$log" 2>&1 || {
  cat "$log"; echo "validate-sarif: the multitool failed" >&2; exit 1; }
if grep -E ': error [A-Z]+[0-9]+:' "$log"; then
  echo "validate-sarif: the multitool reports errors" >&2
  exit 1
fi
grep -q 'Analysis completed successfully' "$log" || { cat "$log"; exit 1; }
echo "$file: sarif-multitool validate: no errors"
NODE_PATH="$tools/node_modules" node "$here/sarif-schema.js" "$schema" "$file"
