#!/usr/bin/env bash
# Measures the peer the goals compare Herald with, boardgame.io, on this machine: its own
# in-memory server and a node load generator of socket.io clients, one per player, playing a
# sixteen-player melee of simultaneous orders (scripts/peer/boardgameio/). Prints moves/s and
# the server's moves per CPU-second, for the README's side-by-side figures.
#
#   scripts/peer-boardgameio.sh [LOBBIES [PLAYERS [ROUNDS]]]   # default: 100 16 10
#
# Needs node and npm (the npm registry, the first time). package.json pins koa-compose to
# 4.1.0: with 4.2 boardgame.io 0.50's lobby API answers every request with 404 (its socket.io
# layer builds the HTTP handler before the routes are added, and 4.2 copies the middleware list).
set -euo pipefail
lobbies=${1:-100} players=${2:-16} rounds=${3:-10}
cd "$(dirname "$0")/peer/boardgameio"
[ -d node_modules ] || npm ci --no-audit --no-fund --silent
port=8017
# Every move refused as stale is logged by the server; that is part of what it does.
PORT=$port MAX_ROUNDS=$rounds node server.js > /dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$port/games" >/dev/null && break; sleep 0.1; done
PORT=$port LOBBIES=$lobbies PLAYERS=$players MAX_ROUNDS=$rounds SERVER_PID=$server node load.js 2>/dev/null
