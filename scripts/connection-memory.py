#!/usr/bin/env python3
"""What one open connection costs a running Herald, in server memory (RSS).

Usage: connection-memory.py PID PORT COUNT KIND
  KIND: idle      (connected, no request),
        get       (one GET of a lobby, then kept alive),
        sse       (the lobby's public event stream, kept open),
        player    (a bot waiting for its next prompt: a player's own stream, `me/events`, in
                   started lobbies of 16 players; the stream's first prompt is read, then it
                   is held open and idle),
        player-h2 (the same COUNT streams over HTTP/2 with prior knowledge, multiplexed
                   STREAMS_PER_CONNECTION to a connection, 100 unless
                   HERALD_MEMORY_STREAMS_PER_CONNECTION says otherwise).
Sets up what the kind needs first (lobbies, players), then opens COUNT connections (streams,
for player-h2) of that kind, waits for the server to settle, and prints the growth of the
server's RSS divided by COUNT. Python standard library only, but for player-h2, which needs
the `h2` package from PyPI (`pip install h2`); loopback only.
"""
import asyncio
import json
import os
import sys
import urllib.request

# Seats per lobby for the player kind (Crossing Swords seats up to 16).
SEATS = 16


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1])
    raise SystemExit("no VmRSS")


def call(base, method, path, body=None, token=None):
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    return json.loads(urllib.request.urlopen(request).read())


def create_lobby(base, settings):
    body = {"game": "crossing-swords", "name": "memory", "settings": settings}
    created = call(base, "POST", "/lobbies", body)
    return created["id"], created["host_token"]


def seated_players(base, count):
    """(lobby, player token) for COUNT players in started lobbies of SEATS players."""
    seated = []
    while len(seated) < count:
        lobby, host = create_lobby(base, {"max_players": SEATS})
        for seat in range(SEATS):
            joined = call(base, "POST", f"/lobbies/{lobby}/players", {"name": f"Bot {seat}"})
            seated.append((lobby, joined["player_token"]))
        call(base, "POST", f"/lobbies/{lobby}/start", token=host)
    return seated[:count]


async def hold(port, request, until, opened):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    if request:
        writer.write(request.encode())
        await writer.drain()
        received = b""
        while until not in received:
            chunk = await reader.read(65536)
            if not chunk:
                raise SystemExit(f"the server closed a connection: {received[:200]!r}")
            received += chunk
    opened.append(writer)
    await asyncio.sleep(3600)


async def hold_h2(port, players, opened):
    """One HTTP/2 connection carrying each player's `me/events`; counts a stream in `opened`
    once its first prompt has arrived, then keeps reading (and answering pings)."""
    import h2.config
    import h2.connection
    import h2.events
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    # Room for every stream's first events at once: the server need not wait for updates.
    conn.increment_flow_control_window(1 << 24)
    received = {}
    for lobby, token in players:
        stream = conn.get_next_available_stream_id()
        received[stream] = b""
        conn.send_headers(stream, [
            (":method", "GET"), (":scheme", "http"), (":authority", "herald"),
            (":path", f"/api/v1/lobbies/{lobby}/me/events"),
            ("authorization", f"Bearer {token}"),
        ], end_stream=True)
    writer.write(conn.data_to_send())
    await writer.drain()
    while True:
        data = await reader.read(65536)
        if not data:
            raise SystemExit("the server closed an HTTP/2 connection")
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.DataReceived):
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                if received[event.stream_id] is not None:
                    received[event.stream_id] += event.data
                    if b"event: prompt" in received[event.stream_id]:
                        received[event.stream_id] = None
                        opened.append(event.stream_id)
            elif isinstance(event, (h2.events.StreamReset, h2.events.StreamEnded,
                                    h2.events.ConnectionTerminated)):
                raise SystemExit(f"an HTTP/2 stream or connection ended: {event}")
        writer.write(conn.data_to_send())
        await writer.drain()


def requests(base, count, kind):
    """The request each connection sends (None: none) and what to read before holding it."""
    if kind == "idle":
        return [(None, b"")] * count
    if kind == "player":
        return [(f"GET /api/v1/lobbies/{lobby}/me/events HTTP/1.1\r\nHost: herald\r\n"
                 f"Authorization: Bearer {token}\r\n\r\n", b"event: prompt")
                for lobby, token in seated_players(base, count)]
    lobby, _ = create_lobby(base, {})
    path = {"get": f"/api/v1/lobbies/{lobby}", "sse": f"/api/v1/lobbies/{lobby}/events"}[kind]
    return [(f"GET {path} HTTP/1.1\r\nHost: herald\r\n\r\n", b"\r\n\r\n")] * count


async def main(pid, port, count, kind):
    base = f"http://127.0.0.1:{port}/api/v1"
    if kind == "player-h2":
        per = int(os.environ.get("HERALD_MEMORY_STREAMS_PER_CONNECTION", "100"))
        seated = seated_players(base, count)
        planned = [seated[i:i + per] for i in range(0, count, per)]
    else:
        planned = requests(base, count, kind)
    await asyncio.sleep(1)
    before = rss_kb(pid)
    opened = []
    if kind == "player-h2":
        tasks = [asyncio.create_task(hold_h2(port, players, opened)) for players in planned]
    else:
        tasks = [asyncio.create_task(hold(port, request, until, opened))
                 for request, until in planned]
    while len(opened) < count:
        failed = [task for task in tasks if task.done()]
        if failed:
            failed[0].result()
        await asyncio.sleep(0.1)
    await asyncio.sleep(2)
    after = rss_kb(pid)
    unit = "connection"
    if kind == "player-h2":
        unit = "stream"
        print(f"{count} streams on {len(planned)} HTTP/2 connections")
    print(f"{count} {unit}s ({kind}): server RSS {before / 1024:.1f} -> {after / 1024:.1f} MB, "
          f"{(after - before) * 1024 / count:.0f} bytes per {unit}")
    for task in tasks:
        task.cancel()


if __name__ == "__main__":
    pid, port, count, kind = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    asyncio.run(main(pid, port, count, kind))
