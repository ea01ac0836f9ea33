#!/usr/bin/env python3
"""Sorts `perf script` samples (with call chains) by the kind of work they were doing.

    perf script -i server.data | scripts/cpu-kinds.py [KIND]

A sample in the kernel is told by its call chain (a socket call, a file call, scheduling);
one in user space by the function it was in (the allocator, SQLite, hyper and its stack,
serde, Herald). With KIND, also lists that kind's busiest functions. See scripts/cpu-kinds.sh.
"""
import collections
import re
import sys

SOCKETS = re.compile(r"writev|sendmsg|sendto|recv|tcp_|sock_|inet_|epoll|__sys_accept")
FILES = re.compile(r"fsync|fdatasync|pwrite|pread|ext4|jbd2|blk_|iomap|filemap|generic_perform_write")
SCHEDULING = re.compile(r"futex|schedule|finish_task_switch|nanosleep|sched_yield")
USER = [
    # SQLite is compiled into the binary (rusqlite's bundled build): told by its own names.
    ("SQLite and rusqlite", re.compile(
        r"sqlite3|rusqlite|^(pager|wal|btree|pcache1?|vdbe|unix)[A-Z]|^(balance_|insertCell|fillInCell"
        r"|moveTo|getAndInitPage|releasePage|accessPayload|getPage|freePage|allocateBtreePage"
        r"|releaseMem|computeNumeric|pageInsertArray|rebuildPage|editPage|dropCell|clearCell)")),
    ("the allocator", re.compile(r"^_?mi_|^_int_malloc|^malloc|^free$|^cfree")),
    ("memory copies and compares (libc)", re.compile(r"^__mem|^mem(cpy|move|cmp|set)")),
    ("SHA-256", re.compile(r"sha2|sha256")),
    ("serde and JSON", re.compile(r"serde|json")),
    ("hyper, axum, tower, tokio, http", re.compile(r"hyper|axum|tower|tokio|mio::|^<?http|httparse|h2::|bytes::")),
    ("Herald's own code", re.compile(r"herald")),
]


def samples(lines):
    """Yields (thread, [(function, object)]) per sample, innermost frame first."""
    thread, frames = None, []
    for line in lines:
        if not line.strip():
            if thread is not None:
                yield thread, frames
            thread, frames = None, []
        elif not line[0].isspace():
            thread, frames = line.split()[0], []
        else:
            parts = line.strip().split(None, 1)
            if len(parts) == 2:
                match = re.match(r"(.*?)\s*\(([^()]*)\)\s*$", parts[1])
                function, obj = (match.group(1), match.group(2)) if match else (parts[1], "")
                frames.append((re.sub(r"\+0x[0-9a-f]+$", "", function), obj))
    if thread is not None:
        yield thread, frames


def kind(frames):
    if not frames:
        return "unknown"
    function, obj = frames[0]
    if "kernel" in obj:
        chain = " ".join(f for f, _ in frames)
        if SOCKETS.search(chain):
            return "kernel: sockets (loopback TCP, epoll)"
        if FILES.search(chain):
            return "kernel: files (the WAL's writes, fsync, reads)"
        if SCHEDULING.search(chain):
            return "kernel: scheduling and futexes"
        return "kernel: other"
    for name, pattern in USER:
        if pattern.search(function):
            return name
    return "other user space"


def main():
    wanted = sys.argv[1] if len(sys.argv) > 1 else None
    kinds, threads, busiest = collections.Counter(), collections.Counter(), collections.Counter()
    total = 0
    for thread, frames in samples(sys.stdin):
        total += 1
        k = kind(frames)
        kinds[k] += 1
        threads["the lobbies' writer" if "sqlite-w" in thread else "every other thread"] += 1
        if wanted and k == wanted and frames:
            busiest[frames[0][0][:100]] += 1
    if not total:
        sys.exit("no samples")
    print(f"{total} samples: " + ", ".join(f"{t} {100 * n / total:.1f}%" for t, n in threads.items()))
    kernel = sum(n for k, n in kinds.items() if k.startswith("kernel"))
    for k, n in kinds.most_common():
        print(f"{100 * n / total:5.1f}%  {k}")
    print(f"{100 * kernel / total:5.1f}%  in the kernel, all told")
    for function, n in busiest.most_common(25):
        print(f"    {100 * n / total:5.2f}%  {function}")


if __name__ == "__main__":
    main()
