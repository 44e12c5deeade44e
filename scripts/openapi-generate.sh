#!/usr/bin/env bash
# Regenerates the committed OpenAPI client (Sources/ReferenceAPIClient/Generated) from the
# reference APIs' document (Sources/ReferenceServer/OpenAPI/openapi.yaml).
#
# The generator is built once in .build-openapi-generator (a throwaway package that depends on
# swift-openapi-generator), so neither CI nor a normal build ever compiles it or its plugin.
# Run this after changing the document, and commit what it writes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
tool=$root/.build-openapi-generator
mkdir -p "$tool"
cat > "$tool/Package.swift" <<'MANIFEST'
// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "openapi-generator-tool",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")],
    targets: []
)
MANIFEST
swift build -c release --package-path "$tool" --product swift-openapi-generator
generator=$(swift build -c release --package-path "$tool" --show-bin-path)/swift-openapi-generator
out=$root/Sources/ReferenceAPIClient/Generated
mkdir -p "$out"
"$generator" generate \
    --config "$root/Sources/ReferenceAPIClient/openapi-generator-config.yaml" \
    --output-directory "$out" \
    "$root/Sources/ReferenceServer/OpenAPI/openapi.yaml"
# The document's digest, which a test compares with the document's, so an edit to the
# document that is not regenerated fails the suite.
sha256sum "$root/Sources/ReferenceServer/OpenAPI/openapi.yaml" | cut -d' ' -f1 > "$root/Sources/ReferenceAPIClient/document.sha256"
echo "wrote $(ls "$out" | tr '\n' ' ')to $out"
