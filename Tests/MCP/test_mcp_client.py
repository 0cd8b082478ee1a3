#!/usr/bin/env python3
"""`skillhost mcp` driven by the official MCP Python client (mcp.ClientSession + stdio_client).

Run by `make test` with the virtual environment `.ci/run` (or `make mcp-venv`) creates:
    .build/mcp-venv/bin/python Tests/MCP/test_mcp_client.py
Needs SKILLHOST_BIN_DIR (the built skillhost). Builds the C fixtures itself. Never skips: a missing
`mcp` package or binary is a failure.
"""
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
import mcp.types as types

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN_DIR = os.environ.get("SKILLHOST_BIN_DIR") or os.path.join(ROOT, ".build", "debug")
SKILLHOST = os.path.join(BIN_DIR, "skillhost")
FIXTURES = tempfile.mkdtemp(prefix="skillhost-mcp-fixtures.")


def setUpModule():
    if not os.access(SKILLHOST, os.X_OK):
        raise RuntimeError(f"{SKILLHOST} is not built (run `make test`)")
    subprocess.run(["make", "-s", "-j2", "-C", os.path.join(ROOT, "Tests", "Fixtures"), f"OUT={FIXTURES}"], check=True)


def tearDownModule():
    shutil.rmtree(FIXTURES, ignore_errors=True)


