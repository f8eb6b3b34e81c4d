#!/usr/bin/env python3
"""Memory any client can grow, and memory that comes back (issue 38, points 7 and 8). Runs one
`warroom` binary over a fresh SQLite file through four loads and samples its RSS:

  1. finished rooms: opens `--finished` bots-only rooms (easy bots, no delay, no clock; each
     plays itself to the end), restarts the server, then GETs every finished room and its
     replay once (as an anonymous visitor would) and reads the RSS and the rooms in memory;
  2. joins every finished room over WebSockets (which loads it: a room followed over a socket
     runs as a task), closes the sockets, and samples the RSS every `--every` seconds for
     `--watch` seconds (the rooms leave memory after `--idle-eviction`; does the memory come
     back?);
  3. idle sockets: opens `--sockets` WebSockets that say `hello` and nothing more, closes them
     all, and samples the RSS again for `--watch` seconds;
  4. waiting rooms at start-up: opens `--waiting` waiting rooms, restarts the server and reads
     how long it took to answer `/healthz` and its RSS then.

    bench/memory.py --server target/debug/warroom [--finished 2000] [--sockets 10000]
                    [--waiting 20000] [--watch 300] [--every 15] [--idle-eviction 30]

Standard library only; prints one line per sample and a summary for bench/RESULTS.md. Run the
binary of each version to compare (the same machine, one after the other)."""

import argparse
import base64
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

# The REST call, the metric read and the RSS read are finished_rooms.py's (same folder).
from finished_rooms import call, metric, rss_kib


def mib(kib):
    return f"{kib / 1024:7.1f} MiB"


def load_average():
    with open("/proc/loadavg") as loadavg:
        return " ".join(loadavg.read().split()[:3])


