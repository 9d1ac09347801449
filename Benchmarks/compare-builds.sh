#!/usr/bin/env bash
# Runs benchmark executables of two release builds alternately (before, after, before, …), with
# `vmstat 5` beside them, so that machine noise falls on both alike.
#
#   Benchmarks/compare-builds.sh BEFORE_DIR AFTER_DIR OUT_DIR ROUNDS BENCHMARK...
#
# BEFORE_DIR and AFTER_DIR are `Benchmarks/.build/release` folders of two checkouts (build each
# with `swift build -c release --package-path Benchmarks`); each run's output goes to
# OUT_DIR/BENCHMARK.before.N.txt and OUT_DIR/BENCHMARK.after.N.txt, vmstat's to OUT_DIR/vmstat.txt
# (its last column, st, is the CPU steal).
set -euo pipefail
if [ "$#" -lt 5 ]; then
    echo "usage: $0 BEFORE_DIR AFTER_DIR OUT_DIR ROUNDS BENCHMARK..." >&2
    exit 64
fi
rounds=$4
case "$rounds" in '' | *[!0-9]*) echo "$0: ROUNDS must be a whole number, not '$rounds'" >&2; exit 64 ;; esac
for dir in "$1" "$2"; do
    [ -d "$dir" ] || { echo "$0: no folder $dir (build it first)" >&2; exit 66; }
done
# Absolute, because each run starts in /tmp.
before=$(cd "$1" && pwd) after=$(cd "$2" && pwd)
mkdir -p "$3"
out=$(cd "$3" && pwd)
shift 4
for dir in "$before" "$after"; do
    for bench in "$@"; do
        [ -x "$dir/$bench" ] || { echo "$0: no executable $dir/$bench (build it first)" >&2; exit 66; }
    done
done
vmstat 5 > "$out/vmstat.txt" &
vmstat_pid=$!
trap 'kill "$vmstat_pid" 2>/dev/null || true' EXIT
for round in $(seq 1 "$rounds"); do
    for bench in "$@"; do
        for side in before after; do
            dir=$before
            [ "$side" = after ] && dir=$after
            # From /tmp: the benchmarks make their temporary files there, not in the checkout.
            (cd /tmp && timeout 900 "$dir/$bench") > "$out/$bench.$side.$round.txt" 2>&1 || true
        done
    done
    echo "round $round of $rounds done"
done
