#!/usr/bin/env bash
# Where the server's CPU goes under load, by kind of work rather than by function: starts a
# production-build server on a fresh SQLite file (or PostgreSQL, as load-figures.sh does), runs
# `herald load` against it, samples the server with perf (cpu-clock, frame-pointer call chains,
# which is all the kernel's part needs) for SECONDS of steady play, and sorts every sample into
# the kernel's sockets, its file I/O, the allocator, hyper/axum/tokio, SQLite, Herald and so on
# (scripts/cpu-kinds.py). Also prints the server's user and system CPU over its whole life from
# /proc. Loopback only.
#
#   scripts/cpu-kinds.sh [BACKEND [LOBBIES [ROUNDS [IN_FLIGHT [SECONDS]]]]]   # sqlite 1000 10 128 8
#   HERALD_BIN=/tmp/herald-old scripts/cpu-kinds.sh                            # another build
set -euo pipefail
backend=${1:-sqlite} lobbies=${2:-1000} rounds=${3:-10} in_flight=${4:-128} seconds=${5:-8}
cd "$(dirname "$0")/.."
command -v perf >/dev/null || { echo "perf is needed (Debian: linux-perf)" >&2; exit 2; }
port=3220
. scripts/lib/fresh-server.sh
start_fresh_server "$backend" "$port"
"${HERALD_BIN:-target/production/herald}" load --url "http://127.0.0.1:$port" --lobbies "$lobbies" \
    --players 16 --max-rounds "$rounds" --connections "$in_flight" --server-pid "$server" \
    > "$work/load.txt" &
load=$!
sleep 4   # seating, then into steady play
perf record -q -e cpu-clock -F 999 -g -p "$server" -o "$work/server.data" -- sleep "$seconds"
wait $load
grep -E "orders accepted|server CPU" "$work/load.txt"
# utime and stime, fields 14 and 15 of /proc/PID/stat, in clock ticks.
awk -v hz="$(getconf CLK_TCK)" '{ printf "server CPU over its life: %.1f s user, %.1f s system (%.0f%% in the kernel)\n", $14 / hz, $15 / hz, 100 * $15 / ($14 + $15) }' "/proc/$server/stat"
perf script -i "$work/server.data" 2>/dev/null | python3 scripts/cpu-kinds.py
