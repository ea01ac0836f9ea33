#!/usr/bin/env python3
"""Which tables and indexes the pages in SQLite's write-ahead log belong to.

    scripts/wal-pages.py DATABASE WAL_COPY...

Each WAL_COPY is a copy of DATABASE's `-wal` file taken while the server wrote (see
scripts/wal-pages.sh). A frame is counted once, however many copies hold it (a frame is told by
the log's salts and its place); the frames of an old log that a newer one has not yet overwritten
are skipped (their salts differ). Pages are named by the database as it stands afterwards
(SQLite's `dbstat`); a page freed since is counted as '?'.
"""
import collections
import sqlite3
import struct
import sys

HEADER = 32  # the log's header (WAL format: sqlite.org/fileformat.html#the_write_ahead_log)
FRAME_HEADER = 24


def frames(path):
    """(salts, index, page number, commit?) of each valid frame in one copy of the log."""
    with open(path, "rb") as f:
        wal = f.read()
    if len(wal) < HEADER:
        return
    _magic, _version, page_size, _ckpt, salt1, salt2, _c1, _c2 = struct.unpack(
        ">8I", wal[:HEADER]
    )
    offset, index = HEADER, 0
    while offset + FRAME_HEADER + page_size <= len(wal):
        page, db_size, f1, f2 = struct.unpack(">4I", wal[offset : offset + 16])
        if (f1, f2) != (salt1, salt2):
            break
        yield (salt1, salt2), index, page, db_size != 0
        offset += FRAME_HEADER + page_size
        index += 1


def main():
    database, copies = sys.argv[1], sys.argv[2:]
    owner = {
        page: name
        for name, page in sqlite3.connect(database).execute("SELECT name, pageno FROM dbstat")
    }
    seen, by_owner, commits = set(), collections.Counter(), 0
    for copy in copies:
        for salts, index, page, commit in frames(copy):
            if (salts, index) in seen:
                continue
            seen.add((salts, index))
            by_owner[owner.get(page, "?")] += 1
            commits += commit
    total = sum(by_owner.values())
    print(f"frames {total} · commits {commits} · frames per commit {total / max(commits, 1):.1f}")
    for name, count in by_owner.most_common():
        print(f"{count:8d} {100 * count / total:5.1f}%  {name}")


if __name__ == "__main__":
    main()
