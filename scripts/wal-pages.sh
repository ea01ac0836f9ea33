#!/usr/bin/env bash
# What SQLite's write-ahead log is made of under load: starts a production-build server on a fresh
# SQLite file, runs `herald load` against it, copies the `-wal` file COPIES times a quarter of a
# second apart during steady play, and prints which tables and indexes its pages belong to
# (scripts/wal-pages.py). Every WAL frame is a whole page, so this says which writes cost the
# log's bytes. Loopback only.
#
#   scripts/wal-pages.sh [LOBBIES [ROUNDS [IN_FLIGHT [COPIES]]]]   # default: 1000 10 128 20
set -euo pipefail
lobbies=${1:-1000} rounds=${2:-10} in_flight=${3:-128} copies=${4:-20}
cd "$(dirname "$0")/.."
port=3219
. scripts/lib/fresh-server.sh
start_fresh_server sqlite "$port"
target/production/herald load --url "http://127.0.0.1:$port" --lobbies "$lobbies" --players 16 \
    --max-rounds "$rounds" --connections "$in_flight" > "$work/load.txt" &
load=$!
sleep 4   # seating, then into steady play
mkdir "$work/copies"
for i in $(seq 1 "$copies"); do
    cp "$work/herald.db-wal" "$work/copies/$i"
    sleep 0.25
done
wait $load
grep -E "orders accepted" "$work/load.txt"
python3 scripts/wal-pages.py "$work/herald.db" "$work"/copies/*
