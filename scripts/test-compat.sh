#!/usr/bin/env bash
# The compatibility run: the compatibility subset of the real-n8n suites (test/compat/features.js)
# on each n8n release of test/compat/versions.txt, each installed once into its own cache beside the
# pinned one; queue mode on the oldest and the newest. Ends with the table release × feature.
# Needs Node 24 on PATH: npm run test:compat [-- --ends | --after-full-suites | <version>[@<node>]...]
#   <version>@<node>     that release with n8n on another Node.js major (20, 22; default 24)
#   --ends               the oldest and the newest release only
#   --after-full-suites  the ends, for .ci/run right after `npm run test:e2e` and `npm run test:queue`
#                        on the pin: the pin's column is read from those suites' results (they hold
#                        every test of the subset), the other end is run here
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
n8n_sh() { bash scripts/n8n.sh "$@"; }
mapfile -t all < <(n8n_sh versions)
mapfile -t ends < <(n8n_sh versions oldest; n8n_sh versions newest)
pin="$(n8n_sh version)"
from_full=""
case "${1:-}" in
--ends) versions=("${ends[@]}") ;;
--after-full-suites) versions=("${ends[@]}") from_full="$pin" ;;
"") versions=("${all[@]}") ;;
*) versions=("$@") ;;
esac
is_end() { printf '%s\n' "${ends[@]}" | grep -qx "$1"; }

# N8N_E2E_NO_BUILD=1: another compatibility run of this checkout built dist/ already.
[ -n "${N8N_E2E_NO_BUILD:-}" ] || bash scripts/build.sh
export PATH="$PWD/node_modules/.bin:$PATH"
N8N_E2E_TMP="$(mktemp -d "${TMPDIR:-/tmp}/n8n-compat-run.XXXXXX")"
export N8N_E2E_TMP
services=""
stop_services() {
	[ -n "$services" ] || return 0
	for _ in $(seq 1 20); do pgrep -f "$N8N_E2E_TMP/n8n-" >/dev/null || break; sleep 1; done
	bash scripts/queue-services.sh stop "$services"
	rm -rf "$services"
	services=""
}
cleanup() {
	stop_services
	for _ in $(seq 1 20); do pgrep -f "$N8N_E2E_TMP" >/dev/null || break; sleep 1; done
	rm -rf "$N8N_E2E_TMP"
}
trap cleanup EXIT
mkdir -p .tools/compat
status=0
if [ -n "$from_full" ] && ! { [ -f .tools/jest-e2e-results.json ] && [ -f .tools/jest-queue-results.json ]; }; then
	echo "test-compat.sh: --after-full-suites needs this run's e2e and queue results" >&2
	exit 1
fi
# The pin's results from this run's full suites: both result files merged into one jest result.
from_full_suites() {
	node -e '
	const [e2e, queue] = process.argv.slice(1).map((f) => require(f));
	const merged = { ...e2e, testResults: [...e2e.testResults, ...queue.testResults] };
	for (const k of ["numFailedTests", "numPassedTests", "numRuntimeErrorTestSuites"]) merged[k] = e2e[k] + queue[k];
	process.stdout.write(JSON.stringify(merged));
	' "$PWD/.tools/jest-e2e-results.json" "$PWD/.tools/jest-queue-results.json" >".tools/compat/$1.jest.json"
	echo '{"install":0,"run":0,"fullSuites":true}' >".tools/compat/$1.times.json"
}
labels=()
for entry in "${versions[@]}"; do
	version="${entry%@*}"
	node=""
	[ "$entry" = "$version" ] || node="${entry#*@}"
	# Files and table column: the release, and its Node.js when not the default 24.
	label="$version"
	[ -z "$node" ] || [ "$node" = 24 ] || label="$version@node$node"
	labels+=("$label")
	export N8N_E2E_VERSION="$version"
	if [ -n "$node" ]; then export N8N_E2E_NODE="$node"; else unset N8N_E2E_NODE; fi
	if [ "$version" = "$from_full" ]; then
		from_full_suites "$version" || status=1
		continue
	fi
	rm -f ".tools/compat/$label".*.json
	started=$SECONDS
	n8n_sh install
	installed=$SECONDS
	end=0
	is_end "$version" && end=1
	mapfile -t selection < <(node test/compat/features.js "$end")
	pattern="${selection[-1]}"
	unset 'selection[-1]'
	if [ "$end" = 1 ]; then
		# Throw-away PostgreSQL and Redis per release: each n8n migrates the database its own way.
		services="$(mktemp -d "${TMPDIR:-/tmp}/n8n-compat-services.XXXXXX")"
		eval "$(bash scripts/queue-services.sh start "$services")"
	fi
	echo "== n8n $version${node:+ on Node.js $node}: ${#selection[@]} suites" >&2
	jest -c jest.compat.config.js --ci --runInBand --json --outputFile=".tools/compat/$label.jest.json" \
		"${selection[@]}" -t "$pattern" || status=1
	stop_services
	printf '{"install":%d,"run":%d}\n' "$((installed - started))" "$((SECONDS - installed))" \
		>".tools/compat/$label.times.json"
done
node test/compat/table.js "${labels[@]}" || status=1
exit "$status"
