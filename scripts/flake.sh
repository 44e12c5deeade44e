#!/usr/bin/env bash
# Runs the test suite N times to catch flaky tests.
#
#   scripts/flake.sh 20          # build once, then `swift test --skip-build` 20 times
#
# Builds the package and its tests once (`swift build --build-tests`), then runs the suite
# N times without building. Stops at the first red run, printing which run failed and the
# names of the failing tests; after N green runs prints "N/N green". Each run's output is
# kept in .build/flake/run-K.log. Extra arguments after N go to every `swift test` (for
# example `--filter Dedup`).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || ! [[ "$1" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: scripts/flake.sh N [swift test arguments…]   (N: how many runs, at least 1)" >&2
    exit 2
fi
runs="$1"
shift

logs=".build/flake"
mkdir -p "$logs"

swift build --build-tests

for run in $(seq 1 "$runs"); do
    log="$logs/run-$run.log"
    echo "run $run/$runs"
    if swift test --skip-build "$@" >"$log" 2>&1; then
        continue
    fi
    echo "run $run/$runs failed (log: $log); failing tests:"
    # Swift Testing: "✘ Test name() recorded an issue …" / "✘ Test name() failed …";
    # XCTest: "Test Case '…' failed". Fall back to the end of the log if neither matches.
    failing="$(grep -E "✘ Test .* (failed|recorded an issue)|Test Case '.*' failed" "$log" \
        | sed -E "s/.*✘ Test (\"[^\"]*\"|[^ ]+).*/\1/; s/.*Test Case '([^']*)' failed.*/\1/" \
        | sort -u || true)"
    if [ -n "$failing" ]; then
        echo "$failing" | sed 's/^/  /'
    else
        echo "  (no test named as failing; the run itself failed — last lines:)"
        tail -n 20 "$log" | sed 's/^/  /'
    fi
    exit 1
done
echo "$runs/$runs green"
