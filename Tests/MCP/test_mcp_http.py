#!/usr/bin/env python3
"""`skillhost mcp --http` driven by the official MCP Python client over Streamable HTTP
(mcp.client.streamable_http), directly and through nginx in front of two instances.

Run by `make test` with the virtual environment `.ci/run` (or `make mcp-venv`) creates:
    .build/mcp-venv/bin/python Tests/MCP/test_mcp_http.py
Needs SKILLHOST_BIN_DIR (the built skillhost and the bundled skills beside it), SKILLHOST_MAIL_SKILL
(the mail skill's .so) and Debian's nginx on PATH or in /usr/sbin. Builds the C fixtures itself. Never
skips: a missing package, binary or nginx is a failure.
"""
import asyncio
import contextlib
import json
import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import httpx2
import mcp.types as types
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN_DIR = os.environ.get("SKILLHOST_BIN_DIR") or os.path.join(ROOT, ".build", "debug")
SKILLHOST = os.path.join(BIN_DIR, "skillhost")
MAIL_SKILL = os.environ.get("SKILLHOST_MAIL_SKILL") or os.path.join(ROOT, "Plugins", "MailSkill", ".build", "release", "libMailSkill.so")
FIXTURES = tempfile.mkdtemp(prefix="skillhost-mcp-http-fixtures.")
TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
LISTENING = re.compile(r"^skillhost mcp: listening on (http://\S+/mcp)$")


def setUpModule():
    if not os.access(SKILLHOST, os.X_OK):
        raise RuntimeError(f"{SKILLHOST} is not built (run `make test`)")
    subprocess.run(["make", "-s", "-j2", "-C", os.path.join(ROOT, "Tests", "Fixtures"), f"OUT={FIXTURES}"], check=True)


