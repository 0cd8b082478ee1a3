#!/usr/bin/env python3
"""`make bench`, part (f): `skillhost mcp` next to the official Python MCP SDK, in the same run.

One small client (stdlib only: JSON-RPC lines over pipes) measures a tools/call round trip on an echo
tool, sequentially and with 8 calls in flight, against
  - skillhost mcp, echo skill (Tests/Fixtures/echo_c.c) in a worker process (the default),
  - skillhost mcp, the same skill trusted (in-process),
  - an echo server written with the Python MCP SDK (Benchmarks/mcp_echo_server.py),
  - the client + pipe floor: a C program that answers each line at once (Benchmarks/mcp_floor_server.c),
    so what a server adds above the client's own cost shows next to each row,
then the time from a .so landing in the skill folder (atomic rename) to notifications/tools/list_changed,
and (f3) the same sequential tools/call over Streamable HTTP (`skillhost mcp --http`, one keep-alive
connection, http.client) next to the stdio figure.

    python Benchmarks/mcp_bench.py --bin .build/release [--calls 2000] [--warmup 200] [--http-only]
Run with the venv's python (make mcp-venv): the baseline server needs the `mcp` package.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Client:
    """A JSON-RPC client over a child's stdin/stdout (no MCP library)."""

    def __init__(self, argv, env=None):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.fd = self.p.stdout.fileno()
        self.buf = b""
        self.next = 0
        self.pending = []  # responses read while waiting for another one

    def line(self, timeout=None):
        """The next line from the server (our own buffer: `select` must see every byte not yet read)."""
        import select
        end = None if timeout is None else time.perf_counter() + timeout
        while b"\n" not in self.buf:
            if end is not None and not select.select([self.fd], [], [], max(0, end - time.perf_counter()))[0]:
                return None
            chunk = os.read(self.fd, 65536)
            if not chunk:
                raise RuntimeError("server closed its stdout")
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line

    def send(self, method, params=None, notify=False):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        if not notify:
            self.next += 1
            msg["id"] = self.next
        self.p.stdin.write(json.dumps(msg).encode() + b"\n")
        self.p.stdin.flush()
        return msg.get("id")

    def receive(self):
        """The next response (notifications are skipped)."""
        if self.pending:
            return self.pending.pop(0)
        while True:
            m = json.loads(self.line())
            if "id" in m and "method" not in m:
                return m

    def wait_notification(self, method, timeout):
        end = time.perf_counter() + timeout
        while True:
            line = self.line(max(0, end - time.perf_counter()))
            if line is None:
                return None
            if json.loads(line).get("method") == method:
                return time.perf_counter()

    def initialize(self):
        self.send("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
        r = self.receive()
        assert "result" in r, r
        self.send("notifications/initialized", notify=True)

    def close(self):
        self.p.stdin.close()
        try:
            self.p.wait(5)
        except subprocess.TimeoutExpired:
            self.p.kill()


def call_params(i):
    return {"name": "fixture.echo", "arguments": {"text": f"hello {i}"}}


def check(r):
    res = r.get("result")
    if not res or res.get("isError") or not res.get("structuredContent"):
        raise RuntimeError(f"bad tools/call answer: {r}")


def sequential(c, n, warmup):
    for i in range(warmup):
        c.send("tools/call", call_params(i)); check(c.receive())
    out = []
    for i in range(n):
        t = time.perf_counter_ns()
        c.send("tools/call", call_params(i))
        check(c.receive())
        out.append((time.perf_counter_ns() - t) / 1000)
    return out


class HttpClient:
    """A JSON-RPC client over one keep-alive HTTP/1.1 connection to `skillhost mcp --http` (stdlib only)."""

    def __init__(self, argv, env):
        import http.client
        import re
        self.p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
        port = None
        for line in self.p.stderr:
            m = re.match(r"skillhost mcp: listening on http://127\.0\.0\.1:(\d+)/mcp$", line.strip())
            if m:
                port = int(m.group(1))
                break
        if port is None:
            raise RuntimeError("skillhost mcp --http did not say where it listens")
        self.conn = http.client.HTTPConnection("127.0.0.1", port)
        self.headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        self.next = 0
        r = self.post("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
        self.headers["Mcp-Session-Id"] = self.session
        self.headers["MCP-Protocol-Version"] = r["result"]["protocolVersion"]

    def post(self, method, params):
        self.next += 1
        self.conn.request("POST", "/mcp", json.dumps({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params}), self.headers)
        r = self.conn.getresponse()
        body = r.read().decode()
        self.session = r.getheader("Mcp-Session-Id")
        if r.getheader("Content-Type") == "text/event-stream":
            body = [l[len("data: "):] for l in body.split("\n") if l.startswith("data: ")][-1]
        return json.loads(body)

    def close(self):
        self.conn.close()
        self.p.terminate()
        self.p.wait()


def http_sequential(c, n, warmup):
    for i in range(warmup):
        check(c.post("tools/call", call_params(i)))
    out = []
    for i in range(n):
        t = time.perf_counter_ns()
        check(c.post("tools/call", call_params(i)))
        out.append((time.perf_counter_ns() - t) / 1000)
    return out


def http_part(skillhost, skills, env, quiet_config, a, stdio_p50=None):
    """(f3): sequential tools/call over Streamable HTTP, worker process, audit off; next to stdio's."""
    c = HttpClient([skillhost, "mcp", "--http", "127.0.0.1:0", "--skills-dir", skills, "--config", quiet_config], env)
    seq = http_sequential(c, a.calls, a.warmup)
    c.close()
    p50 = statistics.median(seq)
    print()
    print(f"(f3) tools/call over Streamable HTTP (skillhost mcp --http, worker, no audit; one keep-alive connection, "
          f"SSE response; {a.warmup} warm-up + {a.calls} timed): sequential p50 {fmt(p50)} µs, p99 {fmt(pct(seq, 99))} µs"
          + (f"; stdio p50 {fmt(stdio_p50)} µs ({p50 / stdio_p50:.1f}×)" if stdio_p50 else ""))


def pings(c, n):
    out = []
    for _ in range(n):
        t = time.perf_counter_ns()
        c.send("ping", {})
        c.receive()
        out.append((time.perf_counter_ns() - t) / 1000)
    return out


def in_flight(c, n, depth=8):
    sent = {}
    out = []
    for i in range(depth):
        sent[c.send("tools/call", call_params(i))] = time.perf_counter_ns()
    issued = depth
    start = time.perf_counter_ns()
    while sent:
        r = c.receive()
        check(r)
        out.append((time.perf_counter_ns() - sent.pop(r["id"])) / 1000)
        if issued < n:
            sent[c.send("tools/call", call_params(issued))] = time.perf_counter_ns()
            issued += 1
    return out, n / ((time.perf_counter_ns() - start) / 1e9)


# Quick calls timed on each side of the "64 slow calls in flight" comparison (they all must answer
# within the slow calls' 5 s, about 0.2 s here).
QUICK_CALLS = 1000


def quick_calls(c, n):
    """n sequential echo calls, each timed alone (µs); responses to other requests are set aside."""
    out = []
    for i in range(n):
        t = time.perf_counter()
        want = c.send("tools/call", call_params(i))
        others = []
        while True:
            m = c.receive()
            if m.get("id") == want:
                break
            others.append(m)
        c.pending.extend(others)
        check(m)
        out.append((time.perf_counter() - t) * 1e6)
    return out


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def fmt(x):
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--swaps", type=int, default=9)
    ap.add_argument("--http-only", action="store_true", help="only (f3) and the stdio figure it is shown next to")
    a = ap.parse_args()
    skillhost = os.path.join(a.bin, "skillhost")
    work = tempfile.mkdtemp(prefix="skillhost-mcp-bench.")
    fixtures = os.path.join(work, "fixtures")
    subprocess.run(["make", "-s", "-C", os.path.join(ROOT, "Tests", "Fixtures"), f"OUT={fixtures}"], check=True)
    skills = os.path.join(work, "skills")
    os.makedirs(skills)
    shutil.copy(os.path.join(fixtures, "echo_c.so"), skills)
    floor_server = os.path.join(work, "mcp_floor_server")
    subprocess.run([os.environ.get("CC", "cc"), "-O2", "-o", floor_server, os.path.join(ROOT, "Benchmarks", "mcp_floor_server.c")], check=True)
    env = dict(os.environ, HOME=work, XDG_STATE_HOME=os.path.join(work, "state"), XDG_CONFIG_HOME=os.path.join(work, "config"))
    env.pop("SKILLHOST_CONFIG", None)
    trusted_config = os.path.join(work, "trusted.json")
    with open(trusted_config, "w") as f:
        json.dump({"trusted": ["test.fixture.echo"], "policy": {"audit": {"enabled": False}}}, f)
    quiet_config = os.path.join(work, "quiet.json")
    with open(quiet_config, "w") as f:
        json.dump({"policy": {"audit": {"enabled": False}}}, f)

    if a.http_only:
        c = Client([skillhost, "mcp", "--skills-dir", skills, "--config", quiet_config], env)
        c.initialize()
        stdio = statistics.median(sequential(c, a.calls, a.warmup))
        c.close()
        http_part(skillhost, skills, env, quiet_config, a, stdio)
        shutil.rmtree(work, ignore_errors=True)
        return

    floor_name = "client + pipe floor (C, no MCP)"
    servers = [
        (floor_name, [floor_server], env),
        ("skillhost mcp, worker process", [skillhost, "mcp", "--skills-dir", skills], env),
        ("skillhost mcp, worker, no audit", [skillhost, "mcp", "--skills-dir", skills, "--config", quiet_config], env),
        ("skillhost mcp, in-process", [skillhost, "mcp", "--skills-dir", skills, "--config", trusted_config], env),
        ("Python MCP SDK (MCPServer)", [sys.executable, os.path.join(ROOT, "Benchmarks", "mcp_echo_server.py")], env),
    ]
    rows = {}
    floors = {}
    rounds = 10
    print(f"(f) MCP tools/call round trip on an echo tool, one stdlib JSON-RPC client over pipes per server; "
          f"{a.warmup} warm-up + {a.calls} timed calls each, the sequential ones in {rounds} rounds that take the servers "
          f"in turn (so each has its share of this shared machine's quiet and busy spells); µs")
    print(f"    {'server':34} {'seq p50':>8} {'seq p99':>8} {'8-deep p50':>11} {'8-deep p99':>11} {'calls/s 8-deep':>15} {'seq p50 − floor':>16}")
    clients = {}
    for name, argv, e in servers:
        clients[name] = Client(argv, e)
        clients[name].initialize()
        sequential(clients[name], 0, a.warmup)
    seqs = {name: [] for name, _, _ in servers}
    per_round = max(1, a.calls // rounds)
    for _ in range(rounds):
        for name, _, _ in servers:
            seqs[name] += sequential(clients[name], per_round, 0)
    for name, _, _ in servers:
        c = clients[name]
        seq = seqs[name]
        floors[name] = statistics.median(pings(c, a.calls))
        par, rate = in_flight(c, a.calls)
        c.close()
        rows[name] = (statistics.median(seq), pct(seq, 99), statistics.median(par), pct(par, 99), rate)
        r = rows[name]
        above = fmt(r[0] - rows[floor_name][0]) if name != floor_name else "—"
        print(f"    {name:34} {fmt(r[0]):>8} {fmt(r[1]):>8} {fmt(r[2]):>11} {fmt(r[3]):>11} {r[4]:>15.0f} {above:>16}")
    print("    ping round trip p50 (the same client and pipes, no tool): " +
          ", ".join(f"{n} {fmt(v)}" for n, v in floors.items()))
    base = rows["Python MCP SDK (MCPServer)"]
    print("    ratios (Python SDK ÷ skillhost; higher is better for skillhost):")
    for name in list(rows)[1:-1]:
        r = rows[name]
        print(f"      {name:32} sequential p50 {base[0] / r[0]:.1f}×, 8-deep p50 {base[2] / r[2]:.1f}×, throughput {r[4] / base[4]:.1f}×")

    http_part(skillhost, skills, env, quiet_config, a, rows["skillhost mcp, worker, no audit"][0])

    # A quick call while 64 slow calls (5 s, Tests/Fixtures/delay_queue.c, thread-safe) are in flight:
    # each call is a task that holds no thread, so the quick one should not wait behind them.
    shutil.copy(os.path.join(fixtures, "delay_queue.so"), skills)
    c = Client([skillhost, "mcp", "--skills-dir", skills, "--config", quiet_config], env)
    c.initialize()
    # Warm-up first (the echo worker's start, the first calls' allocations), then 1000 calls a side:
    # 200 were too few to tell 2× from noise on this shared machine.
    quick_calls(c, 100)
    idle = quick_calls(c, QUICK_CALLS)
    slow_ids = set()
    for _ in range(64):
        slow_ids.add(c.send("tools/call", {"name": "fixture.delay", "arguments": {"ms": 5000}}))
    time.sleep(0.1)
    t_busy = time.perf_counter()
    busy = quick_calls(c, QUICK_CALLS)
    busy_span = time.perf_counter() - t_busy
    answered_slow = 0
    while answered_slow < 64:
        m = c.receive()
        if m.get("id") in slow_ids:
            check(m)
            answered_slow += 1
    c.close()
    os.unlink(os.path.join(skills, "delay_queue.so"))
    busy_p50, idle_p50 = statistics.median(busy), statistics.median(idle)
    print()
    print(f"(f2) quick tools/call (echo, worker) while 64 calls of 5 s are in flight on another skill: p50 {fmt(busy_p50)} µs, "
          f"p99 {fmt(pct(busy, 99))} µs; idle p50 {fmt(idle_p50)} µs ({busy_p50 / idle_p50:.2f}×); "
          f"{QUICK_CALLS} quick calls took {busy_span * 1000:.0f} ms, all before the first slow answer")

    # From a .so landing (atomic rename into the folder) to notifications/tools/list_changed.
    c = Client([skillhost, "mcp", "--skills-dir", skills, "--config", quiet_config], env)
    c.initialize()
    c.send("tools/list"); c.receive()
    lat = []
    for i in range(a.swaps):
        tmp = os.path.join(skills, ".swap.so.tmp")
        shutil.copy(os.path.join(fixtures, "swap.so"), tmp)
        t = time.perf_counter()
        os.rename(tmp, os.path.join(skills, "swap.so"))
        got = c.wait_notification("notifications/tools/list_changed", 5)
        lat.append((got - t) * 1000 if got else float("inf"))
        c.send("tools/list"); c.receive()
        os.unlink(os.path.join(skills, "swap.so"))
        c.wait_notification("notifications/tools/list_changed", 5)
        c.send("tools/list"); c.receive()
    c.close()
    landing = statistics.median(lat)
    print()
    print(f"(g) a .so renamed into the skill folder → notifications/tools/list_changed: median {landing:.1f} ms, "
          f"max {max(lat):.1f} ms over {a.swaps} (settle 25 ms + scan in a child process + registry swap)")

    worker = rows["skillhost mcp, worker process"]
    inproc = rows["skillhost mcp, in-process"]
    floor = rows[floor_name][0]
    print()
    print("Goals")
    for name, r in [("worker process", worker), ("in-process", inproc)]:
        ratio = base[0] / r[0]
        above = (f"{fmt(r[0] - floor)} µs vs {fmt(base[0] - floor)} µs, {(base[0] - floor) / (r[0] - floor):.1f}×" if r[0] > floor
                 else "the floor read higher (its noise exceeds what skillhost adds)")
        print(f"[{'met' if ratio >= 10 else 'NOT met'}] tools/call p50 at least 10× lower than the Python SDK server ({name})\n"
              f"          {fmt(r[0])} µs vs {fmt(base[0])} µs: {ratio:.1f}×; above the client + pipe floor ({fmt(floor)} µs): {above}")
    print(f"[{'met' if busy_p50 <= 2 * idle_p50 else 'NOT met'}] quick call p50 with 64 slow calls in flight ≤ 2× its idle p50\n"
          f"          {fmt(busy_p50)} µs vs idle {fmt(idle_p50)} µs: {busy_p50 / idle_p50:.2f}×")
    print(f"[{'met' if landing < 200 else 'NOT met'}] a .so landing → list_changed under 200 ms\n          median {landing:.1f} ms")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
