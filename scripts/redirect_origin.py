#!/usr/bin/env python3
"""Two plain origins for checking that credentials and bodies stay with their origin.

    python3 scripts/redirect_origin.py [PORT_A] [PORT_B] [STATUS]
    courier login --server http://127.0.0.1:PORT_A --credentials /tmp/c.json

Origin A answers every request with STATUS (307 by default) and `Location: http://127.0.0.1:PORT_B`
plus the same path. Origin B answers 200 `{}` and prints one line per request it receives: method,
path, whether it carried Authorization or Cookie, and how many body bytes arrived. Nothing printed
for B means nothing reached it. Listens on 127.0.0.1 only; not part of CI.
"""
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT_A = int(sys.argv[1]) if len(sys.argv) > 1 else 18081
PORT_B = int(sys.argv[2]) if len(sys.argv) > 2 else 18082
STATUS = int(sys.argv[3]) if len(sys.argv) > 3 else 307


class Redirector(BaseHTTPRequestHandler):
    def _redirect(self):
        self.send_response(STATUS)
        self.send_header("Location", f"http://127.0.0.1:{PORT_B}{self.path}")
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _redirect

    def log_message(self, *args):
        pass


class Recorder(BaseHTTPRequestHandler):
    def _record(self):
        length = int(self.headers.get("Content-Length", "0") or "0")
        body = self.rfile.read(length) if length else b""
        carried = [name for name in ("Authorization", "Cookie") if self.headers.get(name)]
        print(f"B received {self.command} {self.path} carrying {carried or 'no credentials'}, {len(body)} body bytes", flush=True)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _record

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    b = ThreadingHTTPServer(("127.0.0.1", PORT_B), Recorder)
    threading.Thread(target=b.serve_forever, daemon=True).start()
    print(f"A on http://127.0.0.1:{PORT_A} ({STATUS} to B), B on http://127.0.0.1:{PORT_B}", flush=True)
    ThreadingHTTPServer(("127.0.0.1", PORT_A), Redirector).serve_forever()
