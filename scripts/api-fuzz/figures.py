"""Prints what a fuzzing run reached, read from the server's own SQLite database: lobbies per
game and status, and the events it published (each accepted order is one `submitted`, each
resolved step one `step-resolved`)."""
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
print("Lobbies by game and status:")
for game, status, n in db.execute(
    "SELECT game, status, COUNT(*) FROM lobbies GROUP BY game, status ORDER BY game, status"
):
    print(f"  {game:16} {status:9} {n}")
print("Events published, by kind:")
for kind, n in db.execute("SELECT kind, COUNT(*) FROM events GROUP BY kind ORDER BY kind"):
    print(f"  {kind:16} {n}")
