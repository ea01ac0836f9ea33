#!/usr/bin/env bash
# Compares two production binaries under the same load, side by side: PAIRS pairs of runs whose
# order alternates (A B, B A, A B, ...), each a fresh server on a fresh database (as
# load-figures.sh starts one) played through by `herald load`. Prints one line per run: orders
# per server CPU-second, and on PostgreSQL per CPU-second of the server and the database
# together, the p99 latency, and the server's peak memory above idle per seated player. Loopback
# only.
#
#   scripts/load-ab.sh OLD_BINARY NEW_BINARY PAIRS BACKEND GAME LOBBIES PLAYERS ROUNDS IN_FLIGHT
#   e.g. scripts/load-ab.sh /tmp/herald-old target/production/herald 3 sqlite crossing-swords 1000 16 10 128
#
# LOADGEN names the binary whose `herald load` drives both (default: NEW_BINARY).
# A_FLAGS and B_FLAGS add `herald load` flags to the A and the B runs: the same binary twice
# with B_FLAGS=--rated measures what rating every game costs, side by side.
# PostgreSQL: HERALD_LOAD_POSTGRES (default postgres://postgres@127.0.0.1:5432) gets a fresh
# database named herald_load for every run.
set -euo pipefail
a=$(realpath "$1") b=$(realpath "$2") pairs=$3 backend=$4 game=$5 lobbies=$6 players=$7 rounds=$8 in_flight=$9
loadgen=$(realpath "${LOADGEN:-$2}")
cd "$(dirname "$0")/.."
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
port=3219
. scripts/lib/fresh-server.sh

run() {
    local bin=$1 flags=$2 out count_db=()
    [ "$backend" = postgres ] && count_db=(--database-processes postgres)
    HERALD_BIN=$bin start_fresh_server "$backend" "$port"
    out=$("$loadgen" load --url "http://127.0.0.1:$port" --game "$game" --lobbies "$lobbies" \
        --players "$players" --max-rounds "$rounds" --connections "$in_flight" \
        --server-pid "$server" "${count_db[@]}" $flags 2>&1)
    stop_fresh_server
    # Each figure as the load generator printed it; with the database's, recomputed from the
    # two CPU times so that older load generators' wording reads the same.
    local orders server_cpu db_cpu p99 together=-
    orders=$(grep -oP 'orders accepted: \K[0-9]+' <<<"$out")
    server_cpu=$(grep -oP 'server CPU while playing: \K[0-9.]+' <<<"$out")
    db_cpu=$(grep -oP 'postgres CPU while playing: \K[0-9.]+' <<<"$out" || true)
    p99=$(grep -oP 'p99 \K[0-9.]+' <<<"$out")
    local peak_seat
    peak_seat=$(grep -oP 'peak [0-9.]+ MB \(\K[0-9?]+(?= bytes per seated player)' <<<"$out" || echo -)
    [ -n "$db_cpu" ] && together=$(awk -v n="$orders" -v s="$server_cpu" -v d="$db_cpu" 'BEGIN { if (s + d > 0) printf "%d", n / (s + d); else printf "-" }')
    echo "$bin${flags:+ $flags} orders=$orders per-server-cpu-s=$(awk -v n="$orders" -v s="$server_cpu" 'BEGIN { if (s > 0) printf "%d", n / s; else printf "-" }') with-db=$together p99=${p99}ms peak-bytes-per-seat=$peak_seat"
}

for i in $(seq 1 "$pairs"); do
    if [ $((i % 2)) = 1 ]; then order=(a b); else order=(b a); fi
    for side in "${order[@]}"; do
        echo -n "pair $i: "
        case $side in
            a) run "$a" "${A_FLAGS:-}" ;;
            b) run "$b" "${B_FLAGS:-}" ;;
        esac
    done
done
