# What Benchmarks/proxy-vs-nginx.sh and Benchmarks/proxy-memory.sh share; sourced by both (from
# the package's directory), not run. Expects `script` (the caller's name, for messages),
# `tools` (the commands it needs) and `packages` (the Debian packages that have them) to be
# set; sets `binary` (the cachescope executable: CACHESCOPE, or the release build, built if
# missing), `work` (a temporary directory, removed at exit), `pids` (killed at exit), and,
# once start_origin_and_proxy has run, `origin_port`, `proxy_port` and `proxy_pid`.

for tool in $tools python3; do
    command -v "$tool" >/dev/null || { echo "$script: $tool is missing (apt-get install $packages python3)" >&2; exit 64; }
done
binary="${CACHESCOPE:-.build/release/cachescope}"
[ -x "$binary" ] || [ -n "${CACHESCOPE:-}" ] || swift build -c release --product cachescope
[ -x "$binary" ] || { echo "$script: $binary is not an executable" >&2; exit 64; }
echo "cachescope: $binary (built $(date -r "$binary" '+%Y-%m-%d %H:%M'))"

work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# A free loopback port, other than those given.
free_port() {
    local port
    while true; do
        port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
        case " $* " in *" $port "*) ;; *) echo "$port"; return ;; esac
    done
}

# Starts the demo origin and `cachescope proxy --no-ui` in front of it (with PROXY_OPTIONS),
# each on a free port, and waits until the proxy answers through to the origin.
start_origin_and_proxy() {
    origin_port="$(free_port)"
    proxy_port="$(free_port "$origin_port")"
    "$binary" origin --listen "127.0.0.1:$origin_port" >"$work/origin.out" 2>&1 &
    pids+=($!)
    "$binary" proxy --origin "http://127.0.0.1:$origin_port" --listen "127.0.0.1:$proxy_port" --no-ui \
        --cache-dir "$work/proxy-store" --log "$work/proxy.log" ${PROXY_OPTIONS:-} >/dev/null 2>"$work/proxy.err" &
    proxy_pid=$!
    pids+=($proxy_pid)
    local _
    for _ in $(seq 100); do
        curl -sf --max-time 2 -o /dev/null "http://127.0.0.1:$proxy_port/max-age/1" && return 0
        sleep 0.1
    done
    echo "the proxy did not answer within 10 s:" >&2
    cat "$work/proxy.err" >&2
    return 1
}

# A field of the proxy's /proc status in KiB: `proxy_status VmRSS` (resident), `VmHWM` (peak).
proxy_status() { awk -v key="$1" '$1 == key":" { print $2 }' "/proc/$proxy_pid/status"; }

# Writes to FILE a wrk script in which every request is a new URL (/max-age/60?n=THREAD-N):
# a forward, a store and a new entry each.
write_misses_script() {
    cat >"$1" <<'LUA'
-- Each wrk thread has its own Lua state: without an id of its own, both threads would count
-- (and seed math.random) alike and ask for every URL twice.
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
}
