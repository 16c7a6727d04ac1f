#!/usr/bin/env bash
# The whole test run: build, type-check, lint, then every jest suite.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/build.sh
export PATH="$PWD/node_modules/.bin:$PATH"
tsc --noEmit -p tsconfig.json
eslint nodes credentials package.json
jest --ci "$@"
