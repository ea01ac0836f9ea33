#!/usr/bin/env bash
# Fuzzes the API from its own OpenAPI document with Schemathesis: every check, every phase
# (examples, coverage, fuzzing and the stateful phase that follows the document's links from
# a new lobby to its host and player routes). Starts a fresh debug server on loopback with a
# fresh SQLite file; exits non-zero on any failure. Figures and the exact command:
# docs/api-fuzz.md.
#
#   scripts/api-fuzz.sh [extra st run options, e.g. --seed N]
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
PORT=${HERALD_FUZZ_PORT:-3418}
venv=target/api-fuzz-venv

if [ "$("$venv/bin/st" --version 2>/dev/null)" != "st, version $SCHEMATHESIS_VERSION" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet "schemathesis==$SCHEMATHESIS_VERSION"
fi

cargo build --quiet
work=$(mktemp -d)
# The fuzzer creates lobbies and joins far faster than the per-address limits allow (a
# client that did would be told 429 rate-limited, rightly); the limits are tested in
# tests/it/server_rate_limits.rs, and here they would only turn the run into a run of 429s.
HERALD_RATE_LIMIT_EXEMPT=127.0.0.1 RUST_LOG=warn target/debug/herald --bind "127.0.0.1:$PORT" \
    --database-url "sqlite://$work/herald.db?mode=rwc" > "$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
base="http://127.0.0.1:$PORT"
for _ in $(seq 1 100); do
    curl -sf "$base/api/v1/lobbies?limit=1" >/dev/null && break
    sleep 0.1
done
# Fuzz this server, not another one that held the port already.
if ! kill -0 "$server" 2>/dev/null; then
    cat "$work/server.log" >&2
    echo "the server did not start (is port $PORT taken? set HERALD_FUZZ_PORT)" >&2
    exit 1
fi

# Every check runs, as schemathesis.toml decides (all of them but `ignored_auth`, and two that
# a departure by DELETE /me misleads, on a few operations; the file says why). The report holds every
# request and response, for the figures (requests per operation, orders, resolved steps).
mkdir -p target/api-fuzz
status=0
started=$(date +%s)
"$venv/bin/st" --config-file scripts/api-fuzz/schemathesis.toml run "$base/api/v1/openapi.json" \
    --url "$base" --phases examples,coverage,fuzzing,stateful \
    --generation-database none --no-color \
    --report ndjson --report-dir target/api-fuzz "$@" || status=$?
echo "Schemathesis ran for $(( $(date +%s) - started )) s."

# What the stateful phase reached, counted by the server itself: orders it accepted and steps
# that resolved (each resolution is one `step-resolved` event in the database).
python3 scripts/api-fuzz/figures.py "$work/herald.db"
# What each operation received, phase by phase, with the statuses it answered.
python3 scripts/api-fuzz/cases.py "$(ls -t target/api-fuzz/*.ndjson | head -1)"
exit $status
