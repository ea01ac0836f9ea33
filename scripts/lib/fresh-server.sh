# Sourced by load-figures.sh, flamegraph.sh and load-ab.sh (from the repository root): builds
# the production binary (or takes the one HERALD_BIN names) and starts it on a fresh database,
# SQLite (a file in a temporary directory) or PostgreSQL (the database herald_load, recreated on
# HERALD_LOAD_POSTGRES, default postgres://postgres@127.0.0.1:5432). Sets `work` (that
# directory) and `server` (the pid); both are cleaned up on exit, or by stop_fresh_server.
# Returns once the server answers.
#
#   start_fresh_server BACKEND PORT
start_fresh_server() {
    local backend=$1 port=$2 url base bin=${HERALD_BIN:-target/production/herald}
    [ -n "${HERALD_BIN:-}" ] || cargo build --profile production --quiet
    work=$(mktemp -d)
    case $backend in
        sqlite) url="sqlite://$work/herald.db?mode=rwc" ;;
        postgres)
            base=${HERALD_LOAD_POSTGRES:-postgres://postgres@127.0.0.1:5432}
            psql "$base/postgres" -qc "DROP DATABASE IF EXISTS herald_load WITH (FORCE)" \
                -c "CREATE DATABASE herald_load" >/dev/null
            url="$base/herald_load" ;;
        *) echo "backend: sqlite or postgres" >&2; exit 2 ;;
    esac
    # The load generator seats lobbies far faster than the public rate limits allow, and with
    # --drive streams holds a connection per bot: exempt its address and make room; every
    # other limit stays at its default.
    HERALD_RATE_LIMIT_EXEMPT=${HERALD_RATE_LIMIT_EXEMPT:-127.0.0.1} \
    HERALD_MAX_CONNECTIONS=${HERALD_MAX_CONNECTIONS:-20000} \
    RUST_LOG=warn "$bin" --bind 127.0.0.1:"$port" --database-url "$url" \
        > "$work/server.log" 2>&1 &
    server=$!
    trap stop_fresh_server EXIT
    for _ in $(seq 1 50); do
        curl -sf "http://127.0.0.1:$port/api/v1/lobbies?limit=1" >/dev/null && break
        sleep 0.1
    done
}

# Stops the server start_fresh_server started and removes its directory.
stop_fresh_server() {
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -rf "$work"
    trap - EXIT
}
