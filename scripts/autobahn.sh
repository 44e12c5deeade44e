#!/usr/bin/env bash
# Runs the Autobahn|Testsuite WebSocket client cases against Courier's WebSocket client and
# summarises the verdicts (OK / NON-STRICT / INFORMATIONAL / UNIMPLEMENTED / FAILED).
#
#   scripts/autobahn.sh                 # every case
#   CASES=1,2,3 scripts/autobahn.sh     # some cases (1-based numbers, as the server counts them)
#
# - installs autobahntestsuite 0.8.2 under a prefix of its own (AUTOBAHN_PREFIX, default
#   .build/autobahn) with the Python 2.7.18 that pyenv provides (the suite does not start on
#   Python 3);
# - runs its fuzzing server on 127.0.0.1 only (scripts/autobahn_fuzzingserver.py), on a free port;
# - runs `courier conformance websocket` against it (release build unless CONFIG=debug);
# - prints the counts by result and the failed cases, from reports/clients/index.json.
# Not part of .ci/run: it installs packages and takes minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
PREFIX="${AUTOBAHN_PREFIX:-$ROOT/.build/autobahn}"
CONFIG="${CONFIG:-release}"
AGENT="${AGENT:-courier}"
SITE="$PREFIX/lib/python2.7/site-packages"

if [ ! -d "$SITE/autobahntestsuite" ]; then
    echo "installing autobahntestsuite 0.8.2 into $PREFIX"
    PYENV_VERSION=2.7.18 pyenv exec python -m pip install --quiet --prefix "$PREFIX" autobahntestsuite==0.8.2
fi

swift build -c "$CONFIG" --product courier
COURIER="$(swift build -c "$CONFIG" --show-bin-path)/courier"

WORK="$PREFIX/run"
rm -rf "$WORK"
mkdir -p "$WORK"
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
cat > "$WORK/fuzzingserver.json" <<SPEC
{
  "url": "ws://127.0.0.1:$PORT",
  "outdir": "./reports/clients",
  "cases": ["*"],
  "exclude-cases": [],
  "exclude-agent-cases": {}
}
SPEC

cd "$WORK"
AUTOBAHN_SITE="$SITE" PYENV_VERSION=2.7.18 pyenv exec python "$ROOT/scripts/autobahn_fuzzingserver.py" \
    -m fuzzingserver -s fuzzingserver.json --webport 0 > fuzzingserver.log 2>&1 &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null || true' EXIT

for _ in $(seq 1 100); do
    if python3 -c "import socket, sys; s = socket.socket(); sys.exit(s.connect_ex(('127.0.0.1', $PORT)))"; then break; fi
    sleep 0.2
done
echo "fuzzing server on 127.0.0.1:$PORT (pid $SERVER_PID); listening sockets:"
(ss -ltnp 2>/dev/null || netstat -ltnp 2>/dev/null) | grep ":$PORT " || true

ARGS=(conformance websocket --server "ws://127.0.0.1:$PORT" --agent "$AGENT")
if [ -n "${CASES:-}" ]; then ARGS+=(--cases "$CASES"); fi
"$COURIER" "${ARGS[@]}"

python3 "$ROOT/scripts/autobahn_summary.py" "$WORK/reports/clients" "$AGENT"
