#!/usr/bin/env bash
# What one open connection costs the server: starts a release server on a fresh SQLite file for
# each kind of connection (idle, after one GET, an open event stream), opens COUNT of them with
# scripts/connection-memory.py and prints the RSS growth per connection.
#
#   scripts/connection-memory.sh [COUNT]
set -euo pipefail
count=${1:-2000}
cd "$(dirname "$0")/.."
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
cargo build --release --quiet
port=3218
for kind in idle get sse; do
    work=$(mktemp -d)
    RUST_LOG=warn target/release/herald --bind 127.0.0.1:$port --database-url "sqlite://$work/herald.db?mode=rwc" > "$work/server.log" 2>&1 &
    server=$!
    for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/api/v1/lobbies?limit=1" >/dev/null && break; sleep 0.1; done
    python3 scripts/connection-memory.py "$server" "$port" "$count" "$kind"
    kill $server; wait $server 2>/dev/null || true
    rm -rf "$work"
done
