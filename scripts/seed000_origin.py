#!/usr/bin/env python3
"""A plain origin that answers the Radar API exactly as seed 000 defines it, from the
hand-written contract fixtures: no sign-in, no X-Total-Count, a bare JSON array for the list.

    python3 scripts/seed000_origin.py [PORT]      # prints "listening on http://127.0.0.1:PORT"
    courier radar list --server http://127.0.0.1:PORT
    courier radar show r_1 --server http://127.0.0.1:PORT

Listens on 127.0.0.1 only. For trying Courier against a backend it did not write; not part of CI.
"""
import json
import pathlib
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "Tests/CourierTests/Fixtures/Radar"
RADARS = json.loads((FIXTURES / "radar-list.json").read_text())
DETAIL = json.loads((FIXTURES / "radar.json").read_text())


class Handler(BaseHTTPRequestHandler):
    def _send(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/api/radars":
            return self._send(200, RADARS)
        if path.startswith("/api/radars/"):
            radar_id = path[len("/api/radars/"):]
            for radar in RADARS:
                if radar["id"] == radar_id:
                    return self._send(200, radar)
            if radar_id == DETAIL["id"]:
                return self._send(200, DETAIL)
        return self._send(404, {"message": "not found"})

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
