#!/usr/bin/env bash
# Issue 12: what spectators following a room through another node cost (docs/SCALING.md, "Nodes
# talking over NATS"), before and after the room's messages went once per viewer class instead
# of once per connection. Two nodes over a fresh PostgreSQL database and a NATS server of this
# script's own (with monitoring, to count its messages); one classic room of 3 seats, created
# through node 0 (the first node: with no lease anywhere it is placed there) and played as fast
# as allowed (seat k on node k mod 2), SPECTATORS spectators all on node 1. The load generator
# (bench/src/bin/load.rs) reports NATS messages in and out per accepted action
# (`--nats-monitor`) and each node's CPU per accepted action (node 0 serves the room).
#
#   BEFORE=/path/to/warroom/of/an/older/build bench/relay.sh
#   SPECTATORS=200 DURATION=10 NO_BUILD=1 RESULTS=/tmp/x.md BEFORE=... bench/relay.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh

profile=${PROFILE:-dev}
bin=$(profile_dir "$profile")
spectators=${SPECTATORS:-200}
duration=${DURATION:-10}
results=${RESULTS:-bench/RESULTS.md}
postgres_url=${POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}
nats_port=${NATS_PORT:-4333}
monitor_port=${NATS_MONITOR_PORT:-8333}

if [ -z "${NO_BUILD:-}" ]; then
    nice -n 5 cargo build --profile "$profile" -p warroom-server -p warroom-bench
fi
load=$bin/load
after=$bin/warroom

work=$(mktemp -d)
nats-server -a 127.0.0.1 -p "$nats_port" -m "$monitor_port" >"$work/nats.log" 2>&1 &
nats_pid=$!
trap 'kill $nats_pid 2>/dev/null || true' EXIT
# The NATS server must be ours and answer (its INFO line on the client port, /healthz on the
# monitoring port) before anything runs; a port already taken makes it exit at once.
nats_answers() {
    kill -0 "$nats_pid" 2>/dev/null || return 1
    local info
    { exec 3<>"/dev/tcp/127.0.0.1/$nats_port"; } 2>/dev/null || return 1
    read -r -t 2 info <&3 || info=
    exec 3<&- 3>&-
    [[ $info == INFO* ]] || return 1
    curl -sf "http://127.0.0.1:$monitor_port/healthz" >/dev/null
}
for _ in $(seq 50); do
    nats_answers && break
    sleep 0.1
done
if ! nats_answers; then
    echo "bench/relay.sh: the NATS server it started (nats-server -p $nats_port -m $monitor_port)" \
        "does not answer; its log:" >&2
    cat "$work/nats.log" >&2
    exit 1
fi
jsonl=$work/results.jsonl
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u +%Y-%m-%dT%H:%MZ)

run() { # label server
    echo "--- $1" >&2
    "$load" --server "$2" --db postgres --postgres-url "$postgres_url" --label "$1" \
        --nats-url "nats://127.0.0.1:$nats_port" --nats-monitor "127.0.0.1:$monitor_port" \
        --nodes 2 --rooms 1 --ruleset classic --seats 3 --spectators "$spectators" \
        --spectators-node 1 --duration "$duration" --json-out "$jsonl" \
        --server-log "$work/$(echo "$1" | tr ' ,/' '___').log" >"$work/out" 2>"$work/err" ||
        echo "- $1 failed: $(grep -m1 '^Error' "$work/err")" >>"$work/failed"
    grep -v '^setting up' "$work/err" >&2 || true
}

if [ -n "${BEFORE:-}" ]; then
    run "before: one NATS message per connection" "$BEFORE"
fi
run "after: one NATS message per viewer class" "$after"

{
    section_head "Spectators on another node, run $started"
    echo "Command: \`BEFORE=${BEFORE:-} bench/relay.sh\` (PROFILE=$profile, SPECTATORS=$spectators," \
        "DURATION=$duration): 2 nodes, 1 classic room of 3 seats served by node 0 (seats 0 and 2" \
        "on node 0, seat 1 on node 1), $spectators spectators on node 1, PostgreSQL, a NATS server" \
        "of its own; NATS messages counted by that server (\`/varz\`), CPU per node."
    echo
    runs_table "$load" "$jsonl" "$work/failed"
} >>"$results"
echo "appended to $results; raw JSON lines and logs in $work" >&2
