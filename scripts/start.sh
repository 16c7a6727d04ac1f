#!/usr/bin/env bash
# The main job (`npm start`; Node 24 comes from scripts/node24.sh): builds the package, installs the
# pinned n8n the first time (cached outside the repository), then runs scripts/demo.js: the service
# sandbox on :5680 and n8n with the editor on :5678, this package loaded, the example workflows
# imported, credentials pointing at the sandbox and an owner account to log in with. It prints the
# editor URL, the login and what to click. Ctrl-C stops everything.
#
#   npm start                      start (keeps .tools/demo-n8n, the demo's n8n data, between runs)
#   npm start -- --reset           start from a fresh n8n folder
#   npm start -- --port 5678 --sandbox-port 5680
#   npm run sandbox                only the sandbox (test/sandbox/cli.ts)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
for arg in "$@"; do
	case "$arg" in -h | --help) exec node scripts/demo.js --help ;; esac
done
bash scripts/build.sh >&2
bash scripts/n8n.sh install
exec node scripts/demo.js "$@"
