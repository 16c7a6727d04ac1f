#!/usr/bin/env bash
# The real-n8n end-to-end suite: build, install the pinned n8n (cached), run test/e2e.
# Needs Node 24 on PATH: npm run test:e2e (or bash scripts/node24.sh bash scripts/test-e2e.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
for arg in "$@"; do
	case "$arg" in -h | --help) cat scripts/test-help.txt; exit 0 ;; esac
done
bash scripts/build.sh
bash scripts/n8n.sh install
export PATH="$PWD/node_modules/.bin:$PATH"
# Every n8n user folder of this run lives here, removed however the run ends; n8n processes
# follow jest down by themselves (N8N_WATCH_PID in scripts/n8n.sh).
N8N_E2E_TMP="$(mktemp -d "${TMPDIR:-/tmp}/n8n-e2e-run.XXXXXX")"
export N8N_E2E_TMP
cleanup() {
	# After an interrupted jest, n8n processes still run for a few seconds (their watchers, whose
	# command lines name the folder, end last) and would recreate files: wait for them first.
	for _ in $(seq 1 20); do pgrep -f "$N8N_E2E_TMP" >/dev/null || break; sleep 1; done
	rm -rf "$N8N_E2E_TMP"
}
trap cleanup EXIT
mkdir -p .tools
# A stale results file would report the previous run if jest dies.
rm -f .tools/jest-e2e-results.json
status=0
jest -c jest.e2e.config.js --ci --runInBand --json --outputFile=.tools/jest-e2e-results.json "$@" || status=$?
node -e '
const r = require("./.tools/jest-e2e-results.json");
const skipped = r.numPendingTests + r.numTodoTests;
console.log(`e2e: ${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
' || true
exit "$status"