def tearDownModule():
    shutil.rmtree(FIXTURES, ignore_errors=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Instance:
    """One `skillhost mcp --http` process; `url` is what its stderr line says it listens on."""

    def __init__(self, args, env):
        self.process = subprocess.Popen([SKILLHOST, "mcp", *args], env=env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.stderr = []
        self.url = None
        deadline = time.monotonic() + 30
        while self.url is None and time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            self.stderr.append(line)
            m = LISTENING.match(line.rstrip("\n"))
            if m:
                self.url = m.group(1)
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()
        if self.url is None:
            self.stop()
            raise RuntimeError(f"skillhost mcp --http did not say where it listens: {''.join(self.stderr)}")

    def _drain(self):
        for line in self.process.stderr:
            self.stderr.append(line)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.reader.join(5)
        self.process.stderr.close()
        return self.process.returncode


class HttpTestCase(unittest.IsolatedAsyncioTestCase):
    token = "s3cret-token-for-tests"

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="skillhost-mcp-http.")
        self.skills = os.path.join(self.work, "skills")
        self.state = os.path.join(self.work, "state")
        os.makedirs(self.skills)
        os.chmod(self.work, 0o755)
        os.chmod(self.skills, 0o755)
        self.config = None
        self.instances = []
        self.notifications = []

    def tearDown(self):
        for i in self.instances:
            i.stop()
        shutil.rmtree(self.work, ignore_errors=True)

    def add(self, path, target=None):
        dest = os.path.join(self.skills, target or os.path.basename(path))
        shutil.copyfile(path, dest)
        os.chmod(dest, 0o755)
        return dest

    def env(self, **extra):
        env = {"HOME": self.work, "XDG_STATE_HOME": self.state, "XDG_CONFIG_HOME": os.path.join(self.work, "config"),
               "XDG_DATA_HOME": os.path.join(self.work, "data"), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        if self.config is not None:
            path = os.path.join(self.work, "config.json")
            with open(path, "w") as f:
                json.dump(self.config, f)
            env["SKILLHOST_CONFIG"] = path
        env.update(extra)
        return env

    def start(self, *args, token=True):
        env = self.env(SKILLHOST_MCP_TOKEN=self.token) if token else self.env()
        instance = Instance(["--http", "127.0.0.1:0", "--skills-dir", self.skills, *args], env)
        self.instances.append(instance)
        return instance

    def client(self, url, token=None, name="http-test-client", headers=None):
        """An SDK session over Streamable HTTP (an async context manager yielding the session)."""
        h = {"Authorization": f"Bearer {token or self.token}", **(headers or {})}

        test = self

        class Client:
            async def __aenter__(self):
                self.stack = contextlib.AsyncExitStack()
                await self.stack.__aenter__()
                try:
                    http = await self.stack.enter_async_context(create_mcp_http_client(headers=h))
                    read, write = await self.stack.enter_async_context(streamable_http_client(url, http_client=http))
                    session = await self.stack.enter_async_context(ClientSession(
                        read, write, message_handler=test.on_message, client_info=types.Implementation(name=name, version="1.0")))
                    await session.initialize()
                    return session
                except BaseException:
                    await self.stack.__aexit__(*sys.exc_info())
                    raise

            async def __aexit__(self, *exc):
                return await self.stack.__aexit__(*exc)

        return Client()

    async def on_message(self, message):
        self.notifications.append(message)

    def audit(self):
        path = os.path.join(self.state, "skillhost", "audit.jsonl")
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]

    async def wait_for_list_changed(self, timeout=10):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(isinstance(n, types.ToolListChangedNotification) for n in self.notifications):
                return
            await asyncio.sleep(0.02)
        self.fail(f"no notifications/tools/list_changed within {timeout} s; got {self.notifications}")


class WeatherSamples:
    """scripts/open-meteo-server.py: a loopback server answering like Open-Meteo (as make demo uses it)."""

    def __enter__(self):
        self.p = subprocess.Popen([sys.executable, os.path.join(ROOT, "scripts", "open-meteo-server.py")],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        port = self.p.stdout.readline().strip()
        if not port.isdigit():
            self.p.kill()
            raise RuntimeError(f"scripts/open-meteo-server.py did not print its port: {port!r}")
        return f"http://127.0.0.1:{port}"

    def __exit__(self, *exc):
        self.p.terminate()
        self.p.wait(10)
        self.p.stdout.close()


def bundled_config(weather_url):
    return {
        "timeZone": "Europe/Warsaw",
        "skills": {
            "dev.skillhost.calendar": {"calendars": [os.path.join(ROOT, "Plugins", "CalendarSkill", "Samples")]},
            "dev.skillhost.mail": {"mailbox": os.path.join(ROOT, "Plugins", "MailSkill", "Samples", "Maildir")},
            "dev.skillhost.weather": {"baseURL": weather_url, "geocodingURL": weather_url,
                                      "places": {"warsaw": {"latitude": 52.23, "longitude": 21.0}}},
        },
        "grants": {
            "dev.skillhost.calendar": {"read": ["{config:calendars}"]},
            "dev.skillhost.mail": {"read": ["{config:mailbox}"]},
            "dev.skillhost.weather": {"network": ["{config:baseURL}", "{config:geocodingURL}"]},
        },
    }


# Arguments for each bundled intent (reminder.complete gets the id reminder.create answered with).
BUNDLED_CALLS = {
    "calendar.events.list": {"from": "2026-11-30", "to": "2026-11-30"},
    "calendar.events.summary": {"from": "2026-11-30", "to": "2026-11-30"},
    "weather.forecast": {"place": "warsaw", "days": 2},
    "reminder.create": {"title": "buy milk", "due": "2026-11-30T18:00:00+01:00"},
    "reminder.list": {},
    "reminder.complete": None,
    "units.convert": {"value": 5, "from": "km", "to": "mi"},
    "mail.triage": {"unreadOnly": True},
    "mail.todos": {},
}


class McpHttpTests(HttpTestCase):
    async def test_lists_and_calls_every_bundled_tool(self):
        for so in ["libCalendarSkill.so", "libWeatherSkill.so", "libReminderSkill.so", "libUnitsSkill.so"]:
            self.add(os.path.join(BIN_DIR, so))
        self.add(MAIL_SKILL)
        with WeatherSamples() as weather:
            self.config = bundled_config(weather)
            server = self.start()
            async with self.client(server.url) as s:
                tools = (await s.list_tools()).tools
                intents = {}
                for t in tools:
                    self.assertRegex(t.name, TOOL_NAME, "names every MCP client accepts")
                    if t.name != "skillhost_ask":
                        intents[t.meta["dev.skillhost/intent"]] = t.name
                self.assertEqual(sorted(intents), sorted(BUNDLED_CALLS), "one tool per bundled intent")
                created = None
                for intent in sorted(intents, key=lambda i: (i == "reminder.complete", i)):
                    arguments = BUNDLED_CALLS[intent]
                    if intent == "reminder.complete":
                        arguments = {"id": created}
                    r = await s.call_tool(intents[intent], arguments)
                    self.assertFalse(r.is_error, f"{intent}: {r.content[0].text}")
                    self.assertIsInstance(r.structured_content, dict, intent)
                    if intent == "reminder.create":
                        created = r.structured_content.get("id") or r.structured_content["reminder"]["id"]
        calls = [l for l in self.audit() if l["intent"] in BUNDLED_CALLS]
        self.assertEqual(sorted(l["intent"] for l in calls), sorted(BUNDLED_CALLS))
        self.assertTrue(all((l["caller"], l["agentHost"], l["outcome"]) == ("agent", "http-test-client", "ok") for l in calls), calls)

    async def test_progress_streams_on_the_calls_response(self):
        for f in ["echo_c.so", "progress.so"]:
            self.add(os.path.join(FIXTURES, f))
        seen = []

        async def progress(value, total, message):
            seen.append((value, total, message))

        server = self.start()
        async with self.client(server.url) as s:
            r = await s.call_tool("fixture-progress", {}, progress_callback=progress)
            self.assertFalse(r.is_error)
            self.assertEqual([v for v, _, _ in seen], [1, 2, 3])
            self.assertEqual(seen[0][1:], (3, "step one of three"))
            bad = await s.call_tool("fixture-echo", {"text": 5})
            self.assertTrue(bad.is_error)
            self.assertIn('"text"', bad.content[0].text)

    async def wait_for_cancelled(self, count):
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and len([l for l in self.audit() if l["outcome"] == "cancelled"]) < count:
            await asyncio.sleep(0.05)
        return [l for l in self.audit() if l["intent"] == "fixture.slow"]

    async def test_cancelling_a_call_by_notification_or_by_closing_its_stream(self):
        for f in ["echo_c.so", "slow.so"]:
            self.add(os.path.join(FIXTURES, f))
        server = self.start()
        async with self.client(server.url) as s:
            task = asyncio.create_task(s.call_tool("fixture-slow", {"ms": 20000}))
            await asyncio.sleep(0.5)
            started = time.monotonic()
            await s.send_ping()
            self.assertLess(time.monotonic() - started, 0.5, "ping is answered while the slow call runs")
            task.cancel()  # the client sends notifications/cancelled in its own POST
            with self.assertRaises(asyncio.CancelledError):
                await task
            self.assertEqual([l["outcome"] for l in await self.wait_for_cancelled(1)], ["cancelled"])
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
                   "Authorization": f"Bearer {self.token}"}
        async with httpx2.AsyncClient() as h:
            init = await h.post(server.url, headers=headers, json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}})
            sid = init.headers["mcp-session-id"]
            call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "fixture-slow", "arguments": {"ms": 20000}}}
            async with h.stream("POST", server.url, headers={**headers, "Mcp-Session-Id": sid}, json=call) as r:
                self.assertEqual(r.headers["content-type"], "text/event-stream")
                await asyncio.sleep(0.5)
            # Leaving the block closed the stream: the server cancels the call.
        outcomes = [l["outcome"] for l in await self.wait_for_cancelled(2)]
        self.assertEqual(outcomes, ["cancelled", "cancelled"], "both calls ended long before 20 s")

    async def test_list_changed_reaches_every_connected_client(self):
        self.add(os.path.join(FIXTURES, "echo_c.so"))
        server = self.start()
        async with self.client(server.url, name="first") as a, self.client(server.url, name="second") as b:
            for s in (a, b):
                self.assertNotIn("fixture-noise", [t.name for t in (await s.list_tools()).tools])
            await asyncio.sleep(0.5)  # the clients open their GET streams after initialize
            self.add(os.path.join(FIXTURES, "stdout_noise.so"))
            await self.wait_for_list_changed()
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and len([n for n in self.notifications if isinstance(n, types.ToolListChangedNotification)]) < 2:
                await asyncio.sleep(0.02)
            changed = [n for n in self.notifications if isinstance(n, types.ToolListChangedNotification)]
            self.assertEqual(len(changed), 2, "one notification per client")
            for s in (a, b):
                self.assertIn("fixture-noise", [t.name for t in (await s.list_tools()).tools])
            r = await b.call_tool("fixture-noise", {})
            self.assertEqual(r.structured_content, {"quiet": True})
            await a.call_tool("fixture-echo", {"text": "x"})
        lines = self.audit()
        self.assertEqual([l["agentHost"] for l in lines], ["second", "first"], "each session is its own caller")
        self.assertEqual(len({l["session"] for l in lines}), 2, "each session is named in the audit line")

    async def test_without_the_token_the_answer_is_401(self):
        self.add(os.path.join(FIXTURES, "echo_c.so"))
        server = self.start()
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        async with httpx2.AsyncClient() as h:
            r = await h.post(server.url, json=body, headers=headers)
            self.assertEqual(r.status_code, 401)
            self.assertTrue(r.headers["www-authenticate"].startswith("Bearer"))
            r = await h.post(server.url, json=body, headers={**headers, "Authorization": "Bearer wrong"})
            self.assertEqual(r.status_code, 401)
            self.assertIn('error="invalid_token"', r.headers["www-authenticate"])
        with self.assertRaises(BaseException):
            async with self.client(server.url, token="not-the-token") as s:
                await s.list_tools()
        self.assertEqual(self.audit(), [], "nothing was called")

    async def test_a_bad_origin_is_403_and_allowed_origins_pass(self):
        self.add(os.path.join(FIXTURES, "echo_c.so"))
        server = self.start("--allow-origin", "https://app.example.com")
        body = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "browser", "version": "1"}}}
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
                   "Authorization": f"Bearer {self.token}"}
        async with httpx2.AsyncClient() as h:
            r = await h.post(server.url, json=body, headers={**headers, "Origin": "http://evil.example"})
            self.assertEqual(r.status_code, 403)
            self.assertIn("--allow-origin", r.json()["error"]["message"])
            for origin in ["https://app.example.com", "http://localhost:3000", "http://127.0.0.1:8080"]:
                r = await h.post(server.url, json=body, headers={**headers, "Origin": origin})
                self.assertEqual(r.status_code, 200, origin)
        with self.assertRaises(BaseException):
            async with self.client(server.url, headers={"Origin": "http://evil.example"}) as s:
                await s.list_tools()

    async def test_a_foreign_host_header_is_421_and_allowed_hosts_pass(self):
        """DNS rebinding: a page at attacker.example whose name now points at 127.0.0.1 sends its own
        name in Host; only loopback names with the bound port, and --allow-host names, are served."""
        self.add(os.path.join(FIXTURES, "echo_c.so"))
        server = self.start("--allow-host", "mcp.example.com")
        port = server.url.split(":")[2].split("/")[0]
        body = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "rebinding", "version": "1"}}}
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
                   "Authorization": f"Bearer {self.token}"}
        async with httpx2.AsyncClient() as h:
            for host in [f"attacker.example:{port}", "attacker.example", f"127.0.0.1:{int(port) % 65535 + 1}"]:
                r = await h.post(server.url, json=body, headers={**headers, "Host": host})
                self.assertEqual(r.status_code, 421, host)
                self.assertIn("--allow-host", r.json()["error"]["message"])
            for host in [f"localhost:{port}", f"127.0.0.1:{port}", "mcp.example.com", "mcp.example.com:443"]:
                r = await h.post(server.url, json=body, headers={**headers, "Host": host})
                self.assertEqual(r.status_code, 200, host)
        with self.assertRaises(BaseException):
            async with self.client(server.url, headers={"Host": "attacker.example"}) as s:
                await s.list_tools()
        async with self.client(server.url) as s:
            self.assertIn("fixture-echo", [t.name for t in (await s.list_tools()).tools])

    async def test_chunked_request_bodies_from_http_client_and_curl(self):
        """Real clients that send chunked bodies: http.client with an iterable body (no length), and
        curl -H 'Transfer-Encoding: chunked' --data-binary @- reading the body from a pipe."""
        import http.client
        self.add(os.path.join(FIXTURES, "echo_c.so"))
        server = self.start()
        host, port = server.url[len("http://"):-len("/mcp")].split(":")
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
                   "Authorization": f"Bearer {self.token}"}
        initialize = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "chunky", "version": "1"}}}).encode()
        conn = http.client.HTTPConnection(host, int(port), timeout=20)
        conn.request("POST", "/mcp", body=iter([initialize[:10], initialize[10:50], initialize[50:]]), headers=headers, encode_chunked=True)
        r = conn.getresponse()
        answer = r.read()
        self.assertEqual(r.status, 200, answer)
        self.assertEqual(json.loads(answer)["result"]["protocolVersion"], "2025-11-25")
        sid = r.getheader("Mcp-Session-Id")
        call = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                           "params": {"name": "fixture-echo", "arguments": {"text": "sent in chunks"}}}).encode()
        conn.request("POST", "/mcp", body=(call[i:i + 16] for i in range(0, len(call), 16)),
                     headers={**headers, "Mcp-Session-Id": sid}, encode_chunked=True)
        r = conn.getresponse()
        events = r.read().decode()
        self.assertEqual(r.status, 200, events)
        self.assertIn('"structuredContent":{"text":"sent in chunks"}', events)
        conn.close()
        curl = shutil.which("curl")
        self.assertIsNotNone(curl, "curl is not installed (apt-get install curl; .ci/run does)")
        p = subprocess.run([curl, "-sS", "-i", "-H", "Transfer-Encoding: chunked", "--data-binary", "@-", "-H", f"Mcp-Session-Id: {sid}",
                            *sum((["-H", f"{k}: {v}"] for k, v in headers.items()), []), server.url],
                           input=call.replace(b"sent in chunks", b"from curl"), capture_output=True, timeout=30)
        out = p.stdout.decode()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(out.startswith("HTTP/1.1 200"), out)
        self.assertIn('"structuredContent":{"text":"from curl"}', out)
        echoes = [l for l in self.audit() if l["intent"] == "fixture.echo"]
        self.assertEqual([l["outcome"] for l in echoes], ["ok", "ok"])

    async def test_a_host_beyond_loopback_without_a_token_is_refused(self):
        p = subprocess.run([SKILLHOST, "mcp", "--http", "0.0.0.0:0", "--skills-dir", self.skills], env=self.env(),
                           capture_output=True, text=True, timeout=30)
        self.assertEqual(p.returncode, 2)
        self.assertIn("needs a token", p.stderr)
        server = self.start(token=False)
        self.assertIn("warning: no token", "".join(server.stderr))


