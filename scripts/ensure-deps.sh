#!/usr/bin/env bash
# Installs the locked npm packages when node_modules is missing or was installed from another
# package-lock.json, then runs the given command. Expects Node 24 on PATH (scripts/node24.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
stamp=node_modules/.installed-lock.sha256
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -d node_modules/.bin ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	echo "Installing npm packages (npm ci: about 1,300 packages, 2-4 min on 2 cores; npm prints when done) ..." >&2
	npm ci --no-audit --no-fund --loglevel=error >&2
	echo "$want" > "$stamp"
fi
export PATH="$PWD/node_modules/.bin:$PATH"
[ "$#" -gt 0 ] && exec "$@"