class Server:
    """One `warroom` process over `folder`'s SQLite file."""

    def __init__(self, binary, folder, idle_eviction):
        started = time.time()
        self.process = subprocess.Popen(
            [binary, "--bind", "127.0.0.1:0", "--data-dir", folder,
             "--room-idle-eviction", str(idle_eviction),
             "--rooms-per-ip-per-minute", "1000000", "--guests-per-ip-per-minute", "1000000",
             "--max-sockets-per-ip", "1000000"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        self.address = re.search(r"http://(\S+)", line).group(1)
        self.base = f"http://{self.address}"
        # The line comes before the rooms are rebuilt; the server answers once they are.
        while True:
            try:
                call(self.base, "GET", "/healthz")
                break
            except OSError:
                time.sleep(0.05)
        self.ready_after = time.time() - started

    def rss(self):
        return rss_kib(self.process.pid)

    def stop(self):
        self.process.terminate()
        self.process.wait()


def report(summary, line):
    """Adds a line to the summary and prints it at once."""
    summary.append(line)
    print(line, flush=True)


def report_watch(summary, server, args, what):
    """Watches the RSS for --watch seconds and reports every fourth sample and the last."""
    samples = watch(server, args.watch, args.every, what)
    report(summary, f"  then {', '.join(f'{mib(k).strip()} at +{t:.0f} s' for t, k in samples[::4])}"
                    f"; {mib(samples[-1][1]).strip()} at the end")


def watch(server, seconds, every, what):
    """Samples the RSS every `every` seconds for `seconds`; returns the samples."""
    samples = []
    started = time.time()
    while True:
        elapsed = time.time() - started
        kib = server.rss()
        in_memory = metric(server.base, "warroom_rooms_in_memory")
        samples.append((elapsed, kib))
        print(f"  {what} +{elapsed:5.0f} s  RSS {mib(kib)}  rooms in memory {in_memory:.0f}",
              flush=True)
        if elapsed >= seconds:
            return samples
        time.sleep(every)


def open_finished_rooms(server, count):
    token = call(server.base, "POST", "/api/guests", {"name": "bench"})["token"]
    rooms = []
    for _ in range(count):
        room = call(server.base, "POST", "/api/rooms", {
            "ruleset": "hexdice", "seats": 2, "clock": "none", "bot_delay_ms": 0,
            "bots": [{"seat": 0, "level": "easy"}, {"seat": 1, "level": "easy"}]}, token)
        rooms.append(room["id"])
    for room_id in rooms:
        while call(server.base, "GET", f"/api/rooms/{room_id}")["state"] != "finished":
            time.sleep(0.05)
    return rooms


def send_text(sock, text):
    payload = text.encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    if len(payload) < 126:
        head = bytes([0x81, 0x80 | len(payload)])
    else:
        head = bytes([0x81, 0x80 | 126]) + len(payload).to_bytes(2, "big")
    sock.sendall(head + mask + masked)


def websocket(address):
    """A WebSocket that said `hello` (anonymous) and read its `welcome`."""
    host, port = address.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(4096)
    assert head.startswith(b"HTTP/1.1 101"), head
    send_text(sock, '{"type":"hello","token":null}')
    sock.recv(4096)
    return sock


def join_all(address, rooms, per_socket=40):
    """Follows every room (anonymous), `per_socket` rooms per socket (within the message burst),
    reading what the server sends, then closes the sockets."""
    for start in range(0, len(rooms), per_socket):
        sock = websocket(address)
        for room_id in rooms[start:start + per_socket]:
            send_text(sock, json.dumps({"type": "join", "room": room_id}))
        sock.settimeout(0.2)
        deadline = time.time() + 3
        while time.time() < deadline:
            try:
                if not sock.recv(65536):
                    break
            except socket.timeout:
                break
        sock.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default="target/debug/warroom")
    parser.add_argument("--finished", type=int, default=2000)
    parser.add_argument("--sockets", type=int, default=10000)
    parser.add_argument("--waiting", type=int, default=20000)
    parser.add_argument("--watch", type=int, default=300)
    parser.add_argument("--every", type=int, default=15)
    parser.add_argument("--idle-eviction", type=int, default=30)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="warroom-memory-")
    print(f"{args.server}, load average {load_average()}", flush=True)
    summary = []

    server = Server(args.server, folder, args.idle_eviction)
    started = time.time()
    rooms = open_finished_rooms(server, args.finished)
    print(f"{len(rooms)} finished rooms opened in {time.time() - started:.0f} s", flush=True)
    server.stop()

    server = Server(args.server, folder, args.idle_eviction)
    before = server.rss()
    started = time.time()
    for room_id in rooms:
        call(server.base, "GET", f"/api/rooms/{room_id}")
        match_id = call(server.base, "GET", f"/api/rooms/{room_id}")["match_id"]
        call(server.base, "GET", f"/api/matches/{match_id}/replay")
    took = time.time() - started
    after = server.rss()
    in_memory = metric(server.base, "warroom_rooms_in_memory")
    report(summary, f"finished rooms: RSS {mib(before)} at start, {mib(after)} after "
                    f"{len(rooms)} rooms read twice and their replays once ({took:.1f} s); "
                    f"{in_memory:.0f} rooms in memory")
    before = server.rss()
    join_all(server.address, rooms)
    time.sleep(1)
    joined = server.rss()
    in_memory = metric(server.base, "warroom_rooms_in_memory")
    report(summary, f"joined rooms: RSS {mib(before)} before, {mib(joined)} after every room was "
                    f"joined over a socket ({in_memory:.0f} rooms in memory), sockets closed")
    report_watch(summary, server, args, "after the joins")

    before = server.rss()
    sockets = [websocket(server.address) for _ in range(args.sockets)]
    time.sleep(2)
    opened = server.rss()
    for sock in sockets:
        sock.close()
    sockets.clear()
    time.sleep(2)
    closed = server.rss()
    report(summary, f"idle sockets: RSS {mib(before)} before, {mib(opened)} with {args.sockets} "
                    f"open, {mib(closed)} 2 s after they closed")
    report_watch(summary, server, args, "after the sockets")
    server.stop()

    if args.waiting:
        server = Server(args.server, folder, args.idle_eviction)
        token = call(server.base, "POST", "/api/guests", {"name": "waiter"})["token"]
        for _ in range(args.waiting):
            call(server.base, "POST", "/api/rooms", {"ruleset": "hexdice", "seats": 2}, token)
        server.stop()
        server = Server(args.server, folder, args.idle_eviction)
        in_memory = metric(server.base, "warroom_rooms_in_memory")
        report(summary, f"waiting rooms: {args.waiting} stored; after a restart /healthz "
                        f"answered after {server.ready_after:.1f} s with RSS {mib(server.rss())} "
                        f"and {in_memory:.0f} rooms in memory")
        server.stop()

    print(f"load average at the end {load_average()}")
    print("\n".join(summary))


if __name__ == "__main__":
    sys.exit(main())
