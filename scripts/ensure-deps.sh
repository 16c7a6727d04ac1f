#!/usr/bin/env bash
# Installs the npm packages when node_modules is missing or older than package-lock.json, then runs
# the given command. Expects Node 24 on PATH (scripts/node24.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
	echo "Installing npm packages ..." >&2
	npm ci --no-audit --no-fund --loglevel=error >&2
fi
export PATH="$PWD/node_modules/.bin:$PATH"
[ "$#" -gt 0 ] && exec "$@"
