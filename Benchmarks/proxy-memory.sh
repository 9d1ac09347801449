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
# request failed — and the peak (VmHWM) and the store directory's size just after the burst. Needs Debian's `wrk` and `curl`; nothing is written outside a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-300}"
connections="${2:-64}"
interval="${3:-15}"
for tool in wrk curl python3; do
    command -v "$tool" >/dev/null || { echo "proxy-memory: $tool is missing (apt-get install wrk curl python3)" >&2; exit 64; }
done
binary="${CACHESCOPE:-.build/release/cachescope}"
[ -x "$binary" ] || [ -n "${CACHESCOPE:-}" ] || swift build -c release --product cachescope
[ -x "$binary" ] || { echo "proxy-memory: $binary is not an executable" >&2; exit 64; }
echo "cachescope: $binary (built $(date -r "$binary" '+%Y-%m-%d %H:%M'))"

work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
origin_port="$(free_port)"; proxy_port="$(free_port)"
while [ "$proxy_port" = "$origin_port" ]; do proxy_port="$(free_port)"; done
"$binary" origin --listen "127.0.0.1:$origin_port" >"$work/origin.out" 2>&1 &
pids+=($!)
"$binary" proxy --origin "http://127.0.0.1:$origin_port" --listen "127.0.0.1:$proxy_port" --no-ui \
    --cache-dir "$work/proxy-store" --log "$work/proxy.log" ${PROXY_OPTIONS:-} >/dev/null 2>"$work/proxy.err" &
proxy_pid=$!
pids+=($proxy_pid)
ready=""
for _ in $(seq 100); do
    curl -sf --max-time 2 -o /dev/null "http://127.0.0.1:$proxy_port/max-age/1" && { ready=yes; break; }
    sleep 0.1
done
[ -n "$ready" ] || { echo "proxy-memory: the proxy did not answer within 10 s" >&2; cat "$work/proxy.err" >&2; exit 1; }

cat >"$work/misses.lua" <<'LUA'
local threads = 0
function setup(thread)
    threads = threads + 1
    thread:set("id", threads)
end
counter = 0
request = function()
    counter = counter + 1
    return wrk.format("GET", "/max-age/60?n=" .. id .. "-" .. counter)
end
LUA

status() { awk -v key="$1" '$1 == key":" { print $2 }' "/proc/$proxy_pid/status"; }
echo "seconds  resident KiB"
echo "0        $(status VmRSS)"
wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$work/misses.lua" "http://127.0.0.1:$proxy_port" >"$work/wrk.out" 2>&1 &
wrk_pid=$!
pids+=($wrk_pid)
elapsed=0
while [ "$elapsed" -lt "$seconds" ] && kill -0 "$wrk_pid" 2>/dev/null; do
    sleep "$interval"
    elapsed=$((elapsed + interval))
    kill -0 "$proxy_pid" 2>/dev/null || { echo "proxy-memory: the proxy exited" >&2; cat "$work/proxy.err" >&2; exit 1; }
    [ "$elapsed" -le "$seconds" ] && echo "$elapsed        $(status VmRSS)"
done
wrk_status=0
wait "$wrk_pid" || wrk_status=$?
if [ "$wrk_status" -ne 0 ]; then
    echo "proxy-memory: wrk failed (exit $wrk_status):" >&2
    cat "$work/wrk.out" >&2
    exit 1
fi
grep -E "Requests/sec|Non-2xx|Socket errors|requests in" "$work/wrk.out" || true
echo "peak resident KiB: $(status VmHWM); store directory: $(du -sk "$work/proxy-store" | cut -f1) KiB"
