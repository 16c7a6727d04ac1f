#!/usr/bin/env bash
# The whole test run: build, type-check, lint, then every jest suite.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/build.sh
export PATH="$PWD/node_modules/.bin:$PATH"
tsc --noEmit -p tsconfig.json
eslint nodes credentials package.json
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
