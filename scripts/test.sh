#!/usr/bin/env bash
# The whole test suite: lint, types, contract drift, catalogue validation, unit and
# integration tests (PGlite, and PostgreSQL when reachable), then browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${TEST_DATABASE_URL:-}" ] && command -v pg_isready >/dev/null 2>&1 && pg_isready -h 127.0.0.1 -p 5432 -q; then
  export TEST_DATABASE_URL="postgres://postgres:postgres@127.0.0.1:5432/postgres"
fi
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "PostgreSQL is not reachable on 127.0.0.1:5432: integration tests run on the embedded database only."
fi

# Each step prints how long the one before it took, so the suite's slow parts are visible.
step_started=$SECONDS
step() {
  [ -n "${step_name:-}" ] && printf '== %s: %d s\n' "$step_name" $((SECONDS - step_started))
  step_name=$1
  step_started=$SECONDS
  printf '\n== %s\n' "$1"
}

step "lint"
npm run lint
step "types"
npm run typecheck
step "contract is up to date with proto/"
npm run -w @palisade/api check
step "policy catalogue is valid"
npm run -w @palisade/policy-engine check-catalogue
step "build the web app"
npm run build
reports=$(mktemp -d)
failed=()
# Every workspace with Vitest tests, in the order of the root package.json.
for workspace in $(node -e 'const r=require("./package.json");for(const w of r.workspaces){const p=require("./"+w+"/package.json");if(/vitest/.test(p.scripts?.test??""))console.log(p.name)}'); do
  step "tests: $workspace"
  npm run -w "$workspace" test -- --reporter=default --reporter=json --outputFile="$reports/${workspace#@palisade/}.json" ||
    failed+=("$workspace")
done
step "browser tests"
PLAYWRIGHT_JSON_OUTPUT_FILE="$reports/e2e.json" npm run -w @palisade/e2e test -- --reporter=list,json || failed+=("@palisade/e2e")

step "summary"
echo "== whole suite: ${SECONDS} s"
node scripts/summarize-tests.mjs "$reports"
if [ ${#failed[@]} -gt 0 ]; then
  echo "Failed: ${failed[*]}"
  exit 1
fi
