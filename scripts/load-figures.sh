#!/usr/bin/env bash
# Measures Herald under load: starts a production-build server on a fresh database, runs `herald load`
# against it, prints the report and stops the server. Loopback only.
#
#   scripts/load-figures.sh sqlite crossing-swords 100 16 20
#   scripts/load-figures.sh postgres bst 1000 2 10
#
# Arguments: backend (sqlite|postgres) game lobbies players max-rounds [connections [drive]],
# drive being poll (the default), streams (a bot per player on its own event stream) or profiles
# (one profile per seat of a lobby, holding it in every lobby, on one stream for all of them).
# PostgreSQL: HERALD_LOAD_POSTGRES (default postgres://postgres@127.0.0.1:5432) gets a fresh
# database named herald_load.
# HERALD_LOAD_WEBHOOKS=1 gives every lobby a webhook to a receiver inside the load generator on
# 127.0.0.1 (the webhook benchmark of docs/performance.md); the server then allows private targets for it.
# HERALD_LOAD_WEBHOOK_EVENTS (comma-separated) names its events instead of the load
# generator's default (player-joined,started,round-resolved,finished).
# HERALD_LOAD_MESSAGES=1 plays with table talk: public press in every lobby, and every bot says
# something to everyone before each answer (`herald load --messages`).
# HERALD_LOAD_PROFILES=1 binds every seat to a profile of its own (`herald load --profiles`);
# HERALD_LOAD_RATED=1 also rates every lobby (`herald load --rated`).
set -euo pipefail
backend=$1 game=$2 lobbies=$3 players=$4 rounds=$5 connections=${6:-256} drive=${7:-poll}
cd "$(dirname "$0")/.."
# A bot per player on its own stream holds a connection each (16,000 at 1,000 x 16).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
port=3217
webhooks=()
if [ "${HERALD_LOAD_WEBHOOKS:-}" = 1 ]; then
    webhooks=(--webhooks)
    [ -n "${HERALD_LOAD_WEBHOOK_EVENTS:-}" ] && webhooks+=(--webhook-events "$HERALD_LOAD_WEBHOOK_EVENTS")
    export HERALD_ALLOW_PRIVATE_TARGETS=1
fi
options=()
[ "${HERALD_LOAD_MESSAGES:-}" = 1 ] && options=(--messages)
[ "${HERALD_LOAD_PROFILES:-}" = 1 ] && options+=(--profiles)
[ "${HERALD_LOAD_RATED:-}" = 1 ] && options+=(--rated)
. scripts/lib/fresh-server.sh
start_fresh_server "$backend" "$port"
# On PostgreSQL the database works for the server on the same cores: its CPU is counted too.
count_db=()
[ "$backend" = postgres ] && count_db=(--database-processes postgres)
echo "== $backend · $game · $lobbies lobbies × $players players · max $rounds rounds · $connections in flight${webhooks:+ · a webhook on every lobby}${options:+ · ${options[*]}}"
# The load generator shares the machine: its own CPU time is printed last (with GNU time).
timed=()
[ -x /usr/bin/time ] && timed=(/usr/bin/time -f "load generator CPU: %U s user + %S s system in %e s")
"${timed[@]}" target/production/herald load --url "http://127.0.0.1:$port" --game "$game" --lobbies "$lobbies" \
    --players "$players" --max-rounds "$rounds" --connections "$connections" --drive "$drive" --server-pid "$server" "${count_db[@]}" "${webhooks[@]}" "${options[@]}"
