#!/usr/bin/env bash
# Measures what this machine itself allows, to compare it with the machine the project's
# targets were measured on: fsync'd SQLite commits (WAL, synchronous=FULL), one at a time and
# 100 rows each, and small PostgreSQL transactions from 1 and 32 clients (pgbench).
#
#   scripts/machine-limits.sh        # PostgreSQL: HERALD_LOAD_POSTGRES (default postgres://postgres@127.0.0.1:5432)
set -euo pipefail
python3 - <<'PY'
import os, sqlite3, tempfile, time
path = os.path.join(tempfile.mkdtemp(), "limits.db")
c = sqlite3.connect(path, isolation_level=None)
c.execute("PRAGMA journal_mode=WAL"); c.execute("PRAGMA synchronous=FULL")
c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)")
n = 3000; t = time.time()
for _ in range(n):
    c.execute("BEGIN"); c.execute("INSERT INTO t (body) VALUES (?)", ("x" * 100,)); c.execute("COMMIT")
dt = time.time() - t
print(f"SQLite, one row per fsync'd commit: {n / dt:,.0f} commits/s ({dt / n * 1000:.3f} ms each)")
t = time.time()
for _ in range(300):
    c.execute("BEGIN")
    for _ in range(100): c.execute("INSERT INTO t (body) VALUES (?)", ("x" * 100,))
    c.execute("COMMIT")
print(f"SQLite, 100 rows per commit: {30000 / (time.time() - t):,.0f} rows/s")
PY
base=${HERALD_LOAD_POSTGRES:-postgres://postgres@127.0.0.1:5432}
export PGOPTIONS="-c client_min_messages=warning"
psql "$base/postgres" -qc "DROP DATABASE IF EXISTS herald_limits WITH (FORCE)" -c "CREATE DATABASE herald_limits" >/dev/null
pgbench -q -i "$base/herald_limits" >/dev/null 2>&1
script=$(mktemp)
echo "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, 1, 1, CURRENT_TIMESTAMP);" > "$script"
for clients in 1 32; do
    tps=$(pgbench -n -f "$script" -c $clients -j 2 -T 5 "$base/herald_limits" 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
    printf "PostgreSQL, one-row transactions from %s client(s): %.0f/s\n" "$clients" "$tps"
done
rm -f "$script"
psql "$base/postgres" -qc "DROP DATABASE herald_limits WITH (FORCE)" >/dev/null
