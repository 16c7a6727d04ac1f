#!/usr/bin/env bash
# Compiles the nodes, credentials and sandbox into dist/ and copies icons and node JSON.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/ensure-deps.sh true
export PATH="$PWD/node_modules/.bin:$PATH"
rm -rf dist
# tsc prints nothing when all is well: say what the next seconds are for.
echo "Building the package: tsc (silent unless an error), then gulp copies icons and node JSON ..." >&2
tsc -p tsconfig.build.json
gulp build:assets
