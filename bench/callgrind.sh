#!/usr/bin/env bash
# Instructions per accepted action: the server runs under valgrind's callgrind while the load
# generator plays hexdice through it, and the instructions counted during the generator's
# measured window are divided by the actions accepted in it. Unlike CPU seconds, instruction
# counts do not move with what else the machine runs, so two builds compare on a busy machine.
# User space only: the kernel's share (system calls, task switches) is not counted.
#
#   bench/callgrind.sh target/release/warroom                 PostgreSQL, 10 rooms, 20 s
#   DB=sqlite ROOMS=20 DURATION=30 bench/callgrind.sh <server> [<server> ...]
#   RULESET=classic ROOMS=4 DURATION=10 bench/callgrind.sh <server>     another ruleset
#   LOAD=/tmp/b/load KEEP=1 bench/callgrind.sh <server>      keep the dump (callgrind_annotate)
#
# Prints one line per server: instructions, accepted actions, instructions per action.
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 1 ] || { echo "usage: bench/callgrind.sh <warroom binary> [...]" >&2; exit 2; }
load=${LOAD:-target/release/load}
db=${DB:-postgres}
rooms=${ROOMS:-10}
duration=${DURATION:-20}
warmup=${WARMUP:-3}
ruleset=${RULESET:-hexdice}

for server in "$@"; do
    work=$(mktemp -d)
    server=$(realpath "$server")
    cat >"$work/under-callgrind" <<EOF
#!/bin/sh
exec valgrind --tool=callgrind --callgrind-out-file=$work/callgrind.out --dump-instr=no "$server" "\$@"
EOF
    chmod +x "$work/under-callgrind"
    "$load" --server "$work/under-callgrind" --db "$db" --rooms "$rooms" --ruleset "$ruleset" \
        --warmup "$warmup" --duration "$duration" --setup-timeout 300 --label callgrind \
        --json-out "$work/report.jsonl" --server-log "$work/server.log" \
        >"$work/load.out" 2>"$work/load.err" &
    generator=$!
    # The window starts `warmup` seconds after the set-up line; its progress lines count seconds.
    until grep -q 'warming up' "$work/load.err" 2>/dev/null; do
        kill -0 "$generator" 2>/dev/null || { cat "$work/load.err" >&2; exit 1; }
        sleep 0.2
    done
    pid=$(pgrep -f "callgrind-out-file=$work/callgrind.out" | head -n 1)
    sleep "$warmup"
    callgrind_control -z "$pid" >/dev/null 2>&1
    until [ "$(grep -c 'accepted/s' "$work/load.err")" -ge "${duration%.*}" ]; do
        kill -0 "$generator" 2>/dev/null || break
        sleep 0.1
    done
    callgrind_control -d "$pid" >/dev/null 2>&1
    wait "$generator" || true
    dump=$(ls "$work"/callgrind.out.* 2>/dev/null | sort -V | head -n 1)
    instructions=$(awk '/^(summary|totals):/ {print $2; exit}' "$dump")
    accepted=$(grep -o '"accepted":[0-9]*' "$work/report.jsonl" | tail -n 1 | cut -d: -f2)
    printf '%s: %s instructions / %s actions = %.1f k per action (%s, %s rooms, %s s)\n' \
        "$server" "$instructions" "$accepted" \
        "$(echo "$instructions / $accepted / 1000" | bc -l)" "$db" "$rooms" "$duration"
    if [ -n "${KEEP:-}" ]; then
        echo "kept: $dump" >&2
    else
        rm -rf "$work"
    fi
done
