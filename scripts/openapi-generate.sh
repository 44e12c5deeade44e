#!/usr/bin/env bash
# Regenerates the committed OpenAPI clients:
# - Sources/ReferenceAPIClient/Generated from the reference APIs' document
#   (Sources/ReferenceServer/OpenAPI/openapi.yaml);
# - Sources/ClarityOpenAPI/Generated (types and client) and Sources/ClarityOpenAPIServer/Generated
#   (the server stubs the reference server implements) from the CLARITY backend's published
#   document (Contracts/clarity-backend/openapi.json), through scripts/clarity_openapi_input.py,
#   which turns closed string sets into strings and drops the document's prose (see its header).
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

# CLARITY: the published document, as committed in this repository.
published=$root/Contracts/clarity-backend/openapi.json
clarity=$root/Sources/ClarityOpenAPI
input=$tool/clarity-openapi.json
python3 "$root/scripts/clarity_openapi_input.py" "$published" "$input"
mkdir -p "$clarity/Generated"
"$generator" generate \
    --config "$clarity/openapi-generator-config.yaml" \
    --output-directory "$clarity/Generated" \
    "$input"
clarity_server=$root/Sources/ClarityOpenAPIServer
mkdir -p "$clarity_server/Generated"
"$generator" generate \
    --config "$clarity_server/openapi-generator-config.yaml" \
    --output-directory "$clarity_server/Generated" \
    "$input"
# Two digests, which a test compares: the published document's and the transform's (both
# generated targets come from the same input in the same run).
{
    sha256sum "$published" | cut -d' ' -f1
    sha256sum "$root/scripts/clarity_openapi_input.py" | cut -d' ' -f1
} > "$clarity/document.sha256"
echo "wrote $(ls "$clarity/Generated" | tr '\n' ' ')to $clarity/Generated"
echo "wrote $(ls "$clarity_server/Generated" | tr '\n' ' ')to $clarity_server/Generated"
