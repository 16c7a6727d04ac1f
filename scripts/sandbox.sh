#!/usr/bin/env bash
# Only the service sandbox, in the foreground (Ctrl-C stops it): builds, then test/sandbox/cli.ts.
#   npm run sandbox -- [--port 5680] [--seed 1] [--count 250] [--latency 0] [--invoice-items 0]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/build.sh >&2
exec node dist/test/sandbox/cli.js "$@"
