#!/usr/bin/env bash
# The standard load scenarios against PostgreSQL and SQLite, appended as a section to
# bench/RESULTS.md (figures, machine, load average, command). Each scenario runs the load
# generator (bench/src/bin/load.rs) against a freshly started release server over a fresh
# database; (a) and (c) also drive the echo baseline (bench/src/bin/echo_server.rs) in the same
# run, so their figures are ratios to the bare WebSocket stack.
#
#   bench/run.sh            every scenario (a b c d e) on both databases, ~8 minutes
#   bench/run.sh c d        a subset
#   DBS=sqlite bench/run.sh e     one database
#   DURATION=10 NO_BUILD=1 RESULTS=/tmp/x.md bench/run.sh
#   LOAD=target/debug/load ECHO_SERVER=target/debug/echo_server NO_BUILD=1 bench/run.sh c
#                           other builds of the generator and the echo server
#   SERVERS="/tmp/warroom-before target/release/warroom" bench/run.sh c
#                           before/after: each scenario runs every binary in turn, labelled by
#                           its position (s1, s2, ...), so the figures share one run
#
# Scenarios: (a) 10,000 idle connections (memory); (b) 2,000 rooms of 2–6 seats, mixed
# rulesets; (c) maximum durable throughput, 100 hexdice rooms; (d) latency at a fixed 2,000
# actions/s, 100 hexdice rooms; (e) 200 spectators on one classic match (and the same match
# without spectators, to compare the players' ack latency).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh

scenarios=("$@")
[ ${#scenarios[@]} -eq 0 ] && scenarios=(a b c d e)
dbs=(${DBS:-postgres sqlite})
duration=${DURATION:-20}
results=${RESULTS:-bench/RESULTS.md}
postgres_url=${POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}

# 10,000 sockets on each side, plus the database's.
ulimit -n "$(ulimit -Hn)" || true
if [ "$(ulimit -n)" -lt 12000 ]; then
    echo "warning: ulimit -n is $(ulimit -n); scenario (a) needs about 10,100" >&2
fi

if [ -z "${NO_BUILD:-}" ]; then
    nice -n 5 cargo build --release -p warroom-server -p warroom-bench
fi
load=${LOAD:-target/release/load}
servers=(${SERVERS:-target/release/warroom})
echo_server=${ECHO_SERVER:-target/release/echo_server}

work=$(mktemp -d)
jsonl=$work/results.jsonl
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u +%Y-%m-%dT%H:%MZ)

run() { # label db args...
    local label=$1 db=$2 n=0 name server
    shift 2
    for server in "${servers[@]}"; do
        n=$((n + 1))
        name=$label
        [ ${#servers[@]} -gt 1 ] && name="$label s$n"
        echo "--- $name on $db ($server)" >&2
        "$load" --server "$server" --db "$db" --postgres-url "$postgres_url" --label "$name" \
            --json-out "$jsonl" --server-log "$work/$label-$n-$db.log" "$@" \
            >"$work/$label-$n-$db.out" 2>"$work/$label-$n-$db.err" ||
            echo "- $name on $db failed: $(grep -m1 '^Error' "$work/$label-$n-$db.err")" >>"$work/failed"
        grep -v '^setting up' "$work/$label-$n-$db.err" >&2 || true
        grep -v '^{' "$work/$label-$n-$db.out" >&2 || true
    done
}

for db in "${dbs[@]}"; do
    for s in "${scenarios[@]}"; do
        case $s in
        a) run a-idle-10k "$db" --scenario idle --connections 10000 --per-room 50 \
            --setup-concurrency 64 --warmup 3 --duration 5 --echo-server "$echo_server" ;;
        b) run b-2000-rooms-mixed "$db" --rooms 2000 --ruleset mixed --setup-concurrency 64 --setup-timeout 240 \
            --duration "$duration" ;;
        c) run c-max-100-hexdice "$db" --rooms 100 --ruleset hexdice --duration "$duration" \
            --echo-server "$echo_server" ;;
        d) run d-rate-2000 "$db" --rooms 100 --ruleset hexdice --rate 2000 --duration "$duration" ;;
        e) run e-classic-0-spectators "$db" --rooms 1 --ruleset classic --seats 4 \
            --duration $((duration / 2))
           run e-classic-200-spectators "$db" --rooms 1 --ruleset classic --seats 4 \
            --spectators 200 --duration $((duration / 2)) ;;
        *) echo "unknown scenario $s (a b c d e)" >&2; exit 2 ;;
        esac
    done
done

{
    section_head "Load run $started"
    echo "Command: \`bench/run.sh ${scenarios[*]}\` (DBS=\"${dbs[*]}\", DURATION=$duration)."
    servers_lines
    echo
    runs_table "$load" "$jsonl" "$work/failed"
} >>"$results"
echo "appended to $results; raw JSON lines and logs in $work" >&2
