#!/usr/bin/env bash
# Runs a command under Node.js >= 24. Uses the system Node when it is new enough; otherwise installs
# the `node@24` package from the npm registry into .tools/node24 (git-ignored) and puts it first on PATH.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ "$(major node)" -lt 24 ]; then
	bin="$root/.tools/node24/node_modules/node/bin"
	if [ ! -x "$bin/node" ] || [ "$(major "$bin/node")" -lt 24 ]; then
		echo "Node.js $(node -v 2>/dev/null || echo none) found; installing Node.js 24 into .tools/node24 ..." >&2
		mkdir -p "$root/.tools/node24"
		npm install --prefix "$root/.tools/node24" --no-save --no-audit --no-fund --loglevel=error node@24 >&2
	fi
	export PATH="$bin:$PATH"
fi
[ "$#" -gt 0 ] || { node -v; exit 0; }
exec "$@"
