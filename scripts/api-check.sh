#!/usr/bin/env bash
# Checks the reference server against the OpenAPI documents it implements: the reference APIs'
# own (Radar, intervals) and CLARITY's backend's published one.
#
#   scripts/api-check.sh [SECONDS]     (default 300: schemathesis's time budget)
#
# 1. openapi-spec-validator validates Sources/ReferenceServer/OpenAPI/openapi.yaml (3.1).
# 2. `courier serve` starts on a free loopback port; the demo account signs in.
# 3. schemathesis reads the document the server serves at /openapi.yaml and sends generated
#    requests (valid and invalid) to every operation, signed with the demo token, checking
#    that no answer is a server error (5xx) and that every answer matches the document:
#    status code, content type, headers and body schema. Invalid input must be refused (4xx).
#
# Both tools come from PyPI into .venv-api (made on first use). Exits non-zero on any failure.
# Not part of CI: it runs for minutes. Reports land in .build/api-check/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
venv=.venv-api
if [[ ! -x $venv/bin/schemathesis || ! -x $venv/bin/openapi-spec-validator ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet 'schemathesis==4.32.5' 'openapi-spec-validator==0.8.*'
fi
document=Sources/ReferenceServer/OpenAPI/openapi.yaml
"$venv/bin/openapi-spec-validator" "$document"

swift build --product courier
courier=$(swift build --show-bin-path)/courier
reports=.build/api-check
mkdir -p "$reports"
log=$reports/serve.log
"$courier" serve --port 0 > "$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
url=
for _ in $(seq 1 100); do
    url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$log" | head -1)
    [[ -n $url ]] && break
    kill -0 $server 2>/dev/null || { cat "$log"; exit 1; }
    sleep 0.1
done
[[ -n $url ]] || { echo "courier serve did not say where it listens"; cat "$log"; exit 1; }
url=${url%/}
token=$(curl -sf -X POST "$url/api/v1/auth/login" -H 'Content-Type: application/json' \
    -d '{"email":"demo@courier.dev","password":"courier-demo"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')

"$venv/bin/schemathesis" --config-file scripts/schemathesis.toml run "$url/openapi.yaml" \
    --url "$url" \
    -H "Authorization: Bearer $token" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,negative_data_rejection \
    --max-time "$seconds" \
    --seed 20261126 \
    --no-color \
    --report junit,json --report-dir "$reports"

# CLARITY, against its backend's own published document (the contract the server follows),
# status codes included. The service's own routes answer a few statuses its document does not
# list (the auth routes' 401, 403, 409 and 429, a 404 for an unknown id, …); the reference server
# answers them too, and scripts/clarity_observed_statuses.py adds exactly those, listed in its
# header, to a copy of the document that schemathesis reads. Every other check holds, error
# bodies included (HTTPValidationError for 422, ErrorResponse for 401/403/500).
# Logout is left out: it would revoke the token the rest of the run signs with.
clarity_document=Contracts/clarity-backend/openapi.json
"$venv/bin/openapi-spec-validator" "$clarity_document"
clarity_checked=$reports/clarity-openapi-with-observed-statuses.json
python3 scripts/clarity_observed_statuses.py "$clarity_document" "$clarity_checked"
"$venv/bin/schemathesis" --config-file scripts/schemathesis.toml run "$clarity_checked" \
    --url "$url" \
    -H "Authorization: Bearer $token" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,negative_data_rejection \
    --exclude-operation-id logout_api_v1_auth_logout_post \
    --max-time "$seconds" \
    --seed 20261128 \
    --no-color \
    --report junit,json --report-dir "$reports/clarity"
