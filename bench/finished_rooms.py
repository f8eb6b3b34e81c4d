#!/usr/bin/env python3
"""Memory over many finished matches (issue 13): starts the server over a fresh SQLite file,
opens bots-only rooms (hexdice by default, `easy` bots in every seat, no delay, no clock: each
plays itself to the end),
opens each finished room once more over REST (as a visitor would), and samples the server's RSS
every `--step` matches, after the idle rooms had time to leave memory.

    bench/finished_rooms.py [--server target/release/warroom] [--matches 2000] [--step 250]
                            [--idle-eviction 1] [--settle 3.5] [--ruleset classic --seats 3]
                            [-- extra server flags]

Standard library only; prints one line per sample and a summary for bench/RESULTS.md."""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def call(base, method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read() or b"null")


def metric(base, name):
    with urllib.request.urlopen(base + "/metrics", timeout=60) as answer:
        for line in answer.read().decode().splitlines():
            if line.startswith(name + " "):
                return float(line.split()[1])
    return 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default="target/release/warroom")
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--step", type=int, default=250)
    parser.add_argument("--ruleset", default="hexdice")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--idle-eviction", type=int, default=1)
    parser.add_argument("--settle", type=float, default=None,
                        help="seconds to wait before sampling (default: the idle eviction + 2.5)")
    parser.add_argument("extra", nargs="*")
    args = parser.parse_args()
    settle = args.idle_eviction + 2.5 if args.settle is None else args.settle
    folder = tempfile.mkdtemp(prefix="warroom-finished-")
    server = subprocess.Popen(
        [args.server, "--bind", "127.0.0.1:0", "--data-dir", folder,
         "--room-idle-eviction", str(args.idle_eviction),
         "--rooms-per-ip-per-minute", "1000000", "--guests-per-ip-per-minute", "1000000",
         *args.extra],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        address = re.search(r"http://(\S+)", line).group(1)
        base = f"http://{address}"
        token = call(base, "POST", "/api/guests", {"name": "bench"})["token"]
        samples = []
        opened = []
        started = time.time()
        for n in range(1, args.matches + 1):
            room = call(base, "POST", "/api/rooms", {
                "ruleset": args.ruleset, "seats": args.seats, "clock": "none", "bot_delay_ms": 0,
                "bots": [{"seat": seat, "level": "easy"} for seat in range(args.seats)]}, token)
            opened.append(room["id"])
            if n % args.step == 0:
                # Every match of the batch plays to its end; each finished room is opened once.
                for room_id in opened:
                    while call(base, "GET", f"/api/rooms/{room_id}")["state"] != "finished":
                        time.sleep(0.05)
                time.sleep(settle)
                for room_id in opened:
                    call(base, "GET", f"/api/rooms/{room_id}")
                opened.clear()
                time.sleep(settle)
                kib = rss_kib(server.pid)
                in_memory = metric(base, "warroom_rooms_in_memory")
                evicted = metric(base, "warroom_room_evictions_total")
                samples.append((n, kib))
                print(f"{n:>6} finished matches  RSS {kib / 1024:7.1f} MiB  in memory {in_memory:.0f}"
                      f"  evictions {evicted:.0f}  {time.time() - started:6.1f} s", flush=True)
        first, last = samples[0][1], samples[-1][1]
        print(f"RSS after {samples[0][0]}: {first / 1024:.1f} MiB; after {samples[-1][0]}: "
              f"{last / 1024:.1f} MiB ({(last - first) / first * 100:+.1f} %)")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
