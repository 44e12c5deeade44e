#!/usr/bin/env bash
# Builds the DocC documentation of every library product, and fails on any warning: a broken
# ``Symbol`` link, an unresolved <doc:Article>, a documented parameter that does not exist.
#
#   scripts/docs.sh [TARGET ...]     (default: every library target below)
#
# Uses swift-docc-plugin (`swift package generate-documentation`). The archives land in
# .build/docs/TARGET.doccarchive. Not part of CI: it builds the package and its symbol graphs.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(Courier CourierAsyncHTTPClient CourierURLSession CourierCompression CourierOpenAPI CourierTesting
             CourierSQLite CourierPostgres CourierWebSocket RadarCore RadarAPI ClarityAPI IntervalsCore IntervalsAPI)
fi
mkdir -p .build/docs
failed=()
for target in "${targets[@]}"; do
    echo "== $target"
    log=.build/docs/$target.log
    if ! swift package --allow-writing-to-directory .build/docs generate-documentation \
        --target "$target" --warnings-as-errors --output-path ".build/docs/$target.doccarchive" >"$log" 2>&1; then
        grep -E "warning:|error:" "$log" | sort -u | head -40 || tail -20 "$log"
        failed+=("$target")
    fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "documentation with warnings or errors: ${failed[*]} (logs in .build/docs/)"
    exit 1
fi
echo "documentation of ${#targets[@]} targets built without a warning (.build/docs/)"
