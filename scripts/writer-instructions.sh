#!/usr/bin/env bash
# Counts the instructions the server executes per accepted order, on the lobbies' writer thread
# and on every other thread, under valgrind's callgrind: a count that repeats within a fraction
# of a percent from run to run, where this machine's CPU-second figures spread by 10-15%
# (docs/performance.md). Loopback only; SQLite on a fresh temporary file.
#
#   scripts/writer-instructions.sh [SERVER_BINARY [LOBBIES]]
#   HERALD_GAME=bst HERALD_PLAYERS=2 scripts/writer-instructions.sh   # another game
#   HERALD_LOAD_FLAGS=--rated scripts/writer-instructions.sh             # a feature on
#
# SERVER_BINARY defaults to target/production/herald (built if missing); the load generator is
# HERALD_LOADGEN (default target/production/herald). To compare with an older server, drive both
# with the older binary's load generator: a newer one reads fields an older server lacks.
# Note: valgrind hides the CPU's SHA extensions, so sha2 runs its portable code here and the
# hashing counts several times what it costs natively (its share is printed apart).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x target/production/herald ] || cargo build --profile production --quiet
server_bin=${1:-target/production/herald} lobbies=${2:-40} port=3231
command -v valgrind >/dev/null || { echo "valgrind is needed (Debian: valgrind)" >&2; exit 2; }
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; [ -n "${HERALD_KEEP:-}" ] || rm -rf "$work"' EXIT
HERALD_RATE_LIMIT_EXEMPT=127.0.0.1 RUST_LOG=warn valgrind --tool=callgrind --separate-threads=yes \
    --callgrind-out-file="$work/cg.out.%p" "$server_bin" --bind 127.0.0.1:$port \
    --database-url "sqlite://$work/herald.db?mode=rwc" > "$work/server.log" 2>&1 &
server=$!
for _ in $(seq 1 600); do
    curl -sf "http://127.0.0.1:$port/api/v1/lobbies?limit=1" >/dev/null && break
    sleep 0.2
done
orders=$("${HERALD_LOADGEN:-target/production/herald}" load --url "http://127.0.0.1:$port" \
    --game "${HERALD_GAME:-crossing-swords}" --lobbies "$lobbies" --players "${HERALD_PLAYERS:-16}" --max-rounds 10 --connections 32 --drive poll ${HERALD_LOAD_FLAGS:-} |
    awk '/^orders accepted:/ {print $3}')
kill -INT $server; wait $server 2>/dev/null || true
writer=0 other=0 sha=0 rating=0
for f in "$work"/cg.out.*-*; do
    total=$(awk '/^(summary|totals):/ {print $2; exit}' "$f")
    if grep -q 'store::writer::run_job\|store::writer::write_loop\|sqlite_engine::apply' "$f"; then
        writer=$((writer + ${total:-0}))
        inclusive=$(callgrind_annotate --inclusive=yes "$f" 2>/dev/null || true)
        sha=$(awk '/sha2::sha256::compress256/ {gsub(",", "", $1); print $1; exit}' <<<"$inclusive")
        # A finished rated game's rating, all of it: the binders' read, the arithmetic, the rows.
        rating=$(awk '/store::rating_rows::write_sqlite/ {gsub(",", "", $1); print $1; exit}' <<<"$inclusive")
    else
        other=$((other + ${total:-0}))
    fi
done
awk -v w="$writer" -v o="$other" -v s="${sha:-0}" -v r="${rating:-0}" -v n="$orders" 'BEGIN {
    printf "orders accepted: %d\n", n
    printf "instructions per order: writer %.0f (of which SHA-256, portable code: %.0f), other threads %.0f\n", w / n, s / n, o / n
    printf "rating finished games, per order: %.0f, %.2f%% of all threads\n", r / n, 100 * r / (w + o)
}'
