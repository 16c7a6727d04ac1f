#!/usr/bin/env bash
# The main job: builds the package and runs the service sandbox in the foreground (Ctrl-C stops it).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/build.sh >&2
exec node dist/test/sandbox/cli.js "$@"
