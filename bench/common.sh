# Sourced by bench/run.sh, bench/cluster.sh and bench/relay.sh: what every load script does the
# same way (where the binaries are, and the parts of its section of bench/RESULTS.md).

# Where cargo puts the binaries of build profile $1 (`dev` builds into `debug`).
profile_dir() {
    local target_dir=${CARGO_TARGET_DIR:-target}
    case $1 in
    dev) echo "$target_dir/debug" ;;
    *) echo "$target_dir/$1" ;;
    esac
}

# The start of a section: the heading `### $1 (commit)`, the commit saying whether the code the
# binaries are built from differs from it, then the machine (CPU, cores, RAM, kernel) and the
# load average before the runs ($load_before) and now. It reads git before writing anything, so
# the section being appended (bench/RESULTS.md is under bench/) does not count as a change.
section_head() {
    local revision load_after
    revision="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- server engine protocol testkit bench ||
        echo ', uncommitted changes')"
    load_after=$(cut -d' ' -f1-3 /proc/loadavg)
    printf '\n### %s (%s)\n\n' "$1" "$revision"
    echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores," \
        "$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM, $(uname -r);" \
        "load average (1/5/15 min) $load_before before, $load_after after."
}

# The runs' table, written by the load generator $1 from its JSON lines $2, then the runs that
# did not complete as listed in file $3 (absent or empty when all did).
runs_table() {
    "$1" --markdown "$2"
    if [ -s "$3" ]; then
        echo
        echo "Runs that did not complete:"
        echo
        cat "$3"
    fi
}

# One line per server binary compared in the run (`s1: path (commit …)`), when there are
# several: the array `servers`.
servers_lines() {
    if [ ${#servers[@]} -gt 1 ]; then
        local n=0 server
        for server in "${servers[@]}"; do
            n=$((n + 1))
            echo "s$n: \`$server\`$( [ -f "$server.commit" ] && echo " (commit $(cat "$server.commit"))")."
        done
    fi
}