class NginxTests(HttpTestCase):
    """Two instances on one skill folder and state folder behind Debian's nginx (round robin, no
    session affinity): the SDK client lists and calls through it, and both instances answer."""

    def start_nginx(self, upstreams):
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.access(nginx, os.X_OK):
            raise RuntimeError("nginx is not installed (apt-get install nginx-light; .ci/run does)")
        prefix = os.path.join(self.work, "nginx")
        os.makedirs(os.path.join(prefix, "logs"))
        os.makedirs(os.path.join(prefix, "tmp"))
        port = free_port()
        servers = "\n".join(f"        server {u};" for u in upstreams)
        user = "user root;" if os.geteuid() == 0 else ""
        conf = f"""{user}
worker_processes 1;
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/logs/error.log warn;
events {{ worker_connections 256; }}
http {{
    log_format upstreams '$request_method $status $upstream_addr';
    access_log {prefix}/logs/access.log upstreams;
    client_body_temp_path {prefix}/tmp/body;
    proxy_temp_path {prefix}/tmp/proxy;
    fastcgi_temp_path {prefix}/tmp/fastcgi;
    uwsgi_temp_path {prefix}/tmp/uwsgi;
    scgi_temp_path {prefix}/tmp/scgi;
    upstream skillhost {{
{servers}
        keepalive 8;
    }}
    server {{
        listen 127.0.0.1:{port};
        location /mcp {{
            proxy_pass http://skillhost;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_buffering off;
            proxy_cache off;
            proxy_read_timeout 300s;
        }}
    }}
}}
"""
        with open(os.path.join(prefix, "nginx.conf"), "w") as f:
            f.write(conf)
        self.nginx = subprocess.Popen([nginx, "-p", prefix, "-c", os.path.join(prefix, "nginx.conf")],
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.addCleanup(self.stop_nginx)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if self.nginx.poll() is not None:
                    raise RuntimeError(f"nginx exited: {self.nginx.stderr.read().decode()}")
                time.sleep(0.05)
        self.access_log = os.path.join(prefix, "logs", "access.log")
        return f"http://127.0.0.1:{port}/mcp"

    def stop_nginx(self):
        self.nginx.terminate()
        self.nginx.wait(10)

    async def test_two_instances_behind_nginx_serve_one_client_without_affinity(self):
        for f in ["echo_c.so", "progress.so"]:
            self.add(os.path.join(FIXTURES, f))
        # nginx forwards Host: skillhost (the upstream's name), which the instances must be told of.
        a, b = self.start("--allow-host", "skillhost"), self.start("--allow-host", "skillhost")
        url = self.start_nginx([x.url[len("http://"):-len("/mcp")] for x in (a, b)])
        for client in range(3):
            async with self.client(url, name=f"client-{client}") as s:
                for _ in range(3):
                    names = [t.name for t in (await s.list_tools()).tools]
                    self.assertIn("fixture-echo", names)
                    r = await s.call_tool("fixture-echo", {"text": f"hello {client}"})
                    self.assertFalse(r.is_error, r.content[0].text)
                    self.assertEqual(r.structured_content, {"text": f"hello {client}"})
                seen = []

                async def progress(value, total, message):
                    seen.append(value)

                r = await s.call_tool("fixture-progress", {}, progress_callback=progress)
                self.assertFalse(r.is_error)
                self.assertEqual(seen, [1, 2, 3], "progress streams through nginx")
        with open(self.access_log) as f:
            lines = [line.split() for line in f if line.strip()]
        posts = [l for l in lines if l[0] == "POST"]
        self.assertTrue(all(l[1] in ("200", "202") for l in posts), lines)
        served = {l[2] for l in posts}
        self.assertEqual(served, {x.url[len("http://"):-len("/mcp")] for x in (a, b)}, "both instances served requests")
        calls = [l for l in self.audit() if l["intent"] == "fixture.echo"]
        self.assertEqual(len(calls), 9, "one shared audit log in the shared state folder")
        self.assertEqual(sorted({l["agentHost"] for l in calls}), ["client-0", "client-1", "client-2"],
                         "the instance that never saw the session still knows its client")


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    print(f"MCP HTTP client tests: {result.testsRun} run, {len(result.failures) + len(result.errors)} failed, {len(result.skipped)} skipped")
    sys.exit(0 if result.wasSuccessful() and not result.skipped else 1)
