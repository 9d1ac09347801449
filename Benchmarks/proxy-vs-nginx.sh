#!/usr/bin/env bash
# cachescope proxy beside nginx's proxy_cache, in one run, with wrk (Debian's `wrk`, `nginx-light`).
#
#   Benchmarks/proxy-vs-nginx.sh [SECONDS] [CONNECTIONS]      (defaults 10 and 64)
#   CACHESCOPE=/tmp/proxy-before Benchmarks/proxy-vs-nginx.sh  (another build of cachescope)
#   PROXY_OPTIONS=--hits-on-event-loop Benchmarks/proxy-vs-nginx.sh  (more options for cachescope proxy)
#
# Starts the demo origin (`cachescope origin`), `cachescope proxy --no-ui` and an nginx with
# proxy_cache configured the same way (both in front of the same origin, both on loopback,
# both logging each request to /dev/null), then measures with wrk:
#   1. hits:  GET /large/1 (1 KiB, max-age=60) warmed once, then SECONDS of fresh hits;
#   2. misses: every request a new URL (/max-age/60?n=N): a forward, a store and a new entry;
# and the proxy's resident memory before and after (and its peak). The release binary is built
# if missing.
# Prints one table; nothing is written outside a temporary directory, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-10}"
connections="${2:-64}"
script=proxy-vs-nginx tools="wrk nginx curl" packages="wrk nginx-light curl"
. Benchmarks/proxy-workload.sh
start_origin_and_proxy || exit 1
nginx_port="$(free_port "$origin_port" "$proxy_port")"

mkdir -p "$work/nginx-cache"
cat >"$work/nginx.conf" <<EOF
user root;
worker_processes auto;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 4096; }
http {
    access_log /dev/null;
    proxy_cache_path $work/nginx-cache levels=1:2 keys_zone=cachescope:16m max_size=256m inactive=60m use_temp_path=off;
    upstream origin { server 127.0.0.1:$origin_port; keepalive 64; }
    server {
        listen 127.0.0.1:$nginx_port;
        location / {
            proxy_pass http://origin;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_cache cachescope;
            proxy_cache_lock on;
            add_header Cache-Status \$upstream_cache_status;
        }
    }
}
EOF
nginx -c "$work/nginx.conf" &
pids+=($!)

for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$nginx_port/max-age/1" && break; sleep 0.1; done

# Every request a new URL, so each one is a miss that is forwarded and stored.
write_misses_script "$work/misses.lua"

# wrk's summary as "requests/s p99 errors".
measure() {
    local output
    output="$(wrk -t2 -c"$connections" -d"${seconds}s" --latency "$@" 2>&1)"
    local rps p99 errors
    rps="$(awk '/Requests\/sec/ { print $2 }' <<<"$output")"
    p99="$(awk '$1 == "99%" { print $2 }' <<<"$output")"
    errors="$(awk '/Non-2xx|Socket errors/ { print }' <<<"$output" | tr '\n' ' ')"
    echo "$rps $p99 ${errors:-none}"
}

rss_start="$(proxy_status VmRSS)"
printf '%-28s %14s %10s  %s\n' "case ($connections connections, ${seconds}s)" "requests/s" "p99" "errors"
for name in cachescope nginx; do
    port="$proxy_port"; [ "$name" = nginx ] && port="$nginx_port"
    curl -s -o /dev/null "http://127.0.0.1:$port/large/1"; curl -s -o /dev/null "http://127.0.0.1:$port/large/1"
    read -r rps p99 errors <<<"$(measure "http://127.0.0.1:$port/large/1")"
    printf '%-28s %14s %10s  %s\n' "$name hit 1 KiB" "$rps" "$p99" "$errors"
done
rss_hits="$(proxy_status VmRSS)"
for name in cachescope nginx; do
    port="$proxy_port"; [ "$name" = nginx ] && port="$nginx_port"
    read -r rps p99 errors <<<"$(measure -s "$work/misses.lua" "http://127.0.0.1:$port")"
    printf '%-28s %14s %10s  %s\n' "$name miss and store" "$rps" "$p99" "$errors"
done
echo "cachescope proxy resident memory: ${rss_start} KiB at start, ${rss_hits} KiB after the hits, $(proxy_status VmRSS) KiB after the misses (peak $(proxy_status VmHWM) KiB)"
