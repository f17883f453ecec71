#!/usr/bin/env bash
# The whole test suite: lint, types, contract drift, catalogue validation, unit and
# integration tests (PGlite, and PostgreSQL when reachable), then browser tests.
#
# Two lanes run side by side once the web app is built. Neither keeps both cores busy on its
# own: the browser tests drive one browser against one server and spend much of their time
# waiting for it, and the integration tests wait on the sandbox cloud's delays. The browser lane
# also runs the suites that drive the AWS and Azure command lines (their work is in separate
# processes and needs no database); the other lane runs every other Vitest suite.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${TEST_DATABASE_URL:-}" ] && command -v pg_isready >/dev/null 2>&1 && pg_isready -h 127.0.0.1 -p 5432 -q; then
  export TEST_DATABASE_URL="postgres://postgres:postgres@127.0.0.1:5432/postgres"
fi
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "PostgreSQL is not reachable on 127.0.0.1:5432: integration tests run on the embedded database only."
fi

# Each step prints how long it took, so the suite's slow parts are visible.
step_started=$SECONDS
step() {
  [ -n "${step_name:-}" ] && printf '== %s: %d s\n' "$step_name" $((SECONDS - step_started))
  step_name=$1
  step_started=$SECONDS
  printf '\n== %s\n' "$1"
}

reports=$(mktemp -d)
failed=()
browser_lane_suites=(@palisade/sandbox-cloud @palisade/cli)

vitest_suite() {
  npm run -w "$1" test -- --reporter=default --reporter=json --outputFile="$reports/${1#@palisade/}.json"
}

step "build the web app"
npm run build
# The browser tests serve their own copy, so nothing that rebuilds apps/web/dist during the run
# changes what they test.
rm -rf e2e/.web-dist
cp -r apps/web/dist e2e/.web-dist

# The browser lane writes to its own log, printed whole when it ends, so the two lanes' output
# does not interleave.
browser_log="$reports/browser-lane.log"
(
  lane_failed=()
  lane_started=$SECONDS
  printf '\n== browser tests\n'
  (cd e2e && PLAYWRIGHT_JSON_OUTPUT_FILE="$reports/e2e.json" npx playwright test --reporter=list,json) ||
    lane_failed+=("@palisade/e2e")
  printf '== browser tests: %d s\n' $((SECONDS - lane_started))
  for workspace in "${browser_lane_suites[@]}"; do
    suite_started=$SECONDS
    printf '\n== tests: %s\n' "$workspace"
    vitest_suite "$workspace" || lane_failed+=("$workspace")
    printf '== tests: %s: %d s\n' "$workspace" $((SECONDS - suite_started))
  done
  printf '%s\n' "${lane_failed[@]}" >"$reports/browser-lane.failed"
) >"$browser_log" 2>&1 &
browser_lane=$!
echo "The browser tests and the ${browser_lane_suites[*]} suites run beside the steps below; their output follows them."

step "lint"
npm run lint
step "types"
npm run typecheck
step "contract is up to date with proto/"
npm run -w @palisade/api check
step "policy catalogue is valid"
npm run -w @palisade/policy-engine check-catalogue
# Every other workspace with Vitest tests, in the order of the root package.json.
for workspace in $(node -e 'const r=require("./package.json");for(const w of r.workspaces){const p=require("./"+w+"/package.json");if(/vitest/.test(p.scripts?.test??""))console.log(p.name)}'); do
  [[ " ${browser_lane_suites[*]} " == *" $workspace "* ]] && continue
  step "tests: $workspace"
  vitest_suite "$workspace" || failed+=("$workspace")
done

step "browser lane (browser tests, ${browser_lane_suites[*]})"
wait "$browser_lane" || true
cat "$browser_log"
if [ -f "$reports/browser-lane.failed" ]; then
  while read -r suite; do
    if [ -n "$suite" ]; then failed+=("$suite"); fi
  done <"$reports/browser-lane.failed"
else
  failed+=("browser lane (it ended without a result)")
fi

step "summary"
echo "== whole suite: ${SECONDS} s"
node scripts/summarize-tests.mjs "$reports"
if [ ${#failed[@]} -gt 0 ]; then
  echo "Failed: ${failed[*]}"
  exit 1
fi
