#!/usr/bin/env bash
# What a replay costs: plays one bots-only match (no delay, no clock) on the first server binary
# over a fresh SQLite directory, then serves it with each binary in turn (the same match for
# all) and fetches its replay, as a spectator, FETCHES times: the replay's bytes (and gzipped),
# the wall time of a fetch (min and median) and the server's CPU time per fetch (user + system,
# from /proc, over all fetches). For before/after, give two binaries.
#
#   bench/replay_cost.sh <ruleset> <seats> <options JSON> <bot level> <warroom binary>...
#   bench/replay_cost.sh classic 6 '{}' easy /tmp/warroom-before target/debug/warroom
#   FETCHES=50 bench/replay_cost.sh capitals 4 '{"map_size": "large"}' easy target/debug/warroom
set -euo pipefail
[ $# -ge 5 ] || { sed -n '2,10p' "$0"; exit 2; }
ruleset=$1 seats=$2 options=$3 level=$4
shift 4
fetches=${FETCHES:-30}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

start() { # binary: starts it over $dir, sets $pid and $url
    "$1" --bind 127.0.0.1:0 --data-dir "$dir" >"$dir/log" 2>&1 &
    pid=$!
    for _ in $(seq 150); do grep -aq "listening on" "$dir/log" && break; sleep 0.2; done
    url=$(grep -ao 'http://[0-9.:]*' "$dir/log" | head -1)
}
stop() { kill "$pid"; wait "$pid" 2>/dev/null || true; }
json() { python3 -c "import json, sys; print(json.load(sys.stdin)$1)"; }

start "$1"
token=$(curl -sf -X POST "$url/api/guests" -H 'content-type: application/json' \
    -d '{"name": "Replay bench"}' | json '["token"]')
bots=$(python3 -c "import json; print(json.dumps([{'seat': s, 'level': '$level'} for s in range($seats)]))")
room=$(curl -sf -X POST "$url/api/rooms" -H "authorization: Bearer $token" \
    -H 'content-type: application/json' \
    -d "{\"ruleset\": \"$ruleset\", \"seats\": $seats, \"options\": $options, \"bots\": $bots, \"bot_delay_ms\": 0, \"clock\": \"none\"}" |
    json '["id"]')
until [ "$(curl -sf "$url/api/rooms/$room" | json '["state"]')" = finished ]; do sleep 0.5; done
match=$(curl -sf "$url/api/rooms/$room" | json '["match_id"]')
stop

echo "$ruleset, $seats seats, $level bots, options $options: match $match"
echo "| server | steps | bytes | gzipped | wall min | wall median | server CPU per fetch |"
echo "|---|---|---|---|---|---|---|"
for server in "$@"; do
    start "$server"
    curl -sf "$url/api/matches/$match/replay" -o "$dir/replay.json"
    steps=$(json '["actions"].__len__()' <"$dir/replay.json")
    bytes=$(wc -c <"$dir/replay.json")
    gzipped=$(gzip -c "$dir/replay.json" | wc -c)
    ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
    before=$(ticks)
    walls=$(for _ in $(seq "$fetches"); do
        curl -sf -o /dev/null -w '%{time_total}\n' "$url/api/matches/$match/replay"
    done | sort -n | awk '{a[NR] = $1 * 1000} END {printf "%.1f ms | %.1f ms", a[1], a[int((NR + 1) / 2)]}')
    cpu=$(awk -v t=$(($(ticks) - before)) -v hz="$(getconf CLK_TCK)" -v n="$fetches" \
        'BEGIN {printf "%.1f ms", t * 1000 / hz / n}')
    echo "| $server | $steps | $bytes | $gzipped | $walls | $cpu |"
    stop
done
