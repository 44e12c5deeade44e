#!/usr/bin/env bash
# Builds libFuzzer targets (Fuzz/<Target>/, declared in Package.swift only when COURIER_FUZZ
# is set) with ASan in .build-fuzz, and runs them:
#   scripts/fuzz.sh FuzzHTTPDate 60     # one target for 60 seconds
#   scripts/fuzz.sh all 30              # every target in turn, 30 seconds each
# Seeds come from Fuzz/Seeds/<Target>/ (read only); the corpus grows in .build-fuzz/corpus/<Target>/;
# findings (crash-*, timeout-*, oom-*, leak-*) and run.log go to .build-fuzz/artifacts/<Target>/.
# Replay one: .build-fuzz/release/<Target> .build-fuzz/artifacts/<Target>/crash-<hash>
# Prints one line per target (execs, crashes); exits 1 if any run found something.
# FUZZ_ARGS adds libFuzzer flags (e.g. -detect_leaks=1; leak detection is off by default).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGETS=(FuzzCacheControl FuzzRetryAfter FuzzHTTPDate FuzzServerSentEvents FuzzMultipart FuzzRadarUpdate
    FuzzCachePayload FuzzQueueRow FuzzRequestTarget)
BUILD=.build-fuzz

usage() {
    echo "usage: scripts/fuzz.sh TARGET|all SECONDS" >&2
    echo "targets: ${TARGETS[*]}" >&2
    exit 2
}
[ $# -eq 2 ] || usage
[[ "$2" =~ ^[1-9][0-9]*$ ]] || usage # 0 would mean "no limit" to libFuzzer
SECONDS_EACH="$2"
if [ "$1" = all ]; then
    SELECTED=("${TARGETS[@]}")
else
    case " ${TARGETS[*]} " in *" $1 "*) SELECTED=("$1") ;; *) usage ;; esac
fi

# A build path of its own keeps the sanitized objects away from the normal build's. Its first
# use copies the resolved dependencies from .build, so that nothing has to be fetched again.
if [ ! -e "$BUILD/workspace-state.json" ] && [ -e .build/workspace-state.json ]; then
    mkdir -p "$BUILD"
    cp -a .build/workspace-state.json .build/checkouts "$BUILD/"
    [ ! -d .build/repositories ] || cp -a .build/repositories "$BUILD/"
    [ ! -d .build/artifacts ] || cp -a .build/artifacts "$BUILD/"
fi

# -sanitize=fuzzer on every Swift module only adds coverage instrumentation; libFuzzer's
# runtime, with its driver, is linked into the executable alone.
build() {
    COURIER_FUZZ=1 swift build -c release --build-path "$BUILD" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library "$@"
}

# ASan's ODR check can misfire on Swift metadata shared across static modules.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_odr_violation=0}"

FAILED=0
SUMMARY=()
for TARGET in "${SELECTED[@]}"; do
    echo "== $TARGET: building"
    build --product "$TARGET"
    BIN="$(build --show-bin-path)/$TARGET"
    CORPUS="$BUILD/corpus/$TARGET"
    ARTIFACTS="$BUILD/artifacts/$TARGET"
    SEEDS="Fuzz/Seeds/$TARGET"
    LOG="$ARTIFACTS/run.log"
    mkdir -p "$CORPUS" "$ARTIFACTS" "$SEEDS"
    STAMP="$(mktemp)"

    echo "== $TARGET: fuzzing for ${SECONDS_EACH}s (log: $LOG)"
    STATUS=0
    # shellcheck disable=SC2086 # FUZZ_ARGS is a list of flags.
    "$BIN" -max_total_time="$SECONDS_EACH" -print_final_stats=1 -timeout=10 -detect_leaks=0 \
        -artifact_prefix="$ARTIFACTS/" ${FUZZ_ARGS:-} "$CORPUS" "$SEEDS" >"$LOG" 2>&1 || STATUS=$?

    FINDINGS="$(find "$ARTIFACTS" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \
        -o -name 'leak-*' \) -newer "$STAMP")"
    rm -f "$STAMP"
    FOUND=0
    [ -z "$FINDINGS" ] || FOUND="$(printf '%s\n' "$FINDINGS" | wc -l | tr -d ' ')"
    [ -z "$FINDINGS" ] || sed 's/^/finding: /' <<<"$FINDINGS"
    EXECS="$(sed -n 's/^stat::number_of_executed_units: *//p' "$LOG" | tail -n 1)"
    [ -n "$EXECS" ] || EXECS="$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$LOG" | tail -n 1)"
    LINE="$TARGET: execs=${EXECS:-?} crashes=$FOUND exit=$STATUS corpus=$(find "$CORPUS" -type f | wc -l | tr -d ' ')"
    SUMMARY+=("$LINE")
    echo "$LINE"
    if [ "$STATUS" -ne 0 ] || [ "$FOUND" -ne 0 ]; then
        FAILED=1
        echo "-- $TARGET: the end of $LOG:"
        tail -n 40 "$LOG"
    fi
done

echo "== summary"
printf '%s\n' "${SUMMARY[@]}"
exit "$FAILED"
