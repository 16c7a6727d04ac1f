#!/usr/bin/env bash
# Throw-away PostgreSQL and Redis on loopback ports for the queue-mode suite (Debian's
# postgresql and redis-server packages; .ci/run installs them when missing).
#
#   queue-services.sh start <dir>   initdb + postgres + redis under <dir>; prints `export` lines
#   queue-services.sh stop <dir>    stops both (immediate shutdown) and removes <dir>
set -euo pipefail

die() { echo "queue-services.sh: $*" >&2; exit 1; }

pg_bin() {
	local dir
	for dir in /usr/lib/postgresql/*/bin; do
		[ -x "$dir/initdb" ] && { echo "$dir"; return; }
	done
	command -v initdb >/dev/null && { dirname "$(command -v initdb)"; return; }
	die "PostgreSQL not found: apt-get install postgresql"
}

# A free loopback port below Linux's ephemeral range (nothing outgoing takes it meanwhile).
free_port() {
	node -e '
const net = require("node:net");
const tryPort = () => {
	const port = 20000 + Math.floor(Math.random() * 12000);
	const server = net.createServer().once("error", tryPort);
	server.listen(port, "127.0.0.1", () => server.close(() => console.log(port)));
};
tryPort();'
}

# PostgreSQL refuses to run as root: as root, run it as the postgres user.
as_pg() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start() {
	local dir="${1:?dir}" bin pg_port redis_port
	command -v redis-server >/dev/null || die "redis-server not found: apt-get install redis-server"
	bin="$(pg_bin)"
	mkdir -p "$dir/pg" "$dir/redis"
	chmod 755 "$dir"
	[ "$(id -u)" = 0 ] && chown postgres "$dir/pg"
	as_pg "$bin/initdb" -D "$dir/pg/data" -U postgres -A trust --no-sync >"$dir/initdb.log" 2>&1 ||
		die "initdb failed: $(tail -5 "$dir/initdb.log")"
	pg_port="$(free_port)"
	as_pg "$bin/pg_ctl" -D "$dir/pg/data" -l "$dir/pg/server.log" -w -t 60 start \
		-o "-c listen_addresses=127.0.0.1 -p $pg_port -k $dir/pg -c fsync=off -c full_page_writes=off -c max_connections=200" \
		>/dev/null || die "postgres did not start: $(tail -5 "$dir/pg/server.log")"
	as_pg "$bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres n8n
	redis_port="$(free_port)"
	redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir/redis" \
		--daemonize yes --pidfile "$dir/redis/redis.pid" --logfile "$dir/redis/redis.log"
	for _ in $(seq 1 50); do
		redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null | grep -q PONG && break
		sleep 0.2
	done
	redis-cli -h 127.0.0.1 -p "$redis_port" ping | grep -q PONG || die "redis did not start"
	echo "export QUEUE_PG_PORT=$pg_port QUEUE_REDIS_PORT=$redis_port"
}

stop() {
	local dir="${1:?dir}"
	[ -d "$dir" ] || return 0
	if [ -f "$dir/pg/data/postmaster.pid" ]; then
		as_pg "$(pg_bin)/pg_ctl" -D "$dir/pg/data" -m immediate -w stop >/dev/null 2>&1 || true
	fi
	if [ -f "$dir/redis/redis.pid" ]; then
		local pid
		pid="$(cat "$dir/redis/redis.pid")"
		kill "$pid" 2>/dev/null || true
		# Redis writes its files while it shuts down: let it finish before its folder goes.
		for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
	fi
	rm -rf "$dir" 2>/dev/null || { sleep 1; rm -rf "$dir"; }
}

cmd="${1:-}"
shift || true
case "$cmd" in
start) start "$@" ;;
stop) stop "$@" ;;
*) sed -n '2,7p' "${BASH_SOURCE[0]}" >&2; exit 2 ;;
esac
