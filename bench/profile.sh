#!/usr/bin/env bash
# Where the server's CPU goes per action, one process against a cluster (issue 38, point 3):
# the load generator plays hexdice (50 rooms, 1 spectator each, PostgreSQL) against each setup
# while `perf record` (software clock, DWARF call graphs) samples the server processes for a
# window in the middle of the run. Each sample is filed under the first category below that a
# frame of its stack names (kernel frames count for the code that made the system call), and
# each category's share of the samples, times the run's server CPU per action, gives its
# microseconds per action. What forwarding costs is then the difference between the setups,
# category by category. perf must be installed (Debian: linux-perf); no hardware counters are
# needed.
#
# The room core and rules do the same work for an action in every setup (the same rules, the
# same messages cut per viewer class), so at one pace their microseconds per action measure how
# fast the machine ran during the window; on a shared machine that moves by a fifth within
# minutes. (Not across paces: at 300 actions/s, every action finding the caches cold, the core
# costs three times what it does as fast as allowed, and the yardstick is looser.) The
# server's CPU per action divided by them ("in units of the room core's own work") compares
# setups measured at different moments. It also takes out what slows all code alike when more
# processes share the cores (each evicting the others' caches), so it reads as the work that
# forwarding adds, not as what two nodes on one machine cost.
#
#   bench/profile.sh                       one process, then 2 nodes with clients spread
#   SETUPS="one 2 3" WINDOW=5 DURATION=14 bench/profile.sh
#   SERVER=/tmp/warroom-before RATE=300 bench/profile.sh     another build; a fixed pace
#   KEEP=1 bench/profile.sh                keep perf's data and scripts (printed at the end)
set -euo pipefail
cd "$(dirname "$0")/.."

server=${SERVER:-target/release/warroom}
load=${LOAD:-target/release/load}
setups=(${SETUPS:-one 2})
duration=${DURATION:-14}
window=${WINDOW:-5}
nats_url=${NATS_URL:-nats://127.0.0.1:4222}
work=$(mktemp -d)
server=$(realpath "$server")
pace=()
[ -n "${RATE:-}" ] && pace=(--rate "$RATE")

# The categories, first match wins: the cluster's own code before the runtime and the
# database, so that a query or a wake-up made by the cluster code counts as the cluster's.
categorize() { # perf-script-output server-cpu-us-per-action
    python3 - "$1" "$2" <<'EOF'
import collections, re, sys
categories = [
    ("NATS client (async-nats)", r"async_nats"),
    ("cluster: streams followed", r"cluster::streams"),
    ("cluster: relays", r"cluster::relay"),
    ("cluster: asks, acts, placement", r"cluster::(acts|node|wire|placement|presence|takeover)|room::leasing"),
    ("database", r"sqlx|warroom_server::store::"),
    ("room core and rules", r"warroom_room::|warroom_engine::"),
    ("WebSocket reading and writing", r"tungstenite|extract::ws|warroom_server::ws::|room::outbox"),
    ("room task", r"warroom_server::room::"),
    ("runtime: idle, parked, woken", r"park|epoll_wait"),
    ("runtime: scheduling", r"tokio::"),
]
compiled = [(name, re.compile(rx)) for name, rx in categories]
counts, total, stack = collections.Counter(), 0, []
def file_sample():
    global total
    if not stack:
        return
    total += 1
    for name, rx in compiled:
        if any(rx.search(frame) for frame in stack):
            counts[name] += 1
            return
    counts["other"] += 1
for line in open(sys.argv[1], errors="replace"):
    if not line.strip():
        file_sample()
        stack.clear()
    elif line[0] in " \t":
        stack.append(line.strip())
file_sample()
per_action = float(sys.argv[2])
print(f"| category | samples | share | µs per action |\n|---|---|---|---|")
for name, _ in categories + [("other", None)]:
    n = counts[name]
    print(f"| {name} | {n} | {100 * n / total:.1f} % | {per_action * n / total:.1f} |")
print(f"| all | {total} | 100 % | {per_action:.1f} |")
core = counts["room core and rules"]
if core:
    print(f"\nIn units of the room core's own work per action: {total / core:.2f}")
EOF
}

for setup in "${setups[@]}"; do
    args=()
    label="one process"
    if [ "$setup" != one ]; then
        args=(--nats-url "$nats_url" --nodes "$setup")
        label="$setup nodes, clients spread"
    fi
    "$load" --server "$server" --db postgres --rooms 50 --spectators 1 --ruleset hexdice \
        --duration "$duration" --label "$label" --json-out "$work/$setup.jsonl" \
        --server-log "$work/$setup.log" "${pace[@]}" "${args[@]}" >"$work/$setup.out" 2>&1 &
    generator=$!
    # Setting up takes a second or two; the window starts well inside the measured run.
    sleep $(((duration - window) / 2 + 2))
    pids=$(pgrep -d, -f "^$server" || true)
    [ -n "$pids" ] || { echo "no server process of $server is running" >&2; exit 1; }
    perf record -q -F 2000 -e cpu-clock --call-graph dwarf,16384 -p "$pids" \
        -o "$work/$setup.data" -- sleep "$window" 2>/dev/null
    wait "$generator"
    perf script -i "$work/$setup.data" 2>/dev/null >"$work/$setup.txt"
    read -r per_action accepted <<<"$(python3 -c "import json, sys
row = json.loads(open(sys.argv[1]).readlines()[-1])
print(row['server_cpu_us_per_action'], row['accepted_per_s'])" "$work/$setup.jsonl")"
    echo
    echo "$label: $accepted actions/s, server CPU $per_action µs per action (whole run)"
    echo
    categorize "$work/$setup.txt" "$per_action"
done
echo
echo "Load average (1/5/15 min) now: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "${KEEP:-}" ]; then
    echo "perf data and scripts: $work"
else
    rm -rf "$work"
fi
