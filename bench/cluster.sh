#!/usr/bin/env bash
# Issue 12: the same load against one warroom process and against clusters of 1, 2 and 3 nodes
# (docs/SCALING.md), appended as a section to bench/RESULTS.md (figures, command, profile,
# machine, load average). Every run starts real processes over a fresh PostgreSQL database and
# the NATS server at $NATS_URL; the load generator (bench/src/bin/load.rs, `--nodes`) spreads
# each room's clients over the nodes (seat k of room n on node (n + k) mod nodes), so with two
# or more nodes most rooms have clients whose commands are forwarded to the room's owner and
# whose messages come back over NATS. All processes share this machine: on 2 cores more nodes
# cannot be faster, and the figures show what forwarding costs, not a speed-up.
#
#   bench/cluster.sh                       max throughput and a paced rate; 1 process, 1 2 3 nodes
#   RATES="300 1500 3000" MODES=rate ...   several paced rates (default RATE, 300), each against
#                                          one process at the same rate ("times one process")
#   PROFILE=release bench/cluster.sh       (default: dev, which is optimised: opt-level 1, deps 2)
#   NODES="1 3" MODES=max DURATION=10 ROOMS=50 RATES=300 NO_BUILD=1 RESULTS=/tmp/x.md bench/cluster.sh
#   ROUNDS=3 ...                           every run three times over, in rounds (the median ratio
#                                          to one process per setup in a table of its own)
#   SERVERS="/tmp/warroom-before target/release/warroom" PROFILE=release bench/cluster.sh
#                                          before/after: each run starts every binary in turn,
#                                          labelled by its position (s1, s2, ...), in one run
#   LOAD=/tmp/load ...                     another build of the load generator
#   CLIENTS=spread ...                     (default "spread together") with 2 or more nodes, each
#                                          run once with clients spread (forwarded over NATS) and
#                                          once with every client of a room on its node
#                                          (`--clients together`: the nodes' cost without forwarding)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh

profile=${PROFILE:-dev}
bin=$(profile_dir "$profile")
nodes_list=(${NODES:-1 2 3})
modes=(${MODES:-max rate})
rooms=${ROOMS:-50}
rates=(${RATES:-${RATE:-300}})
duration=${DURATION:-20}
results=${RESULTS:-bench/RESULTS.md}
nats_url=${NATS_URL:-nats://127.0.0.1:4222}
postgres_url=${POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}
clients_list=(${CLIENTS:-spread together})

nats_authority=${nats_url#nats://}
nats_authority=${nats_authority%/}
if ! timeout 2 bash -c "exec 3<>/dev/tcp/${nats_authority%:*}/${nats_authority##*:}" 2>/dev/null; then
    echo "NATS does not answer at $nats_url (start nats-server -a 127.0.0.1 -p 4222)" >&2
    exit 1
fi
if [ -z "${NO_BUILD:-}" ]; then
    nice -n 5 cargo build --profile "$profile" -p warroom-server -p warroom-bench
fi
load=${LOAD:-$bin/load}
servers=(${SERVERS:-$bin/warroom})

work=$(mktemp -d)
jsonl=$work/results.jsonl
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u +%Y-%m-%dT%H:%MZ)

run() { # label args...
    local label=$1 n=0 name server
    shift
    for server in "${servers[@]}"; do
        n=$((n + 1))
        name=$label
        [ ${#servers[@]} -gt 1 ] && name="$label s$n"
        echo "--- $name" >&2
        "$load" --server "$server" --db postgres --postgres-url "$postgres_url" --label "$name" \
            --rooms "$rooms" --ruleset hexdice --spectators 1 --duration "$duration" \
            --json-out "$jsonl" --server-log "$work/$(echo "$name" | tr ' ,/' '___').log" "$@" \
            >"$work/out" 2>"$work/err" ||
            echo "- $name failed: $(grep -m1 '^Error' "$work/err")" >>"$work/failed"
        grep -v '^setting up' "$work/err" >&2 || true
    done
}

# The paces: as fast as allowed (`max`), and each of $rates (`rate`).
paces=()
for mode in "${modes[@]}"; do
    case $mode in
    max) paces+=(max) ;;
    rate) paces+=("${rates[@]}") ;;
    *) echo "unknown mode $mode (max rate)" >&2; exit 2 ;;
    esac
done

# Every pace's runs, ROUNDS times over: on a shared machine one round can be off by a third,
# and each cluster run is compared with its own round's run of one process.
paces=($(for _ in $(seq "${ROUNDS:-1}"); do echo "${paces[@]}"; done))

for each in "${paces[@]}"; do
    if [ "$each" = max ]; then
        name=max pace=()
    else
        name="$each/s" pace=(--rate "$each")
    fi
    run "$name, one process" "${pace[@]}"
    for n in "${nodes_list[@]}"; do
        for clients in "${clients_list[@]}"; do
            if [ "$n" -eq 1 ]; then
                [ "$clients" = spread ] || continue
                run "$name, 1 node" --nats-url "$nats_url" --nodes 1 "${pace[@]}"
            else
                run "$name, $n nodes, clients $clients" --nats-url "$nats_url" --nodes "$n" \
                    --clients "$clients" "${pace[@]}"
            fi
        done
    done
done

{
    section_head "Cluster run $started"
    echo "Command: \`${SERVERS:+SERVERS=\"$SERVERS\" }bench/cluster.sh\` (PROFILE=$profile, NODES=\"${nodes_list[*]}\", MODES=\"${modes[*]}\"," \
        "ROOMS=$rooms, RATES=\"${rates[*]}\", DURATION=$duration, ROUNDS=${ROUNDS:-1}): $rooms hexdice rooms of 2 seats and 1" \
        "spectator each, PostgreSQL, NATS at $nats_url; \"one process\" is the server without" \
        "\`--nats-url\`, \"N nodes\" the cluster, clients spread over its nodes (forwarded) or together" \
        "on their room's node (\`--clients together\`, CLIENTS=\"${clients_list[*]}\"). Server CPU and RSS" \
        "are the nodes' sums. Everything shares $(nproc) cores: more nodes show the cost of" \
        "forwarding, not a speed-up. \"Times one process\" compares a cluster run's server CPU per" \
        "action with that of one process at the same pace (the run before it); with rounds, the last" \
        "table gives each setup's median over the rounds."
    servers_lines
    echo
    runs_table "$load" "$jsonl" "$work/failed"
} >>"$results"
echo "appended to $results; raw JSON lines and logs in $work" >&2
