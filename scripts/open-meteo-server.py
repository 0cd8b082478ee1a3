#!/usr/bin/env python3
"""A loopback server that answers like Open-Meteo, from the weather skill's samples. Standard library only.

    python3 scripts/open-meteo-server.py [--samples DIR] [--log FILE] [--port N]

Prints the port it listens on (127.0.0.1) as its first line, then serves until killed:
  GET /v1/forecast?…   the sample forecast (DIR/v1/forecast) with the requested latitude/longitude put in
                       (the days are the sample's wherever the place is)
  GET /v1/search?name=…&count=…&language=…&format=json
                       the answer listed for the name in DIR/v1/search.json (case and accents ignored),
                       cut to `count`; a name not listed gets the real service's empty answer
                       ({"generationtime_ms":…}, no "results"); a missing name is a 400 like the real one.
Every request line (path and query) is appended to the log file, so tests can count requests.
"""
import argparse
import json
import os
import sys
import unicodedata
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def fold(text):
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Plugins", "WeatherSkill", "Samples")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", default=root)
    parser.add_argument("--log")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    with open(os.path.join(args.samples, "v1", "forecast"), "rb") as f:
        forecast = f.read()
    with open(os.path.join(args.samples, "v1", "search.json"), encoding="utf-8") as f:
        names = {fold(k): v for k, v in json.load(f)["names"].items()}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def reply(self, status, body):
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            if args.log:
                with open(args.log, "a", encoding="utf-8") as f:
                    f.write(urllib.parse.unquote(self.path) + "\n")
            url = urllib.parse.urlsplit(self.path)
            params = {k: v[-1] for k, v in urllib.parse.parse_qs(url.query, keep_blank_values=True).items()}
            if url.path == "/v1/forecast":
                answer = json.loads(forecast)
                try:
                    answer["latitude"], answer["longitude"] = float(params["latitude"]), float(params["longitude"])
                except (KeyError, ValueError):
                    pass
                return self.reply(200, json.dumps(answer, ensure_ascii=False).encode("utf-8"))
            if url.path == "/v1/search":
                if "name" not in params:
                    return self.reply(400, b'{"error":true,"reason":"Parameter \'name\' is required"}')
                answer = dict(names.get(fold(params["name"]), {}))
                if "results" in answer:
                    answer["results"] = answer["results"][: int(params.get("count", "10") or 10)]
                answer["generationtime_ms"] = 0.5
                return self.reply(200, json.dumps(answer, ensure_ascii=False).encode("utf-8"))
            self.reply(404, b'{"error":true,"reason":"no such path"}')

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
