#!/usr/bin/env bash
# What one open connection costs the server: starts a production-build server on a fresh SQLite file for
# each kind of connection (idle, after one GET, the public event stream, a player's own event
# stream in a started game, and those player streams over HTTP/2), opens COUNT of them with
# scripts/connection-memory.py and prints the RSS growth per connection (per stream for
# player-h2).
#
#   scripts/connection-memory.sh [COUNT [KIND...]]
#
# KIND is idle, get, sse, player or player-h2 (all five by default). player-h2 multiplexes the
# COUNT streams 100 to an HTTP/2 connection (HERALD_MEMORY_STREAMS_PER_CONNECTION changes it)
# and needs Python's `h2` package (`pip install h2`). HERALD_MEMORY_PORT picks the port
# (3218 by default). Seating the players takes more joins than the public rate limit allows
# one address, so the script's own address is exempt (as for the load generator).
set -euo pipefail
count=${1:-2000}
shift || true
kinds=("$@")
[ ${#kinds[@]} -eq 0 ] && kinds=(idle get sse player player-h2)
cd "$(dirname "$0")/.."
if [[ " ${kinds[*]} " == *" player-h2 "* ]] && ! python3 -c "import h2" 2>/dev/null; then
    echo "player-h2 needs Python's h2 package: pip install h2" >&2
    exit 1
fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
cargo build --profile production --quiet
port=${HERALD_MEMORY_PORT:-3218}
for kind in "${kinds[@]}"; do
    work=$(mktemp -d)
    HERALD_RATE_LIMIT_EXEMPT=127.0.0.1 RUST_LOG=warn target/production/herald --bind 127.0.0.1:$port \
        --database-url "sqlite://$work/herald.db?mode=rwc" > "$work/server.log" 2>&1 &
    server=$!
    for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/api/v1/lobbies?limit=1" >/dev/null && break; sleep 0.1; done
    python3 scripts/connection-memory.py "$server" "$port" "$count" "$kind"
    kill $server; wait $server 2>/dev/null || true
    rm -rf "$work"
done
