#!/usr/bin/env bash
# The caching proxy's resident memory over a long run of misses, sampled along the way.
#
#   Benchmarks/proxy-memory.sh [SECONDS] [CONNECTIONS] [INTERVAL]   (defaults 300, 64 and 15)
#   CACHESCOPE=/path/to/cachescope Benchmarks/proxy-memory.sh       (another build)
#   PROXY_OPTIONS="--memory-capacity 4M" Benchmarks/proxy-memory.sh (more options for the proxy)
#
# Starts the demo origin and `cachescope proxy --no-ui` (default tiers, a throw-away cache
# directory), then runs `wrk -t2` with every request a new URL (a forward, a store and a new
# entry each) and prints the proxy's VmRSS (KiB) about every INTERVAL seconds (the labels count
# the intervals slept), then wrk's summary — a line with Non-2xx or Socket errors when any
# request failed — and the peak (VmHWM) and the store directory's size just after the burst.
# Needs Debian's `wrk` and `curl`; nothing is written outside a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-300}"
connections="${2:-64}"
interval="${3:-15}"
script=proxy-memory tools="wrk curl" packages="wrk curl"
. Benchmarks/proxy-workload.sh
start_origin_and_proxy || exit 1
write_misses_script "$work/misses.lua"

echo "seconds  resident KiB"
echo "0        $(proxy_status VmRSS)"
wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$work/misses.lua" "http://127.0.0.1:$proxy_port" >"$work/wrk.out" 2>&1 &
wrk_pid=$!
pids+=($wrk_pid)
elapsed=0
while [ "$elapsed" -lt "$seconds" ] && kill -0 "$wrk_pid" 2>/dev/null; do
    sleep "$interval"
    elapsed=$((elapsed + interval))
    kill -0 "$proxy_pid" 2>/dev/null || { echo "proxy-memory: the proxy exited" >&2; cat "$work/proxy.err" >&2; exit 1; }
    [ "$elapsed" -le "$seconds" ] && echo "$elapsed        $(proxy_status VmRSS)"
done
wrk_status=0
wait "$wrk_pid" || wrk_status=$?
if [ "$wrk_status" -ne 0 ]; then
    echo "proxy-memory: wrk failed (exit $wrk_status):" >&2
    cat "$work/wrk.out" >&2
    exit 1
fi
grep -E "Requests/sec|Non-2xx|Socket errors|requests in" "$work/wrk.out" || true
echo "peak resident KiB: $(proxy_status VmHWM); store directory: $(du -sk "$work/proxy-store" | cut -f1) KiB"
