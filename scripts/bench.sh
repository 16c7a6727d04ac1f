#!/usr/bin/env bash
# The benchmark (bench/): builds, installs the pinned n8n (cached), then runs every figure against
# its anchor in real n8n. The full run takes tens of minutes; CI runs the quick form (--quick:
# smaller sizes, figures printed, not judged; a figure that fails to run fails it).
#   npm run bench [-- --quick] [-- --only getMany,latency,create,refund,payoutSheet,payoutBatches,payoutLedger,payoutRead,txAll,itemAll,require,https,httpsAll,pollWindow,trigger] [--rounds N]
set -euo pipefail
# Also --only payoutResults: payout results through the Payout Results Trigger (bench/payoutResults.ts).
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/build.sh >&2
bash scripts/n8n.sh install
N8N_E2E_TMP="$(mktemp -d "${TMPDIR:-/tmp}/n8n-bench-run.XXXXXX")"
export N8N_E2E_TMP
trap 'rm -rf "$N8N_E2E_TMP"' EXIT
node bench/index.js "$@"
