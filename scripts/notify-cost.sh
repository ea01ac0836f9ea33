#!/usr/bin/env bash
# What announcing a commit with NOTIFY costs PostgreSQL (docs/store.md, "Cross-process
# wake-up"), measured with pgbench on a scratch database: a transaction shaped like a writer's
# batch (lock three lobbies, insert 16 events, update the lobbies, commit) run by 4 clients (the
# 4 writers), three ways, alternated:
#   plain   no announcement;
#   notify  `SELECT 1 FROM pg_notify(…)` inside the transaction (what Herald does);
#   after   the same statement right after the commit, on its own.
# Loopback only.
#
#   scripts/notify-cost.sh [SECONDS_PER_RUN [ROUNDS]]
#
# HERALD_LOAD_POSTGRES (default postgres://postgres@127.0.0.1:5432) gets a fresh database
# named herald_notify_cost.
set -euo pipefail
seconds=${1:-15} rounds=${2:-2}
base=${HERALD_LOAD_POSTGRES:-postgres://postgres@127.0.0.1:5432}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
psql "$base/postgres" -qc "DROP DATABASE IF EXISTS herald_notify_cost WITH (FORCE)" \
    -c "CREATE DATABASE herald_notify_cost" >/dev/null
psql "$base/herald_notify_cost" -q <<'SQL'
CREATE TABLE lobbies (id int PRIMARY KEY, version bigint NOT NULL);
INSERT INTO lobbies SELECT g, 0 FROM generate_series(1, 1000) g;
CREATE TABLE events (lobby int, seq bigint, kind text, data text, created_at bigint);
SQL
cat > "$work/batch.sql" <<'SQL'
\set a random(1, 1000)
BEGIN;
SELECT id, version FROM lobbies WHERE id IN (:a, (:a % 1000) + 1, ((:a + 1) % 1000) + 1) ORDER BY id FOR UPDATE;
INSERT INTO events SELECT :a, g, 'submitted', '{"player":"0c6a2f5e-1111-4e3b-9a55-4d2f0c6a2f5e"}', 0 FROM generate_series(1, 16) g;
UPDATE lobbies SET version = version + 1 WHERE id IN (:a, (:a % 1000) + 1, ((:a + 1) % 1000) + 1);
SQL
# An announcement of three lobbies, as pg_listen.rs writes it.
announce="SELECT 1 FROM pg_notify('herald_commits', '0123456789abcdef0123456789abcdef|0c6a2f5e-1111-4e3b-9a55-4d2f0c6a2f5e 1234 t|1c6a2f5e-1111-4e3b-9a55-4d2f0c6a2f5e 1234 -|2c6a2f5e-1111-4e3b-9a55-4d2f0c6a2f5e 1234 to');"
{ cat "$work/batch.sql"; echo "COMMIT;"; } > "$work/plain.sql"
{ cat "$work/batch.sql"; echo "$announce"; echo "COMMIT;"; } > "$work/notify.sql"
{ cat "$work/batch.sql"; echo "COMMIT;"; echo "$announce"; } > "$work/after.sql"
for _ in $(seq 1 "$rounds"); do
    for way in plain notify after; do
        printf '%s load %s %-6s ' "$(date -u +%H:%M:%S)" "$(cut -d' ' -f1 /proc/loadavg)" "$way"
        pgbench "$base/herald_notify_cost" -n -c 4 -j 2 -T "$seconds" -f "$work/$way.sql" 2>&1 |
            awk '/latency average/ {l=$4} /^tps/ {t=$3} END {printf "%s tps, latency %s ms\n", t, l}'
    done
done
psql "$base/postgres" -qc "DROP DATABASE herald_notify_cost WITH (FORCE)"
