#!/usr/bin/env python3
"""Alertmanager's webhook receiver for the monitoring test: serves POST on 127.0.0.1:PORT and
appends each notification's JSON body, as one line, to FILE; any other request is a 404.
Usage: webhook_receiver.py PORT FILE (PORT 0: a free port, written to FILE.port)."""
import http.server
import json
import sys


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        try:
            notification = json.loads(body)
        except ValueError:
            self.send_error(400, "not JSON")
            return
        with open(self.server.record, "a", encoding="utf-8") as out:
            out.write(json.dumps(notification) + "\n")
        self.send_response(200)
        self.end_headers()

    def do_GET(self):
        self.send_error(404)

    def log_message(self, *args):
        pass


def main():
    port, record = int(sys.argv[1]), sys.argv[2]
    server = http.server.HTTPServer(("127.0.0.1", port), Receiver)
    server.record = record
    with open(record + ".port", "w", encoding="utf-8") as out:
        out.write(f"{server.server_address[1]}\n")
    server.serve_forever()


if __name__ == "__main__":
    main()
