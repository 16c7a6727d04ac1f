#!/usr/bin/env bash
# The whole test run: build, type-check, lint, format check, then every jest suite.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# The project's own help, before anything is built (jest's generic help says nothing of the suites).
for arg in "$@"; do
	case "$arg" in -h | --help) cat scripts/test-help.txt; exit 0 ;; esac
done
bash scripts/build.sh
export PATH="$PWD/node_modules/.bin:$PATH"
tsc --noEmit -p tsconfig.json
eslint nodes credentials package.json
# One format (package.json "prettier", as n8n's node starter uses): npm run format rewrites.
prettier --check --log-level warn 'nodes/**/*.ts' 'credentials/**/*.ts' 'test/**/*.ts'
mkdir -p .tools
status=0
jest --ci --json --outputFile=.tools/jest-results.json "$@" || status=$?
# One closing line any CI log reader understands.
node -e '
const r = require("./.tools/jest-results.json");
const skipped = r.numPendingTests + r.numTodoTests;
console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed` + (skipped ? `, ${skipped} skipped` : ""));
' || true
exit "$status"
