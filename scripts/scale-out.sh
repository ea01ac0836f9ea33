#!/usr/bin/env bash
# Several Herald processes on one PostgreSQL database behind HAProxy, measured with the load
# generator through the proxy. Loopback only.
#
#   scripts/scale-out.sh 2                                   # 1,000 lobbies x 16, 10 rounds, 96 in flight
#   scripts/scale-out.sh 3 --lobbies 100 --players 16 --max-rounds 20 --connections 64
#
# The first argument is the number of Herald processes; the rest, if any, are `herald load`
# flags (without --url, --server-pid and --database-processes, which the script sets).
# It builds the production binary, recreates the database herald_scale on HERALD_SCALE_POSTGRES
# (default postgres://postgres@127.0.0.1:5432), starts the processes on 127.0.0.1:3321 and up
# and HAProxy on 127.0.0.1:3320 with deploy/haproxy.cfg, runs the load through the proxy, and
# prints orders/s, the order latency, and the CPU time of the Herald processes, PostgreSQL and
# HAProxy while playing. Everything it started is stopped on exit.
#
# HAProxy connects to the processes from 127.0.0.3, the one address they trust to name the
# client in X-Forwarded-For; the load generator (127.0.0.1) is exempt from the rate limits, as
# in scripts/load-figures.sh, and every other client is counted by its own address.
set -euo pipefail
if [ $# -lt 1 ] || ! [ "$1" -ge 1 ] 2>/dev/null; then
    echo "usage: scripts/scale-out.sh PROCESSES [herald load flags...]" >&2
    exit 2
fi
processes=$1
shift
load_args=("$@")
[ ${#load_args[@]} -eq 0 ] &&
    load_args=(--game crossing-swords --lobbies 1000 --players 16 --max-rounds 10 --connections 96)
cd "$(dirname "$0")/.."

if ! command -v haproxy >/dev/null; then
    echo "HAProxy is not installed: apt-get install -y haproxy (Debian's package)" >&2
    exit 1
fi
# The load generator's connections, and the proxy's to the processes.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

proxy_port=${HERALD_SCALE_PORT:-3320}
proxy_source=127.0.0.3
base=${HERALD_SCALE_POSTGRES:-postgres://postgres@127.0.0.1:5432}
database=herald_scale

cargo build --profile production --quiet
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    psql "$base/postgres" -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
psql "$base/postgres" -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)" \
    -c "CREATE DATABASE $database" >/dev/null

wait_for() {
    for _ in $(seq 1 100); do
        curl -sf "$1/api/v1/lobbies?limit=1" >/dev/null && return 0
        sleep 0.1
    done
    echo "nothing answers at $1; its log:" >&2
    cat "$2" >&2
    exit 1
}

# One process at a time: the first applies the migrations before the others start.
server_pids=()
upstreams="$work/upstreams.cfg"
echo "backend herald" > "$upstreams"
for i in $(seq 1 "$processes"); do
    port=$((proxy_port + i))
    HERALD_TRUSTED_PROXIES=$proxy_source \
    HERALD_RATE_LIMIT_EXEMPT=${HERALD_RATE_LIMIT_EXEMPT:-127.0.0.1} \
    HERALD_MAX_CONNECTIONS=${HERALD_MAX_CONNECTIONS:-20000} \
    RUST_LOG=warn target/production/herald --bind "127.0.0.1:$port" --database-url "$base/$database" \
        > "$work/herald-$i.log" 2>&1 &
    pids+=($!)
    server_pids+=($!)
    wait_for "http://127.0.0.1:$port" "$work/herald-$i.log"
    echo "    server herald-$i 127.0.0.1:$port source $proxy_source" >> "$upstreams"
done

HERALD_PROXY_BIND=127.0.0.1:$proxy_port HERALD_PROXY_ERRORS=$PWD/deploy/errors \
    haproxy -db -f deploy/haproxy.cfg -f "$upstreams" > "$work/haproxy.log" 2>&1 &
pids+=($!)
wait_for "http://127.0.0.1:$proxy_port" "$work/haproxy.log"

echo "== $processes Herald process(es) on PostgreSQL behind HAProxy · ${load_args[*]}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
timed=()
[ -x /usr/bin/time ] && timed=(/usr/bin/time -f "load generator CPU: %U s user + %S s system in %e s")
"${timed[@]}" target/production/herald load --url "http://127.0.0.1:$proxy_port" "${load_args[@]}" \
    --server-pid "$(IFS=,; echo "${server_pids[*]}")" --database-processes postgres,haproxy
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
