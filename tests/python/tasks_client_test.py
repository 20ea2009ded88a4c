"""Task episodes with the two roles on one default `droidmcp serve --http` server: the agent is the
official MCP Python SDK over streamable HTTP, the harness is the REST API of the same server.

1. Sealed answer key: for aw.calendar.ir_description seed 5, no agent-visible output before the
   episode ends (instructions, tool list, prompts, resources, task tool results and errors, the step
   history) holds the expected description, a parameter value or a setup command; the agent's task
   tools show only the goal and the step limit; `task_check`/`task_end` are not agent tools.
2. One answer: a second `task_answer` is refused, and the harness's check scores the first (wrong)
   answer as a failure; the same instance answered right the first time scores success.
3. A check of a running episode is provisional.
4. Restart: the server is killed (SIGKILL) mid-episode and started again on the same store; the REST
   API reports the episode `aborted` with its steps.
5. Two doors: the REST API is the harness's and answers only the harness token (kept beside the store,
   mode 0600); a request without it, as an agent would make, is refused.

Usage: tasks_client_test.py /path/to/droidmcp   (DROIDMCP_STORE and DROIDMCP_TASKS set by the suite)
Exits non-zero on any failure.
"""

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from mcp import Client
from mcp.shared.exceptions import MCPError

TASK = "aw.calendar.ir_description"
SEED = 5


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    """One `droidmcp serve --http` process on a fresh port."""

    def __init__(self, binary):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [binary, "serve", "--http", f"127.0.0.1:{self.port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self.token_file = os.path.join(os.path.dirname(os.environ["DROIDMCP_STORE"]), "harness-token")
        self.token = None
        deadline = time.time() + 60
        while True:
            try:
                if self.token is None and os.path.exists(self.token_file):
                    with open(self.token_file) as f:
                        self.token = f.read().strip() or None
                status, _ = self.rest("GET", "/v1/tasks")
                if status == 200:
                    return
            except OSError:
                pass
            if self.proc.poll() is not None or time.time() > deadline:
                raise AssertionError(f"server did not start: {self.proc.stderr.read().decode()}")
            time.sleep(0.2)

    def rest(self, method, path, body=None, token=True):
        """A REST call as the harness (with its token) or, with `token=False`, as an agent would."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("content-type", "application/json")
        if token and self.token:
            req.add_header("authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            text = e.read()
            try:
                return e.code, json.loads(text or b"null")
            except ValueError:
                return e.code, text.decode(errors="replace")

    def ok(self, method, path, body=None):
        status, answer = self.rest(method, path, body)
        assert status == 200, f"{method} {path}: {status} {answer}"
        return answer

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait()


def text_of(result):
    return "\n".join(b.text for b in result.content if b.type == "text")


class Agent:
    """The agent's MCP client; keeps every output it receives, errors included."""

    def __init__(self, client):
        self.c = client
        self.seen = []

    def keep(self, *things):
        for t in things:
            self.seen.append(t if isinstance(t, str) else json.dumps(t, default=str))

    async def call(self, name, args, expect_error=False):
        r = await self.c.call_tool(name, args)
        self.keep(text_of(r), r.structured_content or {})
        if bool(r.is_error) != expect_error:
            raise AssertionError(f"{name} {args}: is_error={r.is_error}: {text_of(r)}")
        return r

    async def read_everything(self):
        """Everything else an agent can read: resources (steps history, screen) and prompts."""
        for res in (await self.c.list_resources()).resources:
            self.keep(res.uri, res.name, res.description or "")
            if res.mime_type and res.mime_type.startswith("image/"):
                continue
            for content in (await self.c.read_resource(res.uri)).contents:
                self.keep(getattr(content, "text", "") or "")
        for prompt in (await self.c.list_prompts()).prompts:
            self.keep(prompt.name, prompt.description or "")
            got = await self.c.get_prompt(prompt.name, {})
            for m in got.messages:
                self.keep(getattr(m.content, "text", "") or "")

    def assert_never_saw(self, secrets, when):
        text = "\n".join(self.seen).lower()
        for s in secrets:
            assert s.lower() not in text, f"{when}: the agent saw {s!r}"


async def sealed_answer_key(server):
    async with Client(server.base + "/mcp") as c:
        agent = Agent(c)
        agent.keep(c.instructions or "")
        tools = (await c.list_tools()).tools
        names = {t.name for t in tools}
        for t in tools:
            agent.keep(t.name, t.description or "", t.input_schema)
        for tool in ["task_list", "task_start", "task_answer", "task_finish"]:
            assert tool in names, f"missing {tool}"
        for tool in ["task_check", "task_end", "task_export"]:
            assert tool not in names, f"{tool} is an agent tool"
        assert "task_answer" in (c.instructions or ""), c.instructions

        # The catalog comes in pages; walking them by next_offset lists every task once.
        listed, offset = [], 0
        while offset is not None:
            page = (await agent.call("task_list", {"offset": offset})).structured_content
            assert len(page["tasks"]) <= 40, len(page["tasks"])
            listed += page["tasks"]
            offset = page.get("next_offset")
        assert len(listed) == page["total"] >= 100, (len(listed), page["total"])
        assert len({t["id"] for t in listed}) == len(listed)
        assert all(set(t) == {"id", "goal", "apps", "max_steps"} for t in listed), listed[0]

        # Overrides and devices are the harness's: refused, without echoing the values back.
        r = await agent.call("task_start", {"task": TASK, "seed": SEED, "params": {"h": 9}}, expect_error=True)
        assert "params" in text_of(r), text_of(r)
        await agent.call("task_start", {"task": "no.such.task"}, expect_error=True)

        started = (await agent.call("task_start", {"task": TASK, "seed": SEED})).structured_content
        assert set(started) == {"episode", "goal", "max_steps"}, started
        ep = started["episode"]

        # The agent's HTTP requests (no harness token) find every harness path shut.
        for method, path in [("GET", "/v1/tasks"), ("GET", f"/v1/tasks/{TASK}"), ("POST", f"/v1/tasks/{TASK}/start"),
                             ("GET", f"/v1/episodes/{ep}/export"), ("POST", f"/v1/episodes/{ep}/check"),
                             ("GET", f"/v1/episodes/{ep}/watch"), ("POST", "/v1/replays"), ("GET", "/v1/runs")]:
            status, body = server.rest(method, path, {} if method == "POST" else None, token=False)
            assert status == 401, (method, path, status, body)
            agent.keep(str(body))
        assert oct(os.stat(server.token_file).st_mode & 0o777) == "0o600", oct(os.stat(server.token_file).st_mode)

        # The harness reads the answer key over REST.
        record = server.ok("GET", f"/v1/episodes/{ep}/export")
        expected = record["params"]["desc"]
        goal = started["goal"]
        # The key is the description asked for, the other descriptions and the setup's SQL. The
        # events' titles are not: the task puts the phone on its June 2024 calendar, whose month
        # view shows them to anyone who opens Calendar; descriptions show only in an opened event.
        secrets = [expected] + [v for k, v in record["params"].items() if k.endswith("desc") and v not in goal]
        secrets += [line for line in record["setup"] if "INSERT" in line or "DELETE" in line]
        assert expected and expected not in goal, (expected, goal)

        # The agent looks around, acts, reads its history, answers wrong, then tries the right answer.
        await agent.call("screen", {})
        await agent.call("open_app", {"app": "calendar"})
        await agent.read_everything()
        await agent.call("history", {})
        await agent.call("task_answer", {"episode": ep, "answer": "Nothing"})
        second = await agent.call("task_answer", {"episode": ep, "answer": expected}, expect_error=True)
        refusal = text_of(second)
        assert "already has an answer" in refusal and "first" in refusal, refusal
        for tool in ["task_check", "task_end"]:
            try:
                r = await c.call_tool(tool, {"episode": ep})
            except MCPError as e:
                agent.keep(str(e))
            else:
                agent.keep(text_of(r))
                assert r.is_error, f"{tool} answered the agent: {text_of(r)}"
        await agent.call("task_finish", {"episode": ep})
        await agent.call("history", {})
        await agent.read_everything()
        agent.assert_never_saw(secrets, "before the episode ended")
        print(f"sealed: {len(agent.seen)} agent-visible outputs, none holds {expected!r} or the setup")

        # The harness checks: the FIRST answer is scored.
        report = server.ok("POST", f"/v1/episodes/{ep}/check")
        assert report["verdict"] == "failure" and report["success"] is False, report
        assert report["provisional"] is False, report
        answer = next(ch for ch in report["checks"] if ch["id"] == "answer")
        assert answer["value"] == "Nothing", answer
        truth = next(ch for ch in report["checks"] if ch["id"] == "truth")
        assert expected in truth["value"], truth  # the harness sees the evidence
        server.ok("POST", f"/v1/episodes/{ep}/end")
        print(f"first answer scored: {report['verdict']} (the second, right answer was refused)")

        # The same instance, started by the harness and answered right the first time, succeeds.
        started = server.ok("POST", f"/v1/tasks/{TASK}/start", {"seed": SEED})
        assert started["params"]["desc"] == expected, started
        ep2 = started["episode"]
        await agent.call("task_answer", {"episode": ep2, "answer": expected})
        report = server.ok("POST", f"/v1/episodes/{ep2}/check")
        assert report["verdict"] == "success" and report["score"] == 1.0, report
        server.ok("POST", f"/v1/episodes/{ep2}/end")
        print("the right first answer scores success")


async def start_and_act(server):
    """Starts an operation episode as the agent, takes two steps; returns the episode id."""
    async with Client(server.base + "/mcp") as c:
        agent = Agent(c)
        started = (await agent.call("task_start", {"task": "aw.settings.wifi_off", "seed": 1})).structured_content
        ep = started["episode"]
        await agent.call("open_app", {"app": "settings"})
        await agent.call("tap", {"text": "Network & internet"})
        return ep


def restart_aborts(binary):
    server = Server(binary)
    try:
        ep = asyncio.run(start_and_act(server))
        before = server.ok("GET", f"/v1/episodes/{ep}/steps")["steps"]
        assert len(before) >= 2, before
        report = server.ok("POST", f"/v1/episodes/{ep}/check")
        assert report["provisional"] is True and report["status"] == "running", report
        print(f"running episode {ep}: {len(before)} steps, provisional check {report['verdict']}")
    finally:
        server.kill()
    server = Server(binary)
    try:
        summary = server.ok("GET", f"/v1/episodes/{ep}")
        assert summary["status"] == "aborted", summary
        assert "process" in (summary["abort_reason"] or ""), summary
        assert summary["steps"] == len(before), summary
        after = server.ok("GET", f"/v1/episodes/{ep}/steps")["steps"]
        assert [s["action"] for s in after] == [s["action"] for s in before], (before, after)
        status, body = server.rest("POST", f"/v1/episodes/{ep}/check")
        assert status == 409 and "aborted" in body["error"], (status, body)
        print(f"after kill -9 and restart: {ep} aborted with its {len(after)} steps")
    finally:
        server.stop()


def main():
    binary = sys.argv[1]
    server = Server(binary)
    try:
        asyncio.run(sealed_answer_key(server))
    finally:
        server.stop()
    restart_aborts(binary)
    print("tasks-python: passed")


if __name__ == "__main__":
    main()
