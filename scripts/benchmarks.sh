#!/usr/bin/env bash
# Counts the heap allocations of Courier's hot paths with ordo-one/benchmark (the Benchmarks/
# package, built in release in Benchmarks/.build) and checks them against the thresholds
# committed in Benchmarks/Thresholds/:
#   scripts/benchmarks.sh           # run and check; exits 1 when a count rose past its threshold
#   scripts/benchmarks.sh update    # run and rewrite the thresholds
#   scripts/benchmarks.sh build     # only build them (release; .ci/run builds them in debug)
# Every mode builds the package first, on its own, and fails with the compiler's message when it
# no longer compiles (the benchmarks use Courier's public API from outside, so a change to that
# API can break them without breaking the main build).
# A count may exceed its stored value by the tolerance the benchmark sets in code (2 at the
# median, 4 at p90) before the check fails. Raising a threshold on purpose: run `update`,
# commit the changed Thresholds/ files, and say in the commit why the allocations grew.
# Counts are the whole process's: a GET over loopback counts the in-process reference server
# too, equally for raw and Courier, so compare Courier with raw in the same run.
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"

mode=${1:-check}
case "$mode" in
build | check | update) ;;
*)
    echo "usage: scripts/benchmarks.sh [check|update|build]" >&2
    exit 2
    ;;
esac
if ! swift build -c release --product CourierAllocations; then
    echo "the allocation benchmarks (Benchmarks/) do not compile" >&2
    exit 1
fi

case "$mode" in
build)
    echo "the allocation benchmarks build"
    ;;
update)
    swift package --allow-writing-to-package-directory benchmark thresholds update --path "$PWD/Thresholds"
    ;;
check)
    set +e
    output=$(swift package benchmark thresholds check --path "$PWD/Thresholds" 2>&1)
    status=$?
    set -e
    printf '%s\n' "$output"
    # The plugin exits non-zero for counts that fell below their thresholds too; its message
    # tells the two apart (benchmarkThresholdImprovement, benchmarkThresholdRegression).
    if [[ $status -eq 0 ]]; then
        echo "allocation counts: all within their thresholds"
    elif grep -q "benchmarkThresholdImprovement" <<<"$output" && ! grep -q "benchmarkThresholdRegression\|WORSE than" <<<"$output"; then
        echo "allocation counts: some fell below their thresholds; 'scripts/benchmarks.sh update' records them"
    else
        echo "allocation counts: a count rose past its threshold, or the run failed (exit $status)" >&2
        exit 1
    fi
    ;;
esac