class McpClientTests(unittest.IsolatedAsyncioTestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="skillhost-mcp.")
        self.skills = os.path.join(self.work, "skills")
        self.state = os.path.join(self.work, "state")
        os.makedirs(self.skills)
        os.chmod(self.work, 0o755)
        os.chmod(self.skills, 0o755)
        for f in ["echo_c.so", "slow.so", "progress.so", "destructive.so"]:
            self.add(f)
        self.config = None
        self.notifications = []

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def add(self, name, target=None):
        dest = os.path.join(self.skills, target or name)
        shutil.copyfile(os.path.join(FIXTURES, name), dest)
        os.chmod(dest, 0o755)
        return dest

    def params(self):
        env = {"HOME": self.work, "XDG_STATE_HOME": self.state, "XDG_CONFIG_HOME": os.path.join(self.work, "config"),
               "XDG_DATA_HOME": os.path.join(self.work, "data"), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        if self.config is not None:
            path = os.path.join(self.work, "config.json")
            with open(path, "w") as f:
                json.dump(self.config, f)
            env["SKILLHOST_CONFIG"] = path
        return StdioServerParameters(command=SKILLHOST, args=["mcp", "--skills-dir", self.skills], env=env)

    async def on_message(self, message):
        self.notifications.append(message)

    def session(self, streams):
        read, write = streams
        return ClientSession(read, write, message_handler=self.on_message)

    def audit(self):
        path = os.path.join(self.state, "skillhost", "audit.jsonl")
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]

    async def test_initialize_and_list_tools(self):
        async with stdio_client(self.params()) as streams, self.session(streams) as s:
            init = await s.initialize()
            self.assertEqual(init.server_info.name, "skillhost")
            self.assertTrue(init.capabilities.tools.list_changed)
            self.assertIsNotNone(init.capabilities.logging)
            tools = (await s.list_tools()).tools
            names = [t.name for t in tools]
            self.assertEqual(names, sorted(names), "deterministic order")
            for n in ["fixture-echo", "fixture-progress", "fixture-slow"]:
                self.assertIn(n, names)
            self.assertNotIn("fixture-wipe", names, "destructive intents are not offered to agents by default")
            echo = next(t for t in tools if t.name == "fixture-echo")
            self.assertEqual(echo.input_schema["type"], "object")
            self.assertTrue(echo.annotations.read_only_hint)
            self.assertFalse(echo.annotations.destructive_hint)
            self.assertTrue(echo.annotations.idempotent_hint)
            self.assertEqual(echo.meta["dev.skillhost/skill"], "test.fixture.echo")
            self.assertEqual(echo.meta["dev.skillhost/version"], "1.0.0")
            self.assertEqual(echo.meta["dev.skillhost/intent"], "fixture.echo")
            for t in tools:
                self.assertRegex(t.name, r"^[a-zA-Z0-9_-]{1,64}$", "names every MCP client accepts")
            slow = next(t for t in tools if t.name == "fixture-slow")
            self.assertEqual(slow.output_schema["type"], "object")

    async def test_call_tool_returns_structured_content_and_the_same_json_as_text(self):
        async with stdio_client(self.params()) as streams, self.session(streams) as s:
            await s.initialize()
            await s.list_tools()
            r = await s.call_tool("fixture-echo", {"text": "héllo 你好"})
            self.assertFalse(r.is_error)
            self.assertEqual(r.structured_content, {"text": "héllo 你好"})
            self.assertEqual(json.loads(r.content[0].text), {"text": "héllo 你好"})
            line = self.audit()[-1]
            self.assertEqual((line["caller"], line["intent"], line["decision"], line["outcome"]), ("agent", "fixture.echo", "allowed", "ok"))

    async def test_bad_input_is_an_error_result_naming_the_field(self):
        async with stdio_client(self.params()) as streams, self.session(streams) as s:
            await s.initialize()
            r = await s.call_tool("fixture-echo", {"text": 5})
            self.assertTrue(r.is_error)
            self.assertIn("invalid_input", r.content[0].text)
            self.assertIn('"text"', r.content[0].text)

    async def test_progress_reaches_the_client(self):
        seen = []

        async def progress(value, total, message):
            seen.append((value, total, message))

        async with stdio_client(self.params()) as streams, self.session(streams) as s:
            await s.initialize()
            r = await s.call_tool("fixture-progress", {}, progress_callback=progress)
            self.assertFalse(r.is_error)
            self.assertEqual([v for v, _, _ in seen], [1, 2, 3])
            self.assertEqual(seen[0][1], 3)
            self.assertEqual(seen[0][2], "step one of three")

    async def test_cancelling_a_slow_call_stops_it_and_other_requests_go_on(self):
        async with stdio_client(self.params()) as streams, self.session(streams) as s:
            await s.initialize()
            task = asyncio.create_task(s.call_tool("fixture-slow", {"ms": 20000}))
            await asyncio.sleep(0.3)
            started = time.monotonic()
            await s.send_ping()
            self.assertLess(time.monotonic() - started, 0.5, "ping is answered while the slow call runs")
            task.cancel()  # the client sends notifications/cancelled
            with self.assertRaises(asyncio.CancelledError):
                await task
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and not any(l["outcome"] == "cancelled" for l in self.audit()):
                await asyncio.sleep(0.05)
            slow = [l for l in self.audit() if l["intent"] == "fixture.slow"]
            self.assertEqual([l["outcome"] for l in slow], ["cancelled"], "the skill was told and the call ended long before 20 s")
            r = await s.call_tool("fixture-echo", {"text": "after"})
            self.assertEqual(r.structured_content, {"text": "after"})

    async def test_cancelling_skillhost_ask_cancels_its_steps(self):
        self.add("agent_alpha.so")
        self.add("agent_beta.so")
        self.config = {"skills": {"test.fixture.alpha": {"sleepMs": 20000}, "test.fixture.beta": {"sleepMs": 20000}}}
        async with stdio_client(self.params()) as streams, self.session(streams) as s:
            await s.initialize()
            task = asyncio.create_task(s.call_tool("skillhost_ask", {"text": "run alpha and beta"}))
            await asyncio.sleep(0.8)
            task.cancel()  # the client sends notifications/cancelled
            with self.assertRaises(asyncio.CancelledError):
                await task
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and len([l for l in self.audit() if l["outcome"] == "cancelled"]) < 2:
                await asyncio.sleep(0.05)
            steps = [l for l in self.audit() if l["intent"] in ("fixture.alpha.run", "fixture.beta.run")]
            self.assertEqual(sorted(l["outcome"] for l in steps), ["cancelled", "cancelled"], "both steps stopped long before 20 s")
            self.assertEqual({l["caller"] for l in steps}, {"agent"}, "the steps run with the agent as caller")
            r = await s.call_tool("fixture-echo", {"text": "after"})
            self.assertEqual(r.structured_content, {"text": "after"})

    async def test_destructive_intent_is_refused_unless_the_config_allows_it(self):
        async with stdio_client(self.params()) as streams, self.session(streams) as s:
            await s.initialize()
            r = await s.call_tool("fixture-wipe", {"target": "db", "password": "hunter2"})
            self.assertTrue(r.is_error)
            self.assertIn("denied", r.content[0].text)
            self.assertIn("policy.agent.allowDestructive", r.content[0].text)
        line = self.audit()[-1]
        self.assertEqual((line["decision"], line["rule"]), ("denied", "policy.agent.allowDestructive"))
        self.assertEqual(line["input"]["password"], "[redacted]")

        self.config = {"policy": {"agent": {"allowDestructive": ["test.fixture.destructive"]}}}
        async with stdio_client(self.params()) as streams, self.session(streams) as s:
            await s.initialize()
            wipe = next(t for t in (await s.list_tools()).tools if t.name == "fixture-wipe")
            self.assertTrue(wipe.annotations.destructive_hint)
            r = await s.call_tool("fixture-wipe", {"target": "db"})
            self.assertFalse(r.is_error)
            self.assertEqual(r.structured_content, {"wiped": True})

    async def test_ask_hands_a_whole_sentence_to_the_agent_engine(self):
        self.add("agent_alpha.so")
        self.add("agent_beta.so")
        self.config = {"skills": {"test.fixture.alpha": {"sleepMs": 0}, "test.fixture.beta": {"sleepMs": 0}}}
        seen = []

        async def progress(value, total, message):
            seen.append(message)

        async with stdio_client(self.params()) as streams, self.session(streams) as s:
            await s.initialize()
            ask = next(t for t in (await s.list_tools()).tools if t.name == "skillhost_ask")
            self.assertEqual(ask.input_schema["required"], ["text"])
            r = await s.call_tool("skillhost_ask", {"text": "run alpha and beta", "now": "2026-11-30T08:00:00+08:00"},
                                  progress_callback=progress)
            self.assertFalse(r.is_error, r.content[0].text)
            self.assertEqual(r.structured_content["status"], "answered")
            self.assertEqual([st["intent"] for st in r.structured_content["steps"]], ["fixture.alpha.run", "fixture.beta.run"])
            self.assertEqual(r.content[0].text, "Alpha done (v1)\nBeta done (v1)")
            self.assertTrue(os.path.exists(r.structured_content["trace"]), "a trace like skillhost ask")
            self.assertIn("done", seen, f"phases arrive as progress: {seen}")
            unknown = await s.call_tool("skillhost_ask", {"text": "book me a flight to Tokyo"})
            self.assertEqual(unknown.structured_content["status"], "not_understood")
            self.assertTrue(unknown.content[0].text.startswith("Sorry, I haven't learned that yet."))
            bad = await s.call_tool("skillhost_ask", {"words": "x"})
            self.assertTrue(bad.is_error)

    async def test_list_changed_after_a_skill_is_dropped_in_and_removed(self):
        async with stdio_client(self.params()) as streams, self.session(streams) as s:
            await s.initialize()
            before = [t.name for t in (await s.list_tools()).tools]
            self.assertNotIn("fixture-noise", before)
            self.add("stdout_noise.so")
            await self.wait_for_list_changed()
            after = [t.name for t in (await s.list_tools()).tools]
            self.assertIn("fixture-noise", after)
            r = await s.call_tool("fixture-noise", {})
            self.assertEqual(r.structured_content, {"quiet": True})
            self.notifications.clear()
            os.unlink(os.path.join(self.skills, "stdout_noise.so"))
            await self.wait_for_list_changed()
            self.assertNotIn("fixture-noise", [t.name for t in (await s.list_tools()).tools])

    async def wait_for_list_changed(self, timeout=5):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(isinstance(n, types.ToolListChangedNotification) for n in self.notifications):
                return
            await asyncio.sleep(0.02)
        self.fail(f"no notifications/tools/list_changed within {timeout} s; got {self.notifications}")


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    print(f"MCP client tests: {result.testsRun} run, {len(result.failures) + len(result.errors)} failed, {len(result.skipped)} skipped")
    sys.exit(0 if result.wasSuccessful() and not result.skipped else 1)
