#!/usr/bin/env bash
# Profiles a load run: starts a production-build server on a fresh database, runs `herald load`
# against it, samples both processes with perf (cpu-clock, DWARF call graphs) for a few
# seconds of steady play, and writes a flame graph of each to docs/perf/.
#
#   scripts/flamegraph.sh [BACKEND [LOBBIES [ROUNDS [IN_FLIGHT]]]]   # default: sqlite 1000 8 256
#
# Needs perf (linux-perf) and inferno (`cargo install inferno`). PostgreSQL: as in
# load-figures.sh, a fresh database herald_load on HERALD_LOAD_POSTGRES.
set -euo pipefail
backend=${1:-sqlite} lobbies=${2:-1000} rounds=${3:-8} in_flight=${4:-256}
cd "$(dirname "$0")/.."
port=3218
. scripts/lib/fresh-server.sh
start_fresh_server "$backend" "$port"
target/production/herald load --url "http://127.0.0.1:$port" --lobbies "$lobbies" --players 16 \
    --max-rounds "$rounds" --connections "$in_flight" --server-pid "$server" > "$work/load.txt" &
load=$!
sleep 3   # seating, then into steady play
perf record -q -e cpu-clock -F 499 -g --call-graph dwarf,32768 -p "$server" -o "$work/server.data" -- sleep 4 &
one=$!
perf record -q -e cpu-clock -F 499 -g --call-graph dwarf,32768 -p "$load" -o "$work/load.data" -- sleep 4 &
two=$!
wait $one $two
wait $load
grep -E "orders accepted|server CPU" "$work/load.txt"
mkdir -p docs/perf
for who in server load; do
    perf script -i "$work/$who.data" 2>/dev/null | inferno-collapse-perf 2>/dev/null \
        | inferno-flamegraph --minwidth 0.2 --title "herald $who: $backend, Crossing Swords $lobbies x 16, $in_flight in flight" \
        > "docs/perf/$who-$backend-cs-${lobbies}x16.svg"
    echo "docs/perf/$who-$backend-cs-${lobbies}x16.svg"
done
