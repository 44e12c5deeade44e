#!/usr/bin/env bash
# Runs the test suite under the thread sanitizer, in a build path of its own (.build-tsan),
# and fails on any report.
#
#   scripts/tsan.sh                      # the whole suite
#   scripts/tsan.sh --filter Dedup       # extra arguments go to `swift test`
#
# Reports the sanitizer cannot be right about are suppressed in scripts/tsan-suppressions.txt,
# each with the reason and the minimal reproduction that shows it (scripts/tsan-repro/).
# Not part of CI: a sanitized build takes several minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=.build-tsan
# Reuse the resolved dependencies of .build, so nothing has to be fetched again.
if [ ! -e "$BUILD/workspace-state.json" ] && [ -e .build/workspace-state.json ]; then
    mkdir -p "$BUILD"
    cp -a .build/workspace-state.json .build/checkouts "$BUILD/"
    [ ! -d .build/repositories ] || cp -a .build/repositories "$BUILD/"
fi

export TSAN_OPTIONS="suppressions=$PWD/scripts/tsan-suppressions.txt halt_on_error=0 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
LOG="$BUILD/tsan.log"
mkdir -p "$BUILD"
swift build --build-tests --sanitize=thread --build-path "$BUILD"
STATUS=0
# Everything runs several times slower under the sanitizer: the tests' bounds on failure (how
# long a wait may take before the test gives up) are lengthened fourfold. Tests that check that
# a timeout fires within a time keep their own figures.
export COURIER_TEST_PATIENCE="${COURIER_TEST_PATIENCE:-4}"
# Two groups of suites run on their own, after the rest, so that the whole suite is covered:
# - the resident-memory suites: their child processes download hundreds of MB from this
#   process's server, which under the sanitizer's slowdown starves every other test of the run
#   (their time-bounded waits then fail); alone, they pass (their figures are generous bounds);
# - the cache conformance floors: they run on virtual time, but their burst of a few hundred
#   loopback exchanges, under the sanitizer's slowdown, delayed other tests of the run past
#   their time-bounded waits (a 5 s deadline missed its head).
swift test --skip-build --sanitize=thread --build-path "$BUILD" --skip "MemoryTests|CacheConformanceFloorTests" "$@" >"$LOG" 2>&1 || STATUS=$?
if [ $# -eq 0 ]; then
    swift test --skip-build --sanitize=thread --build-path "$BUILD" --filter "MemoryTests" >>"$LOG" 2>&1 || STATUS=$?
    swift test --skip-build --sanitize=thread --build-path "$BUILD" --filter "CacheConformanceFloorTests" >>"$LOG" 2>&1 || STATUS=$?
fi
REPORTS="$(grep -c "WARNING: ThreadSanitizer" "$LOG" || true)"
grep -E "Test run with|✘" "$LOG" | tail -n 20 || true
echo "ThreadSanitizer reports: $REPORTS (log: $LOG)"
if [ "$REPORTS" -ne 0 ]; then
    grep -A 12 "WARNING: ThreadSanitizer" "$LOG" | head -n 80
    exit 1
fi
exit "$STATUS"
