#!/usr/bin/env bash
# Two builds of `cachescope proxy` on the same cached hit, alternating, with the proxy's CPU per
# request — a figure less at the mercy of the machine's noise than requests per second.
#
#   Benchmarks/proxy-compare-builds.sh BEFORE AFTER [ROUNDS] [SECONDS]     (defaults 3 and 8)
#   PROXY_OPTIONS=--hits-on-event-loop Benchmarks/proxy-compare-builds.sh BEFORE AFTER
#
# BEFORE and AFTER are cachescope executables. One demo origin; each round starts BEFORE's
# proxy, warms `/large/1` (1 KiB, max-age=60), runs `wrk -t2 -c64` for SECONDS, reads the
# proxy's utime+stime from /proc, stops it, then does the same with AFTER — on the same port,
# so both see the same loopback path. Prints one line per run: requests/s, p99, CPU µs a
# request. Quote the medians per build and `vmstat 5`'s steal taken beside it.
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 2 ] || { echo "usage: $0 BEFORE AFTER [ROUNDS] [SECONDS]" >&2; exit 64; }
before="$1" after="$2" rounds="${3:-3}" seconds="${4:-8}"
for binary in "$before" "$after"; do [ -x "$binary" ] || { echo "$0: $binary is not an executable" >&2; exit 64; }; done
script=proxy-compare-builds tools="wrk curl" packages="wrk curl"
CACHESCOPE="$before" . Benchmarks/proxy-workload.sh

origin_port="$(free_port)"
proxy_port="$(free_port "$origin_port")"
"$before" origin --listen "127.0.0.1:$origin_port" >"$work/origin.out" 2>&1 &
pids+=($!)
tick="$(getconf CLK_TCK)"

# One measured run of `binary`'s proxy: "requests/s p99 µs-per-request".
run() {
    local binary="$1"
    # shellcheck disable=SC2086
    "$binary" proxy --origin "http://127.0.0.1:$origin_port" --listen "127.0.0.1:$proxy_port" --no-ui ${PROXY_OPTIONS:-} \
        >/dev/null 2>"$work/proxy.err" &
    local pid=$!
    for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$proxy_port/large/1" && break; sleep 0.1; done
    curl -s -o /dev/null "http://127.0.0.1:$proxy_port/large/1"
    local cpu_before output cpu_after
    cpu_before="$(awk '{ print $14 + $15 }' "/proc/$pid/stat")"
    output="$(wrk -t2 -c64 -d"${seconds}s" --latency "http://127.0.0.1:$proxy_port/large/1")"
    cpu_after="$(awk '{ print $14 + $15 }' "/proc/$pid/stat")"
    kill "$pid"; wait "$pid" 2>/dev/null || true
    local requests rps p99
    requests="$(awk '/requests in/ { print $1 }' <<<"$output")"
    rps="$(awk '/Requests\/sec/ { print $2 }' <<<"$output")"
    p99="$(awk '$1 == "99%" { print $2 }' <<<"$output")"
    echo "$rps $p99 $(python3 -c "print(round(($cpu_after - $cpu_before) / $tick * 1e6 / $requests, 1))")"
}

printf '%-8s %-6s %12s %10s %14s\n' round build requests/s p99 "CPU µs/request"
for round in $(seq "$rounds"); do
    for name in before after; do
        binary="$before"; [ "$name" = after ] && binary="$after"
        read -r rps p99 cpu <<<"$(run "$binary")"
        printf '%-8s %-6s %12s %10s %14s\n' "$round" "$name" "$rps" "$p99" "$cpu"
    done
done
