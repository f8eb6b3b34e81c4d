#!/usr/bin/env bash
# Issue 38: what a node's death (SIGKILL) and a frozen node (SIGSTOP) cost the clients following
# its rooms from other nodes (docs/SCALING.md, "When a node stops or dies"). Runs the e2e test
# module `cluster_failover` (tests/e2e/cluster_failover.rs) at bench scale: three real nodes
# with a 2 s lease over a fresh PostgreSQL database and the NATS server at $NATS_URL, ROOMS
# classic rooms played by the server's bots and watched by a spectator on each node that does
# not serve them; the node serving the most rooms fails, RUNS times for each fault. Per
# spectator of a moved room: from the new lease to being told the room moved (`error`
# `room_moved`, then the close), and from the new owner's first commit (read from the database
# every 25 ms, the earlier read: an upper bound) to the spectator's first new seq, after it
# joined again with its last seq. Appends the p50/p99 to bench/RESULTS.md.
#
#   bench/failover.sh                     60 rooms, 3 runs of each fault
#   ROOMS=20 RUNS=1 RESULTS=/tmp/x.md bench/failover.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh

rooms=${ROOMS:-60}
runs=${RUNS:-3}
results=${RESULTS:-bench/RESULTS.md}
export WARROOM_TEST_NATS_URL=${NATS_URL:-nats://127.0.0.1:4222}
export WARROOM_TEST_POSTGRES_URL=${POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
export WARROOM_FAILOVER_ROOMS=$rooms WARROOM_FAILOVER_RUNS=$runs

work=$(mktemp -d)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u +%Y-%m-%dT%H:%MZ)
# One fault after the other (each test starts its own three nodes).
nice -n 5 cargo test -p warroom-server --test e2e -- cluster_failover --nocapture --test-threads 1 \
    2>&1 | tee "$work/out"

{
    section_head "Failover run $started"
    echo "Command: \`bench/failover.sh\` (ROOMS=$rooms, RUNS=$runs): the e2e module"
    echo "\`cluster_failover\` at this scale, dev profile, 3 nodes with a 2 s lease, PostgreSQL and"
    echo "NATS on this machine. Times in ms, per spectator on a live node of a room the failed node"
    echo "served: *told* from the new lease (its expiry minus its length, PostgreSQL's clock) to"
    echo "the \`room_moved\` error or close; *first seq* from the new owner's first commit (the read"
    echo "of the database before the one that saw it) to the spectator's first new seq."
    echo
    echo '```'
    grep -o 'failover .*' "$work/out" || echo "(no figures: the runs failed, see the test output)"
    echo '```'
} >>"$results"
echo "appended to $results" >&2
