#!/usr/bin/env bash
# Counts the heap allocations of Courier's hot paths with ordo-one/benchmark (the Benchmarks/
# package, built in release in Benchmarks/.build) and checks them against the thresholds
# committed in Benchmarks/Thresholds/:
#   scripts/benchmarks.sh           # run and check; exits 1 when a count rose past its threshold
#   scripts/benchmarks.sh update    # run and rewrite the thresholds
# A count may exceed its stored value by the tolerance the benchmark sets in code (2 at the
# median, 4 at p90) before the check fails. Raising a threshold on purpose: run `update`,
# commit the changed Thresholds/ files, and say in the commit why the allocations grew.
# Counts are the whole process's: a GET over loopback counts the in-process reference server
# too, equally for raw and Courier, so compare Courier with raw in the same run.
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"

case "${1:-check}" in
update)
    swift package --allow-writing-to-package-directory benchmark thresholds update --path "$PWD/Thresholds"
    ;;
check)
    set +e
    swift package benchmark thresholds check --path "$PWD/Thresholds"
    status=$?
    set -e
    case "$status" in
    0) echo "allocation counts: all within their thresholds" ;;
    4) echo "allocation counts: some fell below their thresholds; 'scripts/benchmarks.sh update' records them" ;;
    *) echo "allocation counts: a count rose past its threshold (exit $status)" >&2; exit 1 ;;
    esac
    ;;
*)
    echo "usage: scripts/benchmarks.sh [check|update]" >&2
    exit 2
    ;;
esac
