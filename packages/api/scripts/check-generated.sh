#!/usr/bin/env bash
# Fails when the committed generated code differs from what the protos produce.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent generate
changes="$(git status --porcelain -- src/gen ../../proto/buf)"
if [ -n "$changes" ]; then
  echo "Generated code is out of date; run 'npm run generate' and commit the result:" >&2
  echo "$changes" >&2
  exit 1
fi
echo "Generated code is up to date."
