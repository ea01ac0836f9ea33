#!/usr/bin/env python3
"""What one open connection costs a running Herald, in server memory (RSS).

Usage: connection-memory.py PID PORT COUNT KIND
  KIND: idle (connected, no request), get (one GET of a lobby, then kept alive),
        sse (the lobby's public event stream, kept open).
Opens COUNT connections of that kind, waits for the server to settle, and prints the growth of
the server's RSS divided by COUNT. Python standard library only.
"""
import asyncio
import json
import sys
import urllib.request


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1])
    raise SystemExit("no VmRSS")


async def hold(port, request, opened):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    if request:
        writer.write(request.encode())
        await writer.drain()
        await reader.read(65536)
    opened.append(writer)
    await asyncio.sleep(3600)


async def main(pid, port, count, kind):
    base = f"http://127.0.0.1:{port}/api/v1"
    body = json.dumps({"game": "crossing-swords", "name": "memory", "settings": {}}).encode()
    created = urllib.request.Request(base + "/lobbies", data=body, method="POST",
                                     headers={"content-type": "application/json"})
    lobby = json.loads(urllib.request.urlopen(created).read())["id"]
    path = {"idle": None, "get": f"/api/v1/lobbies/{lobby}",
            "sse": f"/api/v1/lobbies/{lobby}/events"}[kind]
    request = f"GET {path} HTTP/1.1\r\nHost: herald\r\n\r\n" if path else None
    before = rss_kb(pid)
    opened = []
    tasks = [asyncio.create_task(hold(port, request, opened)) for _ in range(count)]
    while len(opened) < count:
        await asyncio.sleep(0.1)
    await asyncio.sleep(2)
    after = rss_kb(pid)
    print(f"{count} connections ({kind}): server RSS {before / 1024:.1f} -> {after / 1024:.1f} MB, "
          f"{(after - before) * 1024 / count:.0f} bytes per connection")
    for task in tasks:
        task.cancel()


if __name__ == "__main__":
    pid, port, count, kind = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    asyncio.run(main(pid, port, count, kind))
