#!/usr/bin/env bash
# The queue-mode suite: n8n main + one `n8n webhook` + two `n8n worker`s with EXECUTIONS_MODE=queue,
# PostgreSQL and binary data in the database, against throw-away PostgreSQL and Redis instances.
# Needs Node 24 on PATH: npm run test:queue (or bash scripts/node24.sh bash scripts/test-queue.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
for arg in "$@"; do
	case "$arg" in -h | --help) cat scripts/test-help.txt; exit 0 ;; esac
done
bash scripts/build.sh
bash scripts/n8n.sh install
export PATH="$PWD/node_modules/.bin:$PATH"
N8N_E2E_TMP="$(mktemp -d "${TMPDIR:-/tmp}/n8n-queue-run.XXXXXX")"
export N8N_E2E_TMP
# Its own folder: the postgres user must reach it (the run folder is private to this user).
services="$(mktemp -d "${TMPDIR:-/tmp}/n8n-queue-services.XXXXXX")"
cleanup() {
	# n8n processes follow jest down by themselves (N8N_WATCH_PID): let them go before the database.
	for _ in $(seq 1 20); do pgrep -f "$N8N_E2E_TMP/n8n-" >/dev/null || break; sleep 1; done
	bash scripts/queue-services.sh stop "$services"
	rm -rf "$N8N_E2E_TMP"
}
trap cleanup EXIT
eval "$(bash scripts/queue-services.sh start "$services")"
mkdir -p .tools
rm -f .tools/jest-queue-results.json
status=0
jest -c jest.queue.config.js --ci --runInBand --json --outputFile=.tools/jest-queue-results.json "$@" || status=$?
node -e '
const r = require("./.tools/jest-queue-results.json");
console.log(`queue: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
' || true
exit "$status"
